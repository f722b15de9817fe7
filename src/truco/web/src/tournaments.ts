// Torneos (docs/players.md): the lobby's section (the tournaments, a form to create one) and a
// tournament's page (/torneo/ID): its live standings (asked again every few seconds while the page
// is open), "Anotarme" / "Retirarme", and, while the player has a game, the link to his table
// (/t/ID: his seat is his by identity). Names are text: everything is built with the `html` tag.

import { ApiError } from "./api";
import { type Html, html, mount, NOTHING } from "./html";
import { t, tr } from "./i18n";
import { header, navigate, root, showToast } from "./page";
import { store } from "./storage";

export interface TournamentSummary {
  id: string;
  name: string;
  mode: string;
  kind: "arena" | "swiss";
  minutes: number | null;
  rounds: number | null;
  round: number;
  target: number;
  flor: boolean;
  rated: boolean;
  bots: boolean;
  status: "scheduled" | "running" | "over";
  starts_at: string;
  ends_at: string | null;
  players: number;
  max_players: number;
  link: string;
}

export interface StandingRow {
  rank: number;
  name: string;
  score: number;
  games: number;
  wins: number;
  active: boolean;
  playing: string | null;
  you: boolean;
}

export interface TournamentGame {
  table: string | null;
  round: number;
  sides: string[][];
  winner: number | null;
  bye: boolean;
}

export interface Standings {
  tournament: TournamentSummary;
  standings: StandingRow[];
  games: TournamentGame[];
  you: { joined: boolean; table: string | null; creator: boolean };
}

/** How often a tournament's page asks for its standings. */
export const POLL_MS = 2_000;

async function ask<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let res: Response;
  try {
    res = await fetch(path, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  } catch (e) {
    throw new ApiError(0, "network", String(e));
  }
  const data = (await res.json().catch(() => null)) as { code?: string; message?: string } | null;
  if (!res.ok) throw new ApiError(res.status, data?.code ?? `http_${res.status}`, data?.message ?? "");
  return data as T;
}

function words(e: unknown): string {
  if (!(e instanceof ApiError)) return t("err_network");
  return tr(`err_${e.code}`, "") || e.message || t("err_network");
}

