// The anotador's page (/anotador): the score of a game played with real cards, no account and no
// server. The logic is in anotador.ts; this draws it and keeps the last game in localStorage.

import {
  type Anotador,
  type FaltaMode,
  FALTA_MODES,
  QUICK,
  QUICK_NAMES,
  type QuickName,
  TARGETS,
  add,
  faltaPoints,
  load,
  newGame,
  quick,
  reset,
  save,
  score,
  setSides,
  status,
  undo,
  winner,
} from "./anotador";
import { fosforosSvg } from "./fosforos";
import { type Html, html, mount } from "./html";
import { t, tr } from "./i18n";

function storage(): Storage | null {
  try {
    return localStorage;
  } catch {
    return null;
  }
}

let game: Anotador = newGame();
/** The game a "partido nuevo" cleared, until an undo brings it back or the new one changes. */
let cleared: Anotador | null = null;
let confirming = false;

/** A side's name as shown: its own, or Nosotros / Ellos / Equipo 3. */
export function sideName(g: Anotador, side: number): string {
  const own = g.names[side]?.trim();
  if (own) return own;
  if (g.names.length === 2) return side === 0 ? t("team_us") : t("team_them");
  return t("side_n", { n: side + 1 });
}

/** How the table says a side won: "¡Ganamos!", "¡Ganaron ellos!", or "¡Ganó Caro y Dani!". */
export function winnerText(g: Anotador, side: number): string {
  if (g.names.length === 2 && !g.names[side]?.trim()) return side === 0 ? t("winner_we") : t("winner_they");
  return t("winner_side", { name: sideName(g, side) });
}

function defaultName(g: Anotador, side: number): string {
  return sideName({ ...g, names: g.names.map(() => "") }, side);
}

function statusText(g: Anotador, side: number): string {
  const s = status(g, side);
  if (s.kind === "malas") return t("malas");
  if (s.kind === "buenas") return s.n === 1 ? t("one_buena") : t("n_buenas", { n: s.n });
  return "";
}

function quickPoints(g: Anotador, side: number, name: QuickName): number {
  return name === "falta envido" ? faltaPoints(g, side) : QUICK[name];
}

function entryText(g: Anotador): string {
  const e = g.entries.at(-1);
  if (!e) return "";
  const what = e.what ? `${tr(`q_${e.what}`, e.what)} ` : "";
  return `${sideName(g, e.side)}: ${what}${e.points > 0 ? "+" : "−"}${Math.abs(e.points)}`;
}

function lastText(g: Anotador): string {
  const last = entryText(g);
  return last ? t("last_change", { text: last }) : "";
}

/** What the page shows around the game: a "partido nuevo" waiting for its confirmation, and
 *  whether an undo brings back the game a "partido nuevo" cleared. */
export interface AnotadorUi {
  confirming: boolean;
  restorable: boolean;
}

/** The page's body for a game (pure: the same game gives the same markup). */
export function anotadorBody(g: Anotador, ui: AnotadorUi = { confirming: false, restorable: false }): Html {
  const points = score(g);
  const won = winner(g);
  const opt = (v: string | number, label: string, sel: boolean) => html`<option value="${v}"${sel && " selected"}>${label}</option>`;
  const options = html`<div class="an-options">
    <label>${t("target")}<select data-an-opt="target">${TARGETS.map((n) => opt(n, String(n), n === g.target))}</select></label>
    <label>${t("falta")}<select data-an-opt="falta">${FALTA_MODES.map((f) => opt(f, tr(`falta_${f}`, f), f === g.falta))}</select></label>
    <label>${t("sides")}<select data-an-opt="sides">${[2, 3].map((n) => opt(n, String(n), n === g.names.length))}</select></label>
    </div>`;
  const sides = g.names.map((name, side) => {
    const p = points[side] ?? 0;
    const label = `${sideName(g, side)}: ${p}`;
    const quickButtons = QUICK_NAMES.map(
      (q) =>
        html`<button class="an-q" data-an="quick" data-side="${side}" data-q="${q}"${won !== null && " disabled"}>
          ${tr(`q_${q}`, q)} <b>+${quickPoints(g, side, q)}</b></button>`,
    );
    return html`<section class="an-side team-${side}${won === side ? " won" : ""}" data-side="${side}">
      <div class="an-head"><input class="an-name" data-an-name="${side}" maxlength="24" value="${name}" 
      placeholder="${defaultName(g, side)}" aria-label="${t("side_name", { n: side + 1 })}">
      <span class="an-score" data-score="${p}">${p}</span></div>
      <div class="an-status">${statusText(g, side)}</div>
      ${fosforosSvg(p, g.target, label)}
      <div class="an-buttons"><div class="an-pm">
      <button data-an="add" data-side="${side}" data-points="-1" aria-label="${sideName(g, side)} −1"${p === 0 && " disabled"}>−1</button>
      <button data-an="add" data-side="${side}" data-points="1" aria-label="${sideName(g, side)} +1"${won !== null && " disabled"}>+1</button>
      </div><div class="an-quick">${quickButtons}</div></div></section>`;
  });
  const banner =
    won !== null &&
    html`<div class="an-winner" role="status"><span class="an-winner-text">${winnerText(g, won)}</span> 
      <button class="primary" data-an="new">${t("new_game")}</button></div>`;
  const canUndo = g.entries.length > 0 || ui.restorable;
  const last = ui.restorable && g.entries.length === 0 ? t("new_game_done") : lastText(g);
  const newGame = ui.confirming
    ? html`<span class="an-confirm" role="alert">${t("new_game_ask")} 
      <button class="primary" data-an="new-yes">${t("new_game_yes")}</button> 
      <button data-an="new-no">${t("new_game_no")}</button></span>`
    : html`<button class="ghost" data-an="new"${g.entries.length === 0 && " disabled"}>${t("new_game")}</button>`;
  const footer = html`<div class="an-foot">
    <button data-an="undo"${!canUndo && " disabled"}>↶ ${t("undo")}</button>
    <span class="an-last muted">${last}</span>${newGame}</div>`;
  return html`${options}${banner}<div class="an-sides sides-${g.names.length}">${sides}</div>${footer}`;
}

