// The wire types of docs/protocol.md (version 1). Keep in step with that file; the constants
// (señas, phases, variants, bot levels, message types, error and close codes) and the events are
// generated from the Python codec into generated.ts and only re-exported here.

import type { CardCode, GameEvent, Phase, Reason, Sena, Variant, ViewKey } from "./generated";

export { BOT_LEVELS, PHASES, SENAS, VARIANTS } from "./generated";
export type { BotLevel, CardCode, GameEvent, Phase, Sena, Variant } from "./generated";

/** A card on the table as the viewer sees it: [seat, card or null if face down, face_down]. */
export type PlayView = [number, CardCode | null, boolean];

export interface Options {
  players: number;
  target: number;
  flor: boolean;
  falta?: string;
  tapada?: string;
  variant?: Variant;
  /** Destantado: the porotos each player starts with. */
  porotos?: number;
  destantado_falta?: number;
  /** Pica-pica: the 1v1 rounds start once the leading team has this many points... */
  pica_from?: number;
  /** ...and stop once it is closer than this to the target. */
  pica_margin?: number;
  [key: string]: unknown;
}

export interface View {
  seat: number | null;
  /** One number per team, or per player where scores are individual (pata de gallo: points;
   * destantado: the porotos still in each pile). */
  score: number[];
  phase: Phase;
  winner: number | null;
  hand: number;
  mano: number;
  /** The side of each seat in this hand (pata de gallo: 1 for the pie; destantado: the seat). */
  teams: number[];
  /** Pica-pica: which 1v1 hand of a round this is (0-2), or -1 for a hand of everyone. */
  pica: number;
  /** Destantado: what each seat stands to lose in the hand's truco (0: out of it). */
  stakes: number[];
  /** Pata de gallo: the seat that plays last this hand and discards one of four cards. */
  pie: number | null;
  /** Pata de gallo: the pie, while his discard is awaited; else null. */
  discard: number | null;
  envido_open: boolean;
  to_act: number | null;
  cards: CardCode[];
  hand_sizes: number[];
  tantos: number | null;
  flor: number | null;
  tricks: PlayView[][];
  plays: PlayView[];
  results: number[];
  trick: number;
  retired: number[];
  truco: number;
  truco_owner: number;
  truco_call: [number, number, number] | null;
  envido_call: [number, number] | null;
  flor_call: [number, number] | null;
  chain: string[];
  flor_chain: string[];
  hand_points: number[];
  declared: [number, number | null, boolean][];
  shown: [number, CardCode[]][];
  history: [number, string][];
  legal: string[];
  options: Options;
  /** The seats playing this hand: every seat but in a 1v1 hand of pica-pica (the mano and the
   * seat facing him). */
  playing: number[];
  /** Destantado: the caller of the call that waits and those who accepted it so far. */
  bettors: number[];
  /** Destantado: the porotos thrown to the pot (0 elsewhere). */
  pot: number;
  /** What each score started at (destantado: each player's porotos). */
  start_score: number;
  /** Whether `score` has one number per player rather than per team. */
  individual: boolean;
  /** Where the malas end (null: no malas and buenas). */
  half: number | null;
  /** Why the last hand ended, once it has (null while a hand is played). */
  end_reason: Reason | null;
  /** Only in the replay of a finished match (every card face up): each seat's cards still held;
   * empty in every other view. */
  open_hands: CardCode[][];
}

/** The View has exactly the codec's fields (generated VIEW_KEYS): the build fails when a field is
 * added on one side only. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const VIEW_MATCHES_THE_CODEC: Same<keyof View, ViewKey> = true;

export type SeatKind = "human" | "bot" | "empty";

export interface SeatInfo {
  seat: number;
  name: string | null;
  kind: SeatKind;
  connected: boolean;
  level: string | null;
  /** Not in protocol v1 (sent by the server): a person replaced by a bot after the grace period. */
  replaced?: boolean;
  /** Not in protocol v1 (sent by the server): this seat asked for a rematch. */
  rematch?: boolean;
}

export type TableStatus = "waiting" | "playing" | "over";

export interface TableInfo {
  table: string;
  options: Options;
  seats: SeatInfo[];
  status: TableStatus;
  v?: number;
  /** Not in protocol v1: shown only if the server sends it. */
  turn_seconds?: number | null;
  /** The seat's person may ask for pistas (alone against bots); absent: no. */
  pista?: boolean;
}

export interface ChatLine {
  seat: number | null;
  name: string;
  text: string;
  at: string | number;
}

export type ServerMessage =
  | { t: "full"; d: { v: number; seat: number | null; view: View; table: TableInfo; deadline?: number | null } }
  | { t: "ev"; d: { v: number; events: GameEvent[]; view: View; deadline?: number | null } }
  | { t: "ack"; d: { a: number; v: number } }
  | { t: "err"; d: { code: string; message: string; a?: number } }
  | { t: "chat"; d: ChatLine }
  | { t: "sena"; d: { seat: number; sena: string } }
  | { t: "table"; d: TableInfo }
  | { t: "pista"; d: { v: number; action: string } }
  | { t: "pong"; d: Record<string, never> };

export type ClientMessage =
  | { t: "act"; d: { a: number; v: number; action: string } }
  | { t: "chat"; d: { text: string } }
  | { t: "sena"; d: { sena: Sena } }
  | { t: "rematch"; d: Record<string, never> }
  | { t: "pista"; d: Record<string, never> }
  | { t: "ping"; d: Record<string, never> };
