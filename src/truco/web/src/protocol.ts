// Pure handling of the table protocol: parse server messages and fold them into the client's
// game state. No DOM, no WebSocket: the socket and the renderer sit on top (see socket.ts, main.ts).

import { ERRORS, MAX_CHAT, MAX_MESSAGE_BYTES, SERVER_TYPES as SERVER_TYPE_LIST, VARIANT_RULES } from "./generated";
import type {
  CardCode,
  ChatLine,
  ClientMessage,
  GameEvent,
  HandStory,
  PlayView,
  Rated,
  ServerMessage,
  Options,
  TableInfo,
  Variant,
  View,
} from "./types";

export { MAX_CHAT, MAX_MESSAGE_BYTES };
const KEEP_CHAT = 100;
const KEEP_LOG = 60;

export interface Pending {
  a: number;
  v: number;
  action: string;
}

export interface HandSummary {
  hand: number;
  points: number[];
  winner: number;
  score: number[];
  scored: { team: number; points: number; reason: string }[];
  /** Destantado: porotos passed this hand (to -1: the pot). */
  passed: { seat: number; to: number; points: number; reason: string }[];
  declared: [number, number | null, boolean][];
  shown: [number, CardCode[]][];
  tricks: PlayView[][];
  results: number[];
  history: [number, string][];
  /** Why the hand ended, as the core told it (the view right after the hand's end). */
  story: HandStory | null;
  /** The last view of the hand (its sides: they change every hand in pata de gallo). */
  view: View;
}

export interface SenaSeen {
  seat: number;
  sena: string;
  at: number;
}

export interface GameState {
  v: number;
  seat: number | null;
  view: View | null;
  table: TableInfo | null;
  chat: ChatLine[];
  senas: SenaSeen[];
  /** Recent events, oldest first, for the table log. */
  log: GameEvent[];
  /** Events of the hand being played (since its HandStarted). */
  handEvents: GameEvent[];
  /** The summary of the last finished hand, until the player closes it. */
  summary: HandSummary | null;
  /** Set once MatchEnded arrives (or a full view says the match is over). */
  matchOver: { winner: number; score: number[] } | null;
  pending: Pending | null;
  /** When the player to act runs out of time (ms since the epoch), if the server says. */
  deadline: number | null;
  error: { code: string; message: string; at: number } | null;
  /** The expert's choice the server sent for version ``v`` (shown only while it is current). */
  pista: { v: number; action: string } | null;
  /** The version a pista was asked for and is still thought about (the busy sign), else null. */
  pistaAsked: number | null;
  /** A rated match's rating changes, once it ended (cleared when a new match starts). */
  rated: Rated | null;
}

export type Effect =
  | { kind: "resync" } // reconnect with the last v (a gap, or a stale action)
  | { kind: "send"; msg: ClientMessage };

export function initialState(): GameState {
  return {
    v: 0,
    seat: null,
    view: null,
    table: null,
    chat: [],
    senas: [],
    log: [],
    handEvents: [],
    summary: null,
    matchOver: null,
    pending: null,
    deadline: null,
    error: null,
    pista: null,
    pistaAsked: null,
    rated: null,
  };
}

