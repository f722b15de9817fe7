// The panels around the table: señas, chat, the log, the seats while a table waits, the
// downloads menu, and the lobby's list of tables.

import { type Html, html, join, NOTHING } from "./html";
import { actionLabel, callLabel, cardName, t, tr, trickName } from "./i18n";
import { hides } from "./moderation";
import { scorerLabel, seatName, teamLabel } from "./names";
import { isPaulista } from "./paulista";
import { VARIANT_RULES } from "./generated";
import { type GameState, teamOf, variantOf } from "./protocol";
import { type GameEvent, SENAS, type SeatInfo, type TableInfo, type View, BOT_LEVELS } from "./types";
import { scoredReason } from "./words";

export function senasPanel(state: GameState): Html {
  const view = state.view;
  // The señas are the Argentine game's (Truco Paulista's table signs are not these).
  if (!view || state.seat === null || view.options.players <= 2 || variantOf(view.options) === "destantado" || isPaulista(view.options)) return NOTHING;
  return html`<details class="senas"><summary>${t("senas")}</summary><div class="sena-buttons">
    ${SENAS.map((s) => html`<button class="sena" data-sena="${s}">${tr(`sena_${s}`, s)}</button>`)}
    </div></details>`;
}

export function chatLines(state: GameState): Html {
  return join(
    // The lines of a player one mutes or blocks go from the screen too (the server only stops
    // sending new ones).
    state.chat
      .filter((c) => !hides(c.seat))
      .map((c) => html`<div class="chat-line"><b class="team-${c.seat === null ? "x" : teamOf(c.seat)}">${c.name}:</b> ${c.text}</div>`),
  );
}

/** One line of the log. `calls`: what was called in the hand before `e`, in order (a score's
 *  reason reads it: "la mano", "retruco no querido"). */
export function eventLine(
  e: GameEvent,
  table: TableInfo | null,
  viewer: number | null,
  view: View | null = null,
  calls: readonly string[] = [],
): string | null {
  const who = (seat: number) => seatName(table, seat);
  const side = (team: number) => teamLabel(team, viewer, view, table);
  switch (e.type) {
    case "HandStarted":
      return `— ${t("hand_n", { n: e.hand })} —`;
    case "CardPlayed":
      return `${who(e.seat)} ${e.card ? actionLabel(`play ${e.card}`) : actionLabel("tapada")}`;
    case "Called":
      return `${who(e.seat)}: ${callLabel(e.verb)}`;
    case "Answered":
      return `${who(e.seat)}: ${actionLabel(e.verb)}`;
    case "WentToMazo":
      return `${who(e.seat)}: ${actionLabel("mazo")}`;
    case "TrickEnded":
      return `${trickName(e.trick)}: ${e.team === -1 ? t("parda") : t("won_by", { team: side(e.team) })}`;
    case "PointsDeclared":
      return `${who(e.seat)}: ${e.points === null ? t("son_buenas") : e.flor ? t("flor_declares", { n: e.points }) : e.points}`;
    case "Scored":
      return `${scorerLabel(e.team, viewer, view, table)} +${e.points} (${scoredReason(e.reason, calls)})`;
    case "Discarded":
      return `${who(e.seat)} ${t("discarded")}`;
    case "PorotosPassed":
      return `${e.to >= 0 ? t("passes", { from: who(e.seat), n: e.points, to: who(e.to) }) : t("passes_pot", { from: who(e.seat), n: e.points })} (${scoredReason(e.reason, calls)})`;
    case "CardsShown":
      return `${who(e.seat)}: ${e.cards.map((c) => cardName(c)).join(", ")}`;
    case "HandEnded":
      return `${t("hand_points")}: ${e.points.join(" – ")}`;
    case "MatchEnded":
      return `${t("match_over")}: ${scorerLabel(e.winner, viewer, view, table)}`;
    default:
      return null;
  }
}

/** The log of plays: `events` (every hand of the match the page has seen; the state's recent
 *  ones by default), one line each, a hand's first line marked so the hands stand apart. */
export function logLines(state: GameState, events: readonly GameEvent[] = state.log): Html {
  let calls: string[] = [];
  const lines: Html[] = [];
  for (const e of events) {
    if (e.type === "HandStarted") calls = [];
    const text = eventLine(e, state.table, state.seat, state.view, calls);
    if (e.type === "Called") calls = [...calls, e.verb];
    if (text !== null) lines.push(html`<div class="log-line${e.type === "HandStarted" ? " hand-start" : ""}">${text}</div>`);
  }
  return join(lines);
}

/** While a table waits for players, or to a visitor without a seat (`mySeat` null): the
 * invitation, the name to join with (the visitor's `name` from last time) and the seats. */