function when(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

function kindText(s: TournamentSummary): string {
  return s.kind === "arena" ? t("tour_arena_n", { n: s.minutes ?? 0 }) : t("tour_swiss_n", { n: s.rounds ?? 0 });
}

function statusText(s: TournamentSummary): string {
  if (s.status === "scheduled") return t("tour_starts", { at: when(s.starts_at) });
  if (s.status === "running") return s.kind === "swiss" ? t("tour_round", { n: s.round, of: s.rounds ?? 0 }) : t("tour_running");
  return t("tour_over");
}

/** One tournament's line in the lobby's list. */
export function tournamentLine(s: TournamentSummary): Html {
  return html`<li class="tournament ${s.status}"><a href="/torneo/${encodeURIComponent(s.id)}" data-tour="${s.id}">${s.name}</a>
    · ${s.mode} · ${kindText(s)} · ${t("tour_to", { n: s.target })}${s.flor && html` · ${t("flor")}`}${s.rated && html` · ${t("tour_rated")}`}
    · ${t("tour_players", { n: s.players })} · <span class="tour-status">${statusText(s)}</span></li>`;
}

/** The lobby's "Torneos": the list (null: loading) and the form. */
export function tournamentsSection(list: TournamentSummary[] | null = null): Html {
  const items =
    list === null
      ? html`<p class="muted">${t("connecting")}</p>`
      : list.length === 0
        ? html`<p class="muted">${t("tour_empty")}</p>`
        : html`<ul class="tournaments">${list.map(tournamentLine)}</ul>`;
  return html`<section class="card-panel" id="torneos"><h2>${t("tournaments")}</h2><div id="tour-list">${items}</div>
    <details class="tour-create"><summary>${t("tour_create")}</summary><form id="tour-form">
      <label>${t("tour_name")} <input name="tour_name" maxlength="24" required value="${t("tournaments")}"></label>
      <label>${t("tour_mode")} <select name="tour_mode"><option value="1v1">1v1</option><option value="2v2">2v2</option><option value="3v3">3v3</option></select></label>
      <label>${t("tour_kind")} <select name="tour_kind"><option value="arena">${t("tour_arena")}</option><option value="swiss">${t("tour_swiss")}</option></select></label>
      <label>${t("tour_minutes")} <input name="tour_minutes" type="number" min="1" max="240" value="30"></label>
      <label>${t("tour_rounds")} <input name="tour_rounds" type="number" min="1" max="15" value="5"></label>
      <label>${t("target")} <select name="tour_target"><option value="30">30</option><option value="15">15</option></select></label>
      <label>${t("tour_starts_in")} <input name="tour_starts_in" type="number" min="0" max="10080" value="5"></label>
      <label class="check"><input type="checkbox" name="tour_flor"> ${t("flor")}</label>
      <label class="check"><input type="checkbox" name="tour_rated"> ${t("tour_rated")}</label>
      <label class="check"><input type="checkbox" name="tour_bots"> ${t("tour_bots")}</label>
      <button class="primary" type="submit">${t("tour_create_go")}</button></form></details></section>`;
}

/** Fill the lobby's section and wire its form (home.ts calls it once the lobby is drawn). */
export async function loadTournaments(): Promise<void> {
  const form = root().querySelector<HTMLFormElement>("#tour-form");
  if (form && !form.dataset.wired) {
    form.dataset.wired = "1";
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      void submitTournament(form);
    });
  }
  const el = root().querySelector<HTMLElement>("#tour-list");
  if (!el) return;
  try {
    const got = await ask<{ tournaments: TournamentSummary[] }>("GET", "/api/tournaments");
    mount(el, html`${got.tournaments.length === 0 ? html`<p class="muted">${t("tour_empty")}</p>` : html`<ul class="tournaments">${got.tournaments.map(tournamentLine)}</ul>`}`);
  } catch {
    mount(el, html`<p class="muted">${t("err_network")}</p>`);
  }
}

async function submitTournament(form: HTMLFormElement): Promise<void> {
  const get = (n: string) => (form.elements.namedItem(n) as HTMLInputElement | HTMLSelectElement).value;
  const box = (n: string) => (form.elements.namedItem(n) as HTMLInputElement).checked;
  const kind = get("tour_kind");
  const body = {
    name: get("tour_name").trim() || t("tournaments"),
    mode: get("tour_mode"),
    kind,
    ...(kind === "arena" ? { minutes: Number(get("tour_minutes")) } : { rounds: Number(get("tour_rounds")) }),
    target: Number(get("tour_target")),
    starts_in: Math.max(0, Number(get("tour_starts_in")) * 60),
    flor: box("tour_flor"),
    rated: box("tour_rated"),
    bots: box("tour_bots"),
  };
  try {
    const made = await ask<TournamentSummary>("POST", "/api/tournaments", body);
    await ask<Standings>("POST", `/api/tournaments/${made.id}/players`, joinBody());
    navigate(made.link);
  } catch (e) {
    showToast(words(e));
  }
}

/** The name at the tables: the one the visitor used last (a claimed name wins on the server). */
function joinBody(): { name?: string } {
  const name = store.name().trim().slice(0, 24);
  return name ? { name } : {};
}

// --- a tournament's page --------------------------------------------------------------------

let polling: ReturnType<typeof setInterval> | null = null;
let shown: string | null = null;

/** Draw /torneo/ID if that is the address; returns whether it was (router.ts). */
export function openTournamentPage(path: string): boolean {
  const m = /^\/torneo\/([0-9a-f]+)\/?$/.exec(path);
  stopPolling();
  if (!m?.[1]) {
    shown = null;
    return false;
  }
  const id = m[1];
  document.title = `${t("tournaments")} · ${t("title")}`;
  if (shown !== id) mount(root(), tournamentPage(null, ""));
  shown = id;
  void refresh(id);
  polling = setInterval(() => void refresh(id), POLL_MS);
  return true;
}

function stopPolling(): void {
  if (polling !== null) clearInterval(polling);
  polling = null;
}

