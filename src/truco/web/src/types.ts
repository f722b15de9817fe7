// The wire types of docs/protocol.md (version 1). Keep in step with that file; the constants
// (señas, phases, variants, bot levels, message types, error and close codes) and the events are
// generated from the Python codec into generated.ts and only re-exported here.

import type {
  CardCode,
  Game,
  GameEvent,
  Phase,
  Rated,
  Reason,
  Sena,
  Variant,
  ViewKey,
} from "./generated";

export { BOT_LEVELS, PHASES, SENAS, VARIANTS } from "./generated";
export type { BotLevel, CardCode, GameEvent, Phase, Rated, RatingChange, Sena, Variant } from "./generated";

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
  /** Truco Paulista (absent: argentino). Its variant is "paulista" and its target 12. */
  game?: Game;
  /** Paulista: manilhas of the vira, or the fixed manilha velha. */
  manilhas?: "vira" | "velha";
  /** Paulista, both sides at 11: played blind ("cega") or with the cards seen. */
  mao_de_ferro?: "cega" | "aberta";
  /** Paulista: who leads after a tied trick. */
  tie_lead?: "tied" | "opener";
  /** Paulista: the 40-card deck, or the 24-card baralho limpo (no 4-7). */
  baralho?: "sujo" | "limpo";
  /** Paulista: pagat's rule, no raise while just accepting would already win the game. */
  no_raise_to_win?: boolean;
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
  /** "argentino" or "paulista". Paulista cards keep the notation: 1 = A, 10 = Q, 11 = J,
   * 12 = K; b = paus, c = copas, e = espadas, o = ouros. */
  game: Game;
  /** Paulista: the card turned up this hand (null with the manilha velha). */
  vira: CardCode | null;
  /** Paulista: this hand's manilhas, strongest (the zap) first. */
  manilhas: CardCode[];
  /** What the hand is worth now (Paulista 1, 3, 6, 9, 12). */
  hand_value: number;
  /** Paulista: the side playing a mão de onze, or -1 (between hands: the next hand's). */
  onze: number;
  /** Paulista: the seat deciding the mão de onze now (joga or corre), else null. */
  onze_call: number | null;
  /** Paulista: a mão de ferro (both sides at 11). */
  ferro: boolean;
  /** Paulista: the viewer plays blind (his cards are hidden, one forced play). */
  blind: boolean;
  /** Paulista, mão de onze: the viewer's partners' cards, [seat, cards]. */
  partners: [number, CardCode[]][];
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
  /** A rated table: its matches move the players' ratings (docs/players.md). */
  rated?: boolean;
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
  | { t: "rated"; d: Rated }
  | { t: "pong"; d: Record<string, never> };

export type ClientMessage =
  | { t: "act"; d: { a: number; v: number; action: string } }
  | { t: "chat"; d: { text: string } }
  | { t: "sena"; d: { sena: Sena } }
  | { t: "rematch"; d: Record<string, never> }
  | { t: "pista"; d: Record<string, never> }
  | { t: "ping"; d: Record<string, never> };
