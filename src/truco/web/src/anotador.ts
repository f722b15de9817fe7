// The anotador: the score keeper for games played with real cards. Pure logic, mirroring
// src/truco/anotador.py (and the falta formulas of src/truco/envido.py's `falta_value`): two or
// three named sides, points added or taken away, the usual quick amounts, the falta envido
// computed from the score, malas and buenas, undo, and the same JSON form as the Python one.
// Its targets, falta rules, defaults and quick amounts are the Python anotador's (generated.ts).

import { halfOf } from "./fosforos";
import { ANOTADOR, FALTA_MODES, type FaltaMode, TARGET_CHOICES } from "./generated";

export { FALTA_MODES, type FaltaMode } from "./generated";
export const TARGETS = TARGET_CHOICES;

/** The usual amounts, by the name of what was won. */
export const QUICK = ANOTADOR.quick;
export type QuickName = keyof typeof QUICK | "falta envido";
export const QUICK_NAMES: readonly QuickName[] = [...(Object.keys(QUICK) as (keyof typeof QUICK)[]), "falta envido"];

export const FORMAT = ANOTADOR.format;
export const STORAGE_KEY = "truco:anotador";

/** One change of the score: `points` (negative to take away) for `side`, and why. */
export interface Entry {
  side: number;
  points: number;
  what: string;
}

/** A game's score: the sides' names ("" for the default name), the target, the falta formula
 *  and every change. Treated as immutable: every change returns a new game. */
export interface Anotador {
  names: string[];
  target: number;
  falta: FaltaMode;
  entries: Entry[];
}

export function newGame(over: Partial<Anotador> = {}): Anotador {
  const game: Anotador = { names: ["", ""], target: ANOTADOR.target, falta: ANOTADOR.falta, entries: [], ...over };
  check(game);
  return game;
}

function check(game: Anotador): void {
  if (game.names.length !== 2 && game.names.length !== 3)
    throw new Error(`an anotador keeps two or three sides, not ${game.names.length}`);
  if (!(TARGETS as readonly number[]).includes(game.target)) throw new Error(`bad target ${game.target}`);
  if (!(FALTA_MODES as readonly string[]).includes(game.falta)) throw new Error(`bad falta ${game.falta}`);
  for (const e of game.entries) checkSide(game, e.side);
}

function checkSide(game: Anotador, side: number): void {
  if (!Number.isInteger(side) || side < 0 || side >= game.names.length)
    throw new Error(`side must be from 0 to ${game.names.length - 1}, not ${side}`);
}

// ---- reading

/** Each side's points: never below 0 nor above the target. */
export function score(game: Anotador): number[] {
  const points = game.names.map(() => 0);
  for (const e of game.entries) points[e.side] = Math.min(game.target, Math.max(0, (points[e.side] ?? 0) + e.points));
  return points;
}

/** The first side to reach the target, or null while the game goes on. */
export function winner(game: Anotador): number | null {
  const i = score(game).findIndex((p) => p >= game.target);
  return i < 0 ? null : i;
}

/** A side is in the malas while its score is at most half the target. */
export function inMalas(target: number, points: number): boolean {
  const half = halfOf(target);
  return half !== null && points <= half;
}

/** "malas", "buenas" (with how many) or "" for targets without halves. */
export function status(game: Anotador, side: number): { kind: "malas" | "buenas" | ""; n: number } {
  const half = halfOf(game.target);
  const points = score(game)[side] ?? 0;
  if (half === null) return { kind: "", n: points };
  if (points <= half) return { kind: "malas", n: points };
  return { kind: "buenas", n: points - half };
}

/** What an accepted falta envido gives `winner` (envido.py's `falta_value`). */
export function faltaValue(
  target: number,
  mode: FaltaMode,
  points: readonly number[],
  won_by: number,
  lost_by: number,
  before = 0,
): number {
  const half = halfOf(target);
  const won = points[won_by] ?? 0;
  const lost = points[lost_by] ?? 0;
  const leader = Math.max(...points);
  const bothMalas = inMalas(target, won) && inMalas(target, lost);
  let value: number;
  switch (mode) {
    case "match_if_malas":
      value = bothMalas ? target - won : target - leader;
      break;
    case "leader":
      value = target - leader;
      break;
    case "litoral":
      value = bothMalas && half !== null ? half + 1 - leader : target - leader;
      break;
    case "doble":
      value = half !== null && won <= half ? half + 1 - won : target - won;
      break;
    case "loser":
      value = target - lost;
      break;
    case "diferencia":
      if (bothMalas) value = lost - won + 1;
      else if (inMalas(target, won)) value = lost - won;
      else if (inMalas(target, lost)) value = before;
      else value = target - lost;
      break;
  }
  return Math.max(1, value);
}