async function refresh(id: string, note = ""): Promise<void> {
  try {
    const s = await ask<Standings>("GET", `/api/tournaments/${id}`);
    if (shown === id) draw(s, note);
  } catch (e) {
    if (shown === id) mount(root(), tournamentPage(null, words(e)));
  }
}

function draw(s: Standings, note: string): void {
  mount(root(), tournamentPage(s, note));
  const button = root().querySelector<HTMLButtonElement>("[data-tour-cmd]");
  button?.addEventListener("click", () => {
    const join = button.dataset.tourCmd === "join";
    void (async () => {
      try {
        const next = await ask<Standings>(join ? "POST" : "DELETE", `/api/tournaments/${s.tournament.id}/players`, join ? joinBody() : undefined);
        draw(next, "");
      } catch (e) {
        draw(s, words(e));
      }
    })();
  });
}

/** A tournament's page: its summary, the player's table, the standings and the games. */
export function tournamentPage(s: Standings | null, note: string): Html {
  if (s === null) return html`${header()}<main class="players-page tournament-page"><section class="card-panel"><h2>${t("tournaments")}</h2><p class="muted" role="status">${note || t("connecting")}</p></section></main>`;
  const tour = s.tournament;
  const open = tour.status !== "over";
  const canJoin = open && !s.you.joined && !(tour.kind === "swiss" && tour.status !== "scheduled");
  const button = canJoin
    ? html`<button class="primary" data-tour-cmd="join">${t("tour_join")}</button>`
    : s.you.joined && open
      ? html`<button class="ghost" data-tour-cmd="leave">${t("tour_leave")}</button>`
      : NOTHING;
  const mine = s.you.table
    ? html`<p class="tour-your-table"><a class="button primary" href="/t/${encodeURIComponent(s.you.table)}">${t("tour_your_table")}</a></p>`
    : s.you.joined && tour.status === "running"
      ? html`<p class="muted">${t("tour_waiting")}</p>`
      : NOTHING;
  const rows = s.standings.map(
    (r) => html`<tr class="${r.you ? "you" : ""}${r.active ? "" : " withdrawn"}"><td>${r.rank}</td><td>${r.name}</td><td class="num">${r.score}</td><td class="num">${r.wins}/${r.games}</td>
      <td>${r.playing ? html`<a href="/t/${encodeURIComponent(r.playing)}">${t("tour_playing")}</a>` : NOTHING}</td></tr>`,
  );
  const games = s.games.slice(0, 30).map((g) => {
    const side = (n: number) => (g.sides[n] ?? []).join(", ");
    const result = g.bye ? t("tour_bye") : g.winner === null ? t("tour_playing") : t("tour_won_by", { side: side(g.winner) });
    const label = g.bye ? side(0) : `${side(0)} — ${side(1)}`;
    return html`<li>${g.round > 0 && html`${t("tour_round_short", { n: g.round })} · `}${g.table ? html`<a href="/t/${encodeURIComponent(g.table)}">${label}</a>` : label} · ${result}</li>`;
  });
  return html`${header()}<main class="players-page tournament-page"><section class="card-panel">
    <h2>${tour.name}</h2><p>${tour.mode} · ${kindText(tour)} · ${t("tour_to", { n: tour.target })}${tour.flor && html` · ${t("flor")}`}${tour.rated && html` · ${t("tour_rated")}`}</p>
    <p class="tour-status" role="status">${statusText(tour)} · ${t("tour_players", { n: tour.players })}</p>
    ${mine}${button} <span class="muted" role="status">${note}</span>
    <h3>${t("tour_standings")}</h3>
    <table class="ranking standings"><thead><tr><th>${t("rank_pos")}</th><th>${t("rank_name")}</th><th>${t("tour_score")}</th><th>${t("tour_won_games")}</th><th></th></tr></thead><tbody>${rows}</tbody></table>
    <h3>${t("tour_games")}</h3>${games.length === 0 ? html`<p class="muted">${t("tour_no_games")}</p>` : html`<ul class="tour-games">${games}</ul>`}
    <p><a href="/">${t("tour_back")}</a></p></section></main>`;
}
