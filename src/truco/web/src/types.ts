// The wire types of docs/protocol.md (version 1). Every one is generated from the Python codec
// (truco.protocol: its shapes, the rules, the events) into generated.ts and only re-exported
// here, so that no module restates a field.

import type { SeatInfo, TableInfo } from "./generated";

export { BOT_LEVELS, PHASES, SENAS, VARIANTS } from "./generated";
export type {
  AwaitedCall,
  BotLevel,
  CardCode,
  ChatLine,
  ClientMessage,
  GameEvent,
  HandStory,
  Options,
  Phase,
  PlayView,
  Rated,
  RatingChange,
  SeatInfo,
  Sena,
  ServerMessage,
  TableInfo,
  Variant,
  View,
} from "./generated";

export type SeatKind = SeatInfo["kind"];
export type TableStatus = TableInfo["status"];
