// Ejercicios (/ejercicios, docs/players.md): a position of a real finished hand, as its seat saw
// it; the visitor picks an action, and the coach's answer comes back in words with the options'
// equities and the move of her puzzle rating. The day's exercise (the same for everyone) or her
// own stream. Everything shown is text (the coach's words too), never markup.

import { ApiError, call } from "./api";
import { cardSvg } from "./cards";
import { type Html, html, mount, NOTHING } from "./html";
import { actionLabel, getLang, t } from "./i18n";
import { errorText, header, root } from "./page";
import type { View } from "./types";

export interface Mine {
  rating: number;
  deviation: number;
  attempts: number;
}

export interface Answered {
  id: string;
  answer: string;
  solved: boolean;
  best: string;
  options: { action: string; equity: number }[];
  words: { es: string; en: string };
  rating_before: number;
  rating_after: number;
  first: boolean;
}

export interface Exercise {
  id: string;
  position: View;
  rating: number;
  attempts: number;
  solved: number;
  own: boolean;
  answered: Answered | null;
}

export interface Stream {
  exercise: Exercise | null;
  me: Mine;
}

export type Tab = "hoy" | "siguiente";

export interface EjState {
  tab: Tab;
  stream: Stream | null;
  problem: string;
}

let state: EjState = { tab: "hoy", stream: null, problem: "" };
let listening = false;

/** Draw /ejercicios if `path` is it; returns whether it was (router.ts). */
export function openEjercicios(path: string): boolean {
  if (!/^\/ejercicios\/?$/.test(path)) return false;
  document.title = `${t("ej_title")} · ${t("title")}`;
  if (!listening) {
    listening = true;
    // Its own attribute (data-ej), so that input.ts's game actions (data-act) never see these.
    root().addEventListener("click", (ev) => {
      const el = (ev.target as HTMLElement).closest<HTMLElement>("[data-ej]");
      if (!el || !/^\/ejercicios\/?$/.test(location.pathname)) return;
      const what = el.dataset.ej ?? "";
      if (what === "hoy" || what === "siguiente") void load(what);
      else if (what === "answer" && el.dataset.action) void answer(el.dataset.action);
    });
  }
  void load(state.tab);
  return true;
}

function draw(): void {
  mount(root(), ejerciciosPage(state));
}

async function load(tab: Tab): Promise<void> {
  state = { tab, stream: null, problem: "" };
  draw();
  try {
    state = { ...state, stream: await call<Stream>("GET", `/api/ejercicios/${tab}`) };
  } catch (e) {
    state = { ...state, problem: e instanceof ApiError ? errorText(e.code, e.message) : t("err_network") };
  }
  draw();
}

async function answer(action: string): Promise<void> {
  const ex = state.stream?.exercise;
  if (!ex || ex.answered) return;
  try {
    const got = await call<Answered>("POST", `/api/ejercicios/${encodeURIComponent(ex.id)}/respuesta`, { action });
    const me = state.stream!.me;
    const after: Mine = got.first ? { ...me, rating: got.rating_after, attempts: me.attempts + 1 } : me;
    state = { ...state, stream: { exercise: { ...ex, answered: got }, me: after } };
  } catch (e) {
    state = { ...state, problem: e instanceof ApiError ? errorText(e.code, e.message) : t("err_network") };
  }
  draw();
}

function who(view: View, seat: number): string {
  return seat === view.seat ? t("ej_you") : t("ej_rival");
}