function isObj(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

const SERVER_TYPES: ReadonlySet<string> = new Set(SERVER_TYPE_LIST);

/** Parse one server frame; null if it is not a protocol message we understand. */
export function parseServerMessage(raw: string): ServerMessage | null {
  let msg: unknown;
  try {
    msg = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!isObj(msg) || typeof msg.t !== "string" || !SERVER_TYPES.has(msg.t)) return null;
  const d = msg.d === undefined ? {} : msg.d;
  if (!isObj(d)) return null;
  switch (msg.t) {
    case "full":
      if (typeof d.v !== "number" || !isObj(d.view)) return null;
      break;
    case "ev":
      if (typeof d.v !== "number" || !isObj(d.view) || !Array.isArray(d.events)) return null;
      if (d.a !== undefined && typeof d.a !== "number") return null;
      break;
    case "ack":
      if (typeof d.a !== "number") return null;
      break;
    case "err":
      if (typeof d.code !== "string") return null;
      break;
    case "chat":
      if (typeof d.text !== "string") return null;
      break;
    case "sena":
      if (typeof d.seat !== "number" || typeof d.sena !== "string") return null;
      break;
    case "table":
      if (!Array.isArray(d.seats)) return null;
      break;
    case "pista":
      if (typeof d.v !== "number" || typeof d.action !== "string") return null;
      break;
    case "rated":
      if (typeof d.match !== "number" || typeof d.mode !== "string" || !Array.isArray(d.changes)) return null;
      if (!d.changes.every((c) => isObj(c) && typeof c.seat === "number" && typeof c.name === "string" && typeof c.before === "number" && typeof c.after === "number")) return null;
      break;
  }
  return { t: msg.t, d } as ServerMessage;
}

/** Encode a client message; null if it would exceed the protocol's 8 KiB. */
export function encodeClientMessage(msg: ClientMessage): string | null {
  const raw = JSON.stringify(msg);
  return new TextEncoder().encode(raw).length > MAX_MESSAGE_BYTES ? null : raw;
}

export function chatMessage(text: string): ClientMessage | null {
  const clean = text.trim().slice(0, MAX_CHAT);
  return clean ? { t: "chat", d: { text: clean } } : null;
}

/** The next action counter: increasing, and never reused across page reloads. */
export function nextActionId(last: number, now: number): number {
  return Math.max(last + 1, Math.floor(now));
}

/** The message that sends the pending action again (same a: the server never applies it twice). */
export function resendPending(state: GameState): ClientMessage | null {
  return state.pending ? { t: "act", d: { ...state.pending } } : null;
}

/** A pista asked for the decision on screen: its message, and the state that shows it is
 *  being thought about; null when one is already asked or given for this decision (one a
 *  decision: asking again only spends the seat's allowance). */
export function askPista(state: GameState): { state: GameState; msg: ClientMessage } | null {
  if (state.pistaAsked === state.v || state.pista?.v === state.v) return null;
  return { state: { ...state, pistaAsked: state.v }, msg: { t: "pista", d: {} } };
}

/** Prepare an action: the pending entry and the message to send (null if not allowed now). */
export function startAction(
  state: GameState,
  action: string,
  a: number,
): { state: GameState; msg: ClientMessage } | null {
  if (state.pending || !state.view || state.seat === null) return null;
  if (!state.view.legal.includes(action)) return null;
  const pending = { a, v: state.v, action };
  return {
    state: { ...state, pending, error: null },
    msg: { t: "act", d: { a, v: state.v, action } },
  };
}

function buildSummary(events: GameEvent[], view: View, before: View | null): HandSummary {
  const ended = events.find((e) => e.type === "HandEnded");
  const scored: HandSummary["scored"] = [];
  const passed: HandSummary["passed"] = [];
  const shown: [number, CardCode[]][] = [];
  const declared: [number, number | null, boolean][] = [];
  for (const e of events) {
    if (e.type === "Scored") scored.push({ team: e.team, points: e.points, reason: e.reason });
    if (e.type === "PorotosPassed") passed.push({ seat: e.seat, to: e.to, points: e.points, reason: e.reason });
    if (e.type === "CardsShown") shown.push([e.seat, e.cards]);
    if (e.type === "PointsDeclared") declared.push([e.seat, e.points, e.flor]);
  }
  // The view after the hand may already be the next deal's: fall back on the one before.
  const source = view.tricks.length > 0 || view.plays.length > 0 || !before ? view : before;
  const tricks = [...source.tricks];
  if (source.plays.length > 0) tricks.push(source.plays);
  return {
    hand: (before ?? view).hand,
    points: ended && ended.type === "HandEnded" ? ended.points : view.hand_points,
    winner: ended && ended.type === "HandEnded" ? ended.winner : -1,
    score: view.score,
    scored,
    passed,
    declared: declared.length > 0 ? declared : (before?.declared ?? view.declared),
    shown: shown.length > 0 ? shown : view.shown,
    tricks,
    results: source.results,
    history: (before ?? view).history,
    story: view.story ?? null,
    view: source,
  };
}

function foldEvents(state: GameState, events: GameEvent[], view: View): GameState {
  let handEvents = state.handEvents;
  let summary = state.summary;
  let matchOver = state.matchOver;
  for (const e of events) {
    if (e.type === "HandStarted") {
      handEvents = [e];
      continue;
    }
    handEvents = [...handEvents, e];
    if (e.type === "HandEnded") {
      summary = buildSummary(handEvents, view, state.view);
    }
    if (e.type === "MatchEnded") matchOver = { winner: e.winner, score: e.score };
  }
  const log = [...state.log, ...events.filter((e) => e.type !== "CardsDealt")].slice(-KEEP_LOG);
  return { ...state, handEvents, summary, matchOver, log };
}

/** Fold one server message into the state; returns what the transport must do. */
export function reduce(
  state: GameState,
  msg: ServerMessage,
  now: number,
): { state: GameState; effects: Effect[] } {
  switch (msg.t) {
    case "full": {
      const { v, seat, view, table } = msg.d;
      const effects: Effect[] = [];
      let pending = state.pending;
      if (pending) {
        // Resend an action that the server may not have received (same a: never applied twice).
        if (pending.v === v && view.legal.includes(pending.action)) {
          effects.push({ kind: "send", msg: { t: "act", d: { ...pending } } });
        } else {
          pending = null;
        }
      }
      const matchOver =
        view.phase === "over" && view.winner !== null
          ? { winner: view.winner, score: view.score }
          : null;
      return {
        state: {
          ...state,
          v,
          seat: seat ?? null,
          view,
          table: table ?? state.table,
          pending,
          deadline: msg.d.deadline ?? null,
          matchOver,
          rated: matchOver ? state.rated : null,
          summary: null,
          handEvents: view.hand !== state.view?.hand ? [] : state.handEvents,
        },
        effects,
      };
    }
    case "ev": {
      const { v, events, view } = msg.d;
      if (v <= state.v) return { state, effects: [] }; // already seen
      if (state.view !== null && v > state.v + 1) {
        return { state, effects: [{ kind: "resync" }] }; // a gap: catch up from state.v
      }
      const folded = foldEvents(state, events, view);
      // The version our action made acknowledges it (no separate ack comes).
      const pending = folded.pending && folded.pending.a === msg.d.a ? null : folded.pending;
      return { state: { ...folded, v, view, pending, deadline: msg.d.deadline ?? null }, effects: [] };
    }
    case "ack": {
      if (state.pending && state.pending.a === msg.d.a) {
        return { state: { ...state, pending: null }, effects: [] };
      }
      return { state, effects: [] };
    }
    case "err": {
      const { code, message, a } = msg.d;
      const pending = state.pending && a === state.pending.a ? null : state.pending;
      // A pista refused or not computed: its busy sign goes (the player may ask again).
      const pistaAsked = code === ERRORS.PISTA_UNAVAILABLE || code === ERRORS.RATE_LIMITED ? null : state.pistaAsked;
      const effects: Effect[] =
        code === ERRORS.STALE_VERSION || code === ERRORS.NOT_YOUR_TURN ? [{ kind: "resync" }] : [];
      return {
        state: { ...state, pending, pistaAsked, error: { code, message: message ?? "", at: now } },
        effects,
      };
    }
    case "chat":
      return { state: { ...state, chat: [...state.chat, msg.d].slice(-KEEP_CHAT) }, effects: [] };
    case "sena": {
      const senas = [...state.senas.filter((s) => now - s.at < 60_000), { ...msg.d, at: now }];
      return { state: { ...state, senas }, effects: [] };
    }
    case "table":
      return { state: { ...state, table: msg.d }, effects: [] };
    case "pista":
      // An answer for another version than the one on screen is stale: the decision moved on.
      if (msg.d.v !== state.v || !state.view?.legal.includes(msg.d.action)) return { state: { ...state, pistaAsked: null }, effects: [] };
      return { state: { ...state, pista: { v: msg.d.v, action: msg.d.action }, pistaAsked: null }, effects: [] };
    case "rated":
      return { state: { ...state, rated: msg.d }, effects: [] };
    case "pong":
      return { state, effects: [] };
  }
}

/** The cards each seat has put on the table this hand, trick by trick (for the table drawing). */
export function playedBySeat(view: View): Map<number, { card: PlayView; trick: number }[]> {
  const out = new Map<number, { card: PlayView; trick: number }[]>();
  const all: PlayView[][] = [...view.tricks, view.plays];
  all.forEach((trick, i) => {
    for (const p of trick) {
      const list = out.get(p[0]) ?? [];
      list.push({ card: p, trick: i });
      out.set(p[0], list);
    }
  });
  return out;
}

/** The side of a seat in the view's hand (it changes every hand in pata de gallo, and is the
 * seat itself in destantado); without a view, team play's s % 2. */
export function teamOf(seat: number, view?: View | null): number {
  return view?.teams?.[seat] ?? seat % 2;
}

export function variantOf(options: Options | null | undefined): Variant {
  return options?.variant ?? "standard";
}

/** Pica-pica: whether `seat` sits out this 1v1 hand (the view's `playing` says who plays it). */
export function sitsOut(view: View, seat: number): boolean {
  return (view.pica ?? -1) >= 0 && !view.playing.includes(seat);
}

/** Destantado: what `seat` stands to lose in the truco, or 0 when he is out of the bet. */
export function stakeOf(view: View, seat: number): number {
  if (!VARIANT_RULES[variantOf(view.options)].own_side || view.phase !== "play") return 0;
  if (view.retired.includes(seat)) return 0;
  return view.stakes?.[seat] ?? 0;
}

/** The cards the viewer may discard now (pata de gallo's pie, first thing in the hand). */
export function discards(view: View): string[] {
  return view.legal.filter((a) => a.startsWith("discard ")).map((a) => a.slice(8));
}

/** The last thing each seat said this hand (calls and answers), from the view's history. */
export function lastWords(view: View): Map<number, string> {
  const out = new Map<number, string>();
  for (const [seat, action] of view.history) {
    if (action.startsWith("play ") || action.startsWith("tapada ") || action.startsWith("discard ")) continue;
    out.set(seat, action);
  }
  return out;
}