/** Open the page inside `root` under the app's `header`; the last game comes back. */
export function openAnotador(root: HTMLElement, header: Html): void {
  const store = storage();
  game = (store && load(store)) ?? newGame();
  document.title = `${t("title")} · ${t("anotador")}`;
  mount(root, html`${header}<main class="anotador"><h1>${t("anotador")}</h1><div id="an-body"></div></main>`);
  const main = root.querySelector("main.anotador") as HTMLElement;
  const body = main.querySelector("#an-body") as HTMLElement;

  const draw = () => {
    mount(body, anotadorBody(game, { confirming, restorable: cleared !== null && game.entries.length === 0 }));
  };
  // A name is redrawn in place: a full redraw while a button is being pressed (the field loses
  // its focus on the mousedown) would swallow the click.
  const drawNames = () => {
    const won = winner(game);
    const text = body.querySelector(".an-winner-text");
    if (text && won !== null) text.textContent = winnerText(game, won);
    const last = body.querySelector(".an-last");
    if (last) last.textContent = lastText(game);
    body.querySelectorAll<HTMLElement>("[data-an][data-side]").forEach((b) => {
      if (b.dataset.an === "add") b.setAttribute("aria-label", `${sideName(game, Number(b.dataset.side))} ${b.textContent ?? ""}`);
    });
    body.querySelectorAll<HTMLElement>(".an-side").forEach((sec) => {
      const side = Number(sec.dataset.side);
      const label = `${sideName(game, side)}: ${score(game)[side] ?? 0}`;
      sec.querySelector("svg.fosforos")?.setAttribute("aria-label", label);
      const title = sec.querySelector("svg.fosforos title");
      if (title) title.textContent = label;
    });
  };
  const change = (next: Anotador, redraw = true) => {
    const hadWinner = winner(game) !== null;
    game = next;
    if (store) save(game, store);
    if (!redraw) return;
    draw();
    // The game is over: bring the winner into sight (on a phone the sides fill the screen).
    if (!hadWinner && winner(game) !== null) body.querySelector(".an-winner")?.scrollIntoView({ block: "start" });
  };

  main.addEventListener("click", (ev) => {
    const el = (ev.target as HTMLElement).closest<HTMLButtonElement>("[data-an]");
    if (!el || el.disabled) return;
    const side = Number(el.dataset.side);
    if (el.dataset.an !== "new" && el.dataset.an !== "new-yes") confirming = false;
    if (el.dataset.an === "add" || el.dataset.an === "quick") cleared = null;
    switch (el.dataset.an) {
      case "add":
        change(add(game, side, Number(el.dataset.points)));
        break;
      case "quick":
        change(quick(game, side, el.dataset.q as QuickName));
        break;
      case "undo":
        if (game.entries.length === 0 && cleared) {
          const back = cleared;
          cleared = null;
          change(back);
        } else change(undo(game));
        break;
      case "new":
        // Asks first: a whole game's score is one tap away from the bin.
        confirming = true;
        draw();
        break;
      case "new-yes":
        confirming = false;
        cleared = game;
        change(reset(game));
        break;
      case "new-no":
        draw();
        break;
    }
  });
  // Names are kept as they are typed, and drawn everywhere once the field is left.
  main.addEventListener("input", (ev) => {
    const el = ev.target as HTMLInputElement;
    if (el.dataset.anName === undefined) return;
    const names = [...game.names];
    names[Number(el.dataset.anName)] = el.value.slice(0, 24);
    change({ ...game, names }, false);
  });
  main.addEventListener("change", (ev) => {
    const el = ev.target as HTMLInputElement | HTMLSelectElement;
    const opt = el.dataset.anOpt;
    if (opt === "target") change({ ...game, target: Number(el.value) });
    else if (opt === "falta") change({ ...game, falta: el.value as FaltaMode });
    else if (opt === "sides") change(setSides(game, el.value === "3" ? 3 : 2));
    else if (el.dataset.anName !== undefined) drawNames();
  });
  draw();
}
