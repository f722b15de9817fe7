// The replay's markup and its pure logic (where a step forward or back goes, the address of a
// moment): no DOM, no fetch, so that the tests draw it. The board is the table's own (board.ts),
// drawn from each frame's view, which is in the table protocol's codec.

import { board } from "./board";
import { cardSvg } from "./cards";
import { type Html, html, NOTHING } from "./html";
import { actionLabel, callLabel, cardName, t } from "./i18n";
import { header } from "./page";
import { eventLine, scoreboard, seatName } from "./render";
import { type GameState, initialState } from "./protocol";
import type { GameEvent, Options, SeatInfo, TableInfo, TableStatus, View } from "./types";
import { handWhy } from "./words";

/** One hand in the match's list (`GET /api/tables/{id}/replay`). */
export interface ReplayHandLine {
  hand: number;
  mano: number;
  score_before: number[];
  score_after: number[];
  points: number[];
  /** Its actions: frames 0 (after the deal) to `steps`. */
  steps: number;
}

export interface ReplayMatch {
  table: string;
  /** Which of the table's matches (from 1); `matches` how many it has had. */
  match: number;
  matches: number;
  status: TableStatus;
  options: Options;
  seats: SeatInfo[];
  /** The viewer's seat during the match; null once it is over. */
  seat: number | null;
  /** Every card face up (the match is over). */
  reveal: boolean;
  hands: ReplayHandLine[];
}

export interface ReplayFrame {
  step: number;
  /** Who acted (null: frame 0, the deal). */
  seat: number | null;
  /** The action in the notation ("play 1e", "tapada ??"); null for frame 0. */
  action: string | null;
  events: GameEvent[];
  view: View;
}

/** One hand's frames (`GET /api/tables/{id}/replay/{n}`). */
export interface ReplayHand {
  table: string;
  match: number;
  hand: number;
  seat: number | null;
  reveal: boolean;
  frames: ReplayFrame[];
}

/** A moment of the match: hand `hand` (from 1), after its action `step` (0: the deal). */
export interface Position {
  hand: number;
  step: number;
}

export type Move = "next" | "prev" | "first" | "last" | "next-hand" | "prev-hand";

/** What a module adds to the replay, per step (the analysis' decision marks, say). */
export interface ReplayContext {
  match: ReplayMatch;
  hand: ReplayHand;
  pos: Position;
  frame: ReplayFrame;
}

export interface ReplayOverlay {
  /** Markup under the board for the step on screen. */
  panel?: (ctx: ReplayContext) => Html;
  /** A mark beside step `step` of the list of plays (e.g. "?!"). */
  mark?: (ctx: ReplayContext, step: number) => Html;
  /** Called when a hand is shown (to fetch what the overlay needs); the page is drawn again
   * when the promise settles. */
  load?: (match: ReplayMatch, hand: ReplayHand) => Promise<unknown> | void;
}

/** A moment's address: `/r/ID` or `/r/ID/HAND/STEP`, and `?match=K` for one of the table's
 * matches (none: its current one); null for any other address. */
export function parseReplayPath(path: string, search = ""): { id: string; pos: Position | null; match: number | null } | null {
  const m = /^\/r\/([^/]+)(?:\/(\d{1,4})\/(\d{1,4}))?\/?$/.exec(path);
  if (!m?.[1]) return null;
  let id: string;
  try {
    id = decodeURIComponent(m[1]);
  } catch {
    return null;
  }
  const pos = m[2] !== undefined && m[3] !== undefined ? { hand: Number(m[2]), step: Number(m[3]) } : null;
  const k = /^\d{1,6}$/.exec(new URLSearchParams(search).get("match") ?? "")?.[0];
  return { id, pos, match: k === undefined || Number(k) < 1 ? null : Number(k) };
}

/** The address of a moment of the replay (what the viewer shares). */
export function replayPath(id: string, pos: Position, match: number | null = null): string {
  return `/r/${encodeURIComponent(id)}/${pos.hand}/${pos.step}${match === null ? "" : `?match=${match}`}`;
}

/** `pos` within the match: an existing hand, a step of it (the first hand's deal by default). */
export function clampPosition(hands: readonly ReplayHandLine[], pos: Position | null): Position {
  if (hands.length === 0) return { hand: 1, step: 0 };
  const hand = Math.min(Math.max(1, pos?.hand ?? 1), hands.length);
  const steps = hands[hand - 1]?.steps ?? 0;
  return { hand, step: Math.min(Math.max(0, pos?.step ?? 0), steps) };
}

/** Where a move goes: a step forward or back goes on into the next hand or back into the last
 * one; first and last are the ends of this hand. */