export function joinPanel(table: TableInfo, invite: string, mySeat: number | null, name: string): Html {
  const seated = mySeat !== null;
  const hasEmpty = table.seats.some((s) => s.kind === "empty");
  return html`<section class="join-panel">
    <p class="muted">${t("waiting_seats")}</p>
    ${table.rated && html`<p class="rated-note"><b>${t("rated_table")}</b>: ${t("rated_hint")}</p>`}
    <div class="invite"><span>${t("share")}</span><input readonly id="invite" value="${invite}"><button data-cmd="copy">${t("copy")}</button></div>
    ${!seated && hasEmpty && html`<label class="inline">${t("your_name")} <input id="join-name" maxlength="24" value="${name}" placeholder="${t("name_placeholder")}"></label>`}
    ${seatsPanel(table, mySeat, !seated)}
    ${!seated && html`<p class="muted">${t("watching")}</p>`}
    </section>`;
}

/** The seats while a table waits for players: join, or (for the creator) fill with a bot. */
export function seatsPanel(table: TableInfo, mySeat: number | null, canJoin: boolean): Html {
  const rows = table.seats.map((s: SeatInfo) => {
    const right: Html[] = [];
    if (s.kind === "empty") {
      if (canJoin) right.push(html`<button data-cmd="join" data-seat="${s.seat}">${t("join")}</button>`);
      if (mySeat === 0) {
        right.push(html`<select data-bot-level="${s.seat}" aria-label="${t("level")}">
          ${BOT_LEVELS.map((l) => html`<option value="${l}">${tr(`level_${l}`, l)}</option>`)}
          </select><button data-cmd="bot" data-seat="${s.seat}">${t("fill_bot")}</button>`);
      }
    } else if (mySeat === 0 && s.seat !== 0 && !table.rated && table.status === "waiting") {
      right.push(html`<button class="small ghost" data-cmd="kick" data-seat="${s.seat}">${t("kick")}</button>`);
    }
    const who =
      s.kind === "empty"
        ? html`<i class="muted">${t("empty")}</i>`
        : s.kind === "bot"
          ? html`${s.name && s.name !== "Bot" ? `${s.name} · ` : ""}${t("bot")} ${tr(`level_${s.level ?? ""}`, s.level ?? "")}`
          : html`${s.name ?? ""}${s.seat === mySeat && ` (${t("you")})`}`;
    return html`<li class="team-${teamOf(s.seat)}"><span class="seat-no">${s.seat + 1}</span><span class="seat-who">${who}</span><span class="seat-do">${right}</span></li>`;
  });
  return html`<ul class="seat-list">${rows}</ul>`;
}

export function downloadsMenu(id: string, view: View | null, handUrl: (n: number) => string, matchUrl: string): Html {
  if (!view) return NOTHING;
  const finished = view.phase === "over" ? view.hand : Math.max(0, view.hand - 1);
  if (finished === 0) return NOTHING;
  const hands = Array.from({ length: finished }, (_, i) => i + 1).map(
    (n) => html`<a href="${handUrl(n)}" download>${t("download_hand", { n })}</a>`,
  );
  // The replay of the finished hands (as the player saw them), in a tab of its own.
  const replay = html`<a href="/r/${encodeURIComponent(id)}" target="_blank" rel="noopener" class="replay-link">${t("replay")}</a>`;
  return html`<details class="downloads"><summary>${t("download")}</summary><div class="menu">
    ${replay}<a href="${matchUrl}" download>${t("download_match")}</a>${hands}
    </div></details>`;
}

export function lobbyList(tables: TableInfo[] | null): Html {
  if (tables === null) return html`<p class="muted">${t("connecting")}</p>`;
  if (tables.length === 0) return html`<p class="muted">${t("no_tables")}</p>`;
  const rows = tables.map((tb) => {
    const free = tb.seats.filter((s) => s.kind === "empty").length;
    // A bot by its persona with its level beside it ("Don Ramón (Experto)"), a person by name.
    const names = tb.seats
      .filter((s) => s.kind !== "empty")
      .map((s) => (s.kind === "bot" && s.level ? `${s.name ?? ""} (${tr(`level_${s.level}`, s.level)})` : (s.name ?? "")))
      .join(", ");
    const variant = variantOf(tb.options);
    return html`<li><a href="/t/${encodeURIComponent(tb.table)}">
      <b>${variant !== "standard" && `${tr(`variant_short_${variant}`, variant)} · `}
      ${tb.options.players}p · ${VARIANT_RULES[variant].piles ? t("porotos_n", { n: Number(tb.options.porotos ?? 10) }) : tb.options.target}${tb.options.flor && ` · ${t("flor")}`}${tb.options.manilhas === "velha" && ` · ${t("manilhas_velha")}`}</b>
      <span>${names}</span><span class="free">${free === 0 ? t("full_table") : free === 1 ? t("one_free") : t("n_free", { n: free })}</span></a></li>`;
  });
  return html`<ul class="lobby">${rows}</ul>`;
}