/** The rival a falta is won against by default: the one with most points (the first on a tie). */
export function defaultAgainst(game: Anotador, side: number): number {
  const points = score(game);
  let best = -1;
  for (let s = 0; s < points.length; s++) {
    if (s === side) continue;
    if (best < 0 || (points[s] ?? 0) > (points[best] ?? 0)) best = s;
  }
  return best;
}

/** What a falta envido won by `side` is worth now. */
export function faltaPoints(game: Anotador, side: number, against?: number, before = 0): number {
  checkSide(game, side);
  const loser = against ?? defaultAgainst(game, side);
  checkSide(game, loser);
  if (loser === side) throw new Error("a side cannot win a falta against itself");
  return faltaValue(game.target, game.falta, score(game), side, loser, before);
}

// ---- changing (each returns a new game)

/** Add (or, with a negative number, take away) points. */
export function add(game: Anotador, side: number, points = 1, what = ""): Anotador {
  checkSide(game, side);
  if (!Number.isInteger(points) || points === 0) throw new Error(`points must be a whole number other than 0, not ${points}`);
  return { ...game, entries: [...game.entries, { side, points, what }] };
}

/** Add one of the usual amounts or the falta envido. */
export function quick(game: Anotador, side: number, name: QuickName): Anotador {
  if (name === "falta envido") return add(game, side, faltaPoints(game, side), name);
  const points = (QUICK as Record<string, number>)[name];
  if (points === undefined) throw new Error(`no quick amount named ${name}`);
  return add(game, side, points, name);
}

/** Take back the last change (the same game when there is nothing to undo). */
export function undo(game: Anotador): Anotador {
  return game.entries.length ? { ...game, entries: game.entries.slice(0, -1) } : game;
}

/** A new game with the same sides and options. */
export function reset(game: Anotador): Anotador {
  return { ...game, entries: [] };
}

/** Two or three sides; the changes of a side that goes away are dropped. */
export function setSides(game: Anotador, n: 2 | 3): Anotador {
  const names = [...game.names.slice(0, n)];
  while (names.length < n) names.push("");
  return { ...game, names, entries: game.entries.filter((e) => e.side < n) };
}

// ---- JSON (the same object as anotador.py's to_json) and keeping the last game

export function toJson(game: Anotador): unknown {
  return {
    format: FORMAT,
    names: [...game.names],
    target: game.target,
    falta: game.falta,
    entries: game.entries.map((e) => [e.side, e.points, e.what]),
  };
}

/** Read `toJson`'s object back; throws if it is not one. */
export function fromJson(data: unknown): Anotador {
  if (!data || typeof data !== "object" || Array.isArray(data)) throw new Error("an anotador is a JSON object");
  const d = data as Record<string, unknown>;
  if (!Array.isArray(d.names) || !Array.isArray(d.entries)) throw new Error("not an anotador");
  const entries = d.entries.map((e: unknown): Entry => {
    if (!Array.isArray(e) || e.length !== 3) throw new Error("not an anotador entry");
    const [side, points, what] = e as unknown[];
    if (!Number.isInteger(side) || !Number.isInteger(points)) throw new Error("not an anotador entry");
    return { side: side as number, points: points as number, what: String(what) };
  });
  const game: Anotador = {
    names: d.names.map((n: unknown) => String(n)),
    target: Number(d.target),
    falta: (d.falta === undefined ? ANOTADOR.falta : String(d.falta)) as FaltaMode,
    entries,
  };
  check(game);
  return game;
}

type KeyValueStore = Pick<Storage, "getItem" | "setItem">;

export function save(game: Anotador, store: KeyValueStore): void {
  try {
    store.setItem(STORAGE_KEY, JSON.stringify(toJson(game)));
  } catch {
    /* storage full or unavailable: the game goes on unsaved */
  }
}

/** The saved game, or null when there is none (or it is unreadable). */
export function load(store: KeyValueStore): Anotador | null {
  try {
    const raw = store.getItem(STORAGE_KEY);
    return raw ? fromJson(JSON.parse(raw)) : null;
  } catch {
    return null;
  }
}