export function move(hands: readonly ReplayHandLine[], pos: Position, how: Move): Position {
  const steps = (hand: number) => hands[hand - 1]?.steps ?? 0;
  const at = clampPosition(hands, pos);
  switch (how) {
    case "next":
      if (at.step < steps(at.hand)) return { hand: at.hand, step: at.step + 1 };
      return at.hand < hands.length ? { hand: at.hand + 1, step: 0 } : at;
    case "prev":
      if (at.step > 0) return { hand: at.hand, step: at.step - 1 };
      return at.hand > 1 ? { hand: at.hand - 1, step: steps(at.hand - 1) } : at;
    case "first":
      return { hand: at.hand, step: 0 };
    case "last":
      return { hand: at.hand, step: steps(at.hand) };
    case "next-hand":
      return clampPosition(hands, { hand: at.hand + 1, step: 0 });
    case "prev-hand":
      return clampPosition(hands, { hand: at.hand - 1, step: 0 });
  }
}

/** The move a key makes (← → a step, Home and End, Page Up and Page Down a hand). */
export function keyMove(key: string): Move | null {
  const keys: Record<string, Move> = {
    ArrowRight: "next",
    ArrowLeft: "prev",
    Home: "first",
    End: "last",
    PageDown: "next-hand",
    PageUp: "prev-hand",
  };
  return keys[key] ?? null;
}

/** The table as the board and the names need it: every seat shown as present. */
export function replayTable(match: ReplayMatch): TableInfo {
  return {
    table: match.table,
    options: match.options,
    seats: match.seats.map((s) => ({ ...s, connected: true, replaced: false, rematch: false })),
    status: match.status,
  };
}

/** An action as the list says it: a revealed tapada names its card. */
export function stepLabel(action: string): string {
  const [verb, card] = action.split(" ");
  if (verb === "tapada" && card && card !== "??") return `${actionLabel(action)} (${cardName(card)})`;
  if (verb === "play" || verb === "tapada" || verb === "discard") return actionLabel(action);
  return callLabel(action);
}

/** Events that say more than the action itself: tricks, points, shown cards, the hand's end. */
const TOLD: ReadonlySet<string> = new Set(["TrickEnded", "PointsDeclared", "Scored", "PorotosPassed", "CardsShown", "HandEnded", "MatchEnded"]);

function stepsList(match: ReplayMatch, hand: ReplayHand, pos: Position, overlays: readonly ReplayOverlay[]): Html {
  const table = replayTable(match);
  let calls: string[] = [];
  const items = hand.frames.map((frame) => {
    const ctx: ReplayContext = { match, hand, pos, frame: hand.frames[pos.step] ?? frame };
    const told: Html[] = [];
    for (const e of frame.events) {
      if (TOLD.has(e.type)) {
        const text = eventLine(e, table, match.seat, frame.view, calls);
        if (text !== null) told.push(html`<li>${text}</li>`);
      }
      if (e.type === "HandEnded") {
        // Why the hand ended: the core's story of the frame's final state, only said here.
        const why = handWhy(frame.view.story, match.seat, frame.view, table);
        if (why) told.push(html`<li class="replay-why">${why.who !== null && html`<b>${why.who}</b>: `}${why.text}</li>`);
      }
      if (e.type === "Called") calls = [...calls, e.verb];
    }
    const what =
      frame.seat === null || frame.action === null
        ? t("replay_deal")
        : html`<span><b>${seatName(table, frame.seat)}</b>: ${stepLabel(frame.action)}</span>`;
    const current = frame.step === pos.step;
    const marks = overlays.map((o) => (o.mark ? o.mark(ctx, frame.step) : NOTHING));
    return html`<li class="replay-step${current ? " current" : ""}" data-step="${frame.step}"${current && html` aria-current="step"`}>
      <button class="step-go" data-replay-step="${frame.step}">${what}</button>${marks}
      ${told.length > 0 && html`<ul class="told">${told}</ul>`}</li>`;
  });
  return html`<ol class="replay-steps" aria-label="${t("replay_actions")}">${items}</ol>`;
}

/** The match's number in addresses: none for the table's current one, unless it was asked. */
function matchParam(match: ReplayMatch, asked: number | null): number | null {
  return asked ?? (match.match === match.matches ? null : match.match);
}

function handsList(match: ReplayMatch, pos: Position, asked: number | null): Html {
  const items = match.hands.map((h) => {
    const href = replayPath(match.table, { hand: h.hand, step: 0 }, matchParam(match, asked));
    const current = h.hand === pos.hand;
    return html`<li><a href="${href}" data-replay-hand="${h.hand}" class="${current ? "current" : ""}"${current && html` aria-current="true"`}>
      ${t("hand_n", { n: h.hand })} <span class="replay-score">${h.score_after.join("–")}</span></a></li>`;
  });
  return html`<nav class="replay-hands" aria-label="${t("replay_hands")}"><ol>${items}</ol></nav>`;
}