/** The position as its seat saw it: the score, who is mano, the tricks, the hand so far, her cards. */
export function positionView(view: View): Html {
  const me = view.seat ?? 0;
  const mine = view.teams[me] ?? me;
  const score = t("ej_score", { mine: view.score[mine] ?? 0, theirs: view.score[1 - mine] ?? 0, target: view.options.target });
  const tricks = [...view.tricks, ...(view.plays.length > 0 ? [view.plays] : [])];
  const table = tricks.map(
    (trick, i) => html`<div class="ej-trick"><small class="muted">${i + 1}</small>${trick.map(
      ([seat, card]) => html`<figure class="ej-play"><span class="ej-card">${cardSvg(card)}</span><figcaption>${who(view, seat)}</figcaption></figure>`,
    )}</div>`,
  );
  const lines = view.history.map(([seat, text]) => html`<li>${who(view, seat)}: ${actionLabel(text)}</li>`);
  return html`<div class="ej-position"><p class="ej-score">${score} · ${t(view.mano === me ? "ej_mano_you" : "ej_mano_rival")}</p>
    ${tricks.length > 0 && html`<h3>${t("ej_table")}</h3><div class="ej-tricks">${table}</div>`}
    <h3>${t("ej_so_far")}</h3>${lines.length > 0 ? html`<ol class="ej-history">${lines}</ol>` : html`<p class="muted">${t("ej_nothing_yet")}</p>`}
    <h3>${t("ej_your_cards")}${view.tantos !== null && ` · ${t("ej_envido", { n: view.tantos })}`}</h3>
    <div class="ej-hand">${view.cards.map((c) => html`<span class="ej-card">${cardSvg(c)}</span>`)}</div></div>`;
}

function pct(x: number): string {
  return `${(100 * x).toFixed(1)}%`;
}

/** The coach's answer: right or not, its words, every option's equity, the rating's move. */
export function answerView(a: Answered): Html {
  const words = getLang() === "es" ? a.words.es : a.words.en;
  const options = a.options.map(
    (o) => html`<li class="${o.action === a.best ? "best" : ""}${o.action === a.answer ? " chosen" : ""}">${actionLabel(o.action)}: ${pct(o.equity)}</li>`,
  );
  return html`<div class="ej-answer ${a.solved ? "solved" : "missed"}"><p class="ej-verdict"><b>${t(a.solved ? "ej_right" : "ej_wrong")}</b>
    ${!a.solved && ` ${t("ej_best", { action: actionLabel(a.best) })}`}</p>
    <p class="ej-words">${words}</p><p class="muted">${t("ej_equity")}</p><ul class="ej-options">${options}</ul>
    <p class="ej-rating-change">${a.first ? t("ej_change", { before: a.rating_before, after: a.rating_after }) : t("ej_not_first")}</p></div>`;
}

/** The page: the tabs, the visitor's rating, the position and its actions, or the answer. */
export function ejerciciosPage(s: EjState): Html {
  const tabs = (["hoy", "siguiente"] as const).map(
    (tab) => html`<button class="tab${tab === s.tab ? " on" : ""}" data-ej="${tab}"${tab === s.tab && html` aria-current="page"`}>${t(tab === "hoy" ? "ej_today" : "ej_next")}</button>`,
  );
  let body: Html;
  const ex = s.stream?.exercise;
  if (s.problem) body = html`<p class="muted ej-problem">${s.problem}</p>`;
  else if (!s.stream) body = html`<p class="muted">${t("connecting")}</p>`;
  else if (!ex) body = html`<p class="muted ej-none">${t(s.tab === "hoy" ? "ej_none" : "ej_done")}</p>`;
  else {
    const actions = ex.position.legal.map(
      (a) => html`<button class="ej-action${ex.answered?.answer === a ? " chosen" : ""}" data-ej="answer" data-action="${a}"${ex.answered && " disabled"}>${actionLabel(a)}</button>`,
    );
    body = html`${positionView(ex.position)}<h3>${t("ej_question")}</h3><div class="ej-actions">${actions}</div>
      ${ex.answered ? answerView(ex.answered) : NOTHING}
      <p class="muted ej-stats">${t("ej_stats", { rating: ex.rating, solved: ex.solved, attempts: ex.attempts })}${ex.own && ` · ${t("ej_own")}`}</p>
      ${ex.answered && s.tab === "siguiente" && html`<button class="primary" data-ej="siguiente">${t("ej_another")}</button>`}`;
  }
  const rating = s.stream ? html`<p class="ej-mine">${t("ej_rating", { rating: s.stream.me.rating })}</p>` : NOTHING;
  return html`${header()}<main class="players-page ejercicios"><section class="card-panel"><h2>${t("ej_title")}</h2>
    <p class="muted">${t("ej_intro")}</p><nav class="tabs">${tabs}</nav>${rating}${body}</section></main>`;
}