/** The table's other matches (after a rematch), each a link to its replay. */
function matchesList(match: ReplayMatch): Html {
  if (match.matches < 2) return NOTHING;
  const items = Array.from({ length: match.matches }, (_, i) => i + 1).map((k) =>
    k === match.match
      ? html`<li><b aria-current="true">${t("replay_match_n", { n: k })}</b></li>`
      : html`<li><a href="${`/r/${encodeURIComponent(match.table)}?match=${k}`}">${t("replay_match_n", { n: k })}</a></li>`,
  );
  return html`<nav class="replay-matches" aria-label="${t("replay_matches")}"><ol>${items}</ol></nav>`;
}

/** The moment on screen: the score, the board, the viewer's own cards (mid-match), the controls
 * and the overlays' panels. */
export function replayStage(match: ReplayMatch, hand: ReplayHand, pos: Position, overlays: readonly ReplayOverlay[] = []): Html {
  const frame = hand.frames[pos.step] ?? hand.frames[hand.frames.length - 1];
  if (!frame) return NOTHING;
  const table = replayTable(match);
  const state: GameState = { ...initialState(), seat: hand.seat, view: frame.view, table };
  const view = frame.view;
  const mine =
    hand.seat !== null && view.cards.length > 0
      ? html`<div class="replay-mine"><span class="muted">${t("replay_your_cards")}</span>
        <div class="my-cards">${view.cards.map((c) => html`<span class="my-card">${cardSvg(c, cardName(c))}</span>`)}</div></div>`
      : NOTHING;
  const last = hand.frames.length - 1;
  const first = pos.hand === 1 && pos.step === 0;
  const end = pos.hand === match.hands.length && pos.step === last;
  const ctx: ReplayContext = { match, hand, pos, frame };
  return html`${scoreboard(view, hand.seat, table)}
    ${board(state, { senas: [], now: 0, turnLeft: null })}${mine}
    <div class="replay-controls">
    <button data-replay="first" title="${t("replay_first")}" aria-label="${t("replay_first")}"${pos.step === 0 && " disabled"}>«</button>
    <button data-replay="prev"${first && " disabled"}>◀ ${t("replay_prev")}</button>
    <span class="replay-where">${t("hand_n", { n: pos.hand })} · ${t("replay_step", { n: pos.step, of: last })}</span>
    <button data-replay="next" class="primary"${end && " disabled"}>${t("replay_next")} ▶</button>
    <button data-replay="last" title="${t("replay_last")}" aria-label="${t("replay_last")}"${pos.step === last && " disabled"}>»</button>
    </div>
    <div class="replay-overlay">${overlays.map((o) => (o.panel ? o.panel(ctx) : NOTHING))}</div>`;
}

/** The whole page: `hand` null while its frames load; `problem` a sentence instead. */
export function replayBody(
  match: ReplayMatch | null,
  hand: ReplayHand | null,
  pos: Position,
  origin: string,
  overlays: readonly ReplayOverlay[] = [],
  problem: string | null = null,
  asked: number | null = null,
): Html {
  const id = match?.table ?? "";
  const toTable = id ? html`<a class="button ghost small" href="/t/${encodeURIComponent(id)}">${t("replay_table")}</a>` : NOTHING;
  const top = html`${header(toTable)}`;
  if (problem !== null || match === null) {
    return html`${top}<main class="replay-screen"><h1>${t("replay")}</h1><p class="replay-problem">${problem ?? t("connecting")}</p>
      <a class="button" href="/" data-cmd="home">${t("back_home")}</a></main>`;
  }
  const intro = match.reveal ? t("replay_all_open") : t("replay_as_seen");
  if (match.hands.length === 0) {
    return html`${top}<main class="replay-screen"><h1>${t("replay")}</h1><p class="muted">${intro}</p><p class="replay-problem">${t("replay_no_hands")}</p></main>`;
  }
  const share = `${origin}${replayPath(id, pos, matchParam(match, asked))}`;
  return html`${top}<main class="replay-screen">
    <div class="replay-head"><h1>${t("replay")}</h1><p class="muted">${intro}</p>${matchesList(match)}</div>
    ${handsList(match, pos, asked)}
    <div class="replay-main"><div class="play-col replay-stage">${hand ? replayStage(match, hand, pos, overlays) : html`<p class="muted">${t("connecting")}</p>`}</div>
    <aside class="side-col replay-side"><h2>${t("replay_actions")}</h2>${hand ? stepsList(match, hand, pos, overlays) : NOTHING}
    <label class="replay-share">${t("replay_share")} <input readonly value="${share}"></label>
    <p class="muted small">${t("replay_keys")}</p></aside></div>
    </main>`;
}
