// The score drawn as fósforos: matchsticks in squares of five (four sides, then the diagonal).
// Every target has malas (the first half, H = target // 2) and buenas, unless the rules keep halves
// for games of 20 or more only (the core's variants.target_half, generated into HALVES).

import { HALVES } from "./generated";

import { type Html, html } from "./html";

export interface Stick {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

export interface FosforoGroup {
  /** Sticks drawn in this square, 0-5. */
  sticks: number;
  /** Points this square can hold (5, or fewer for the last square of a half: 24 has 12 = 5+5+2). */
  capacity: number;
}

export interface FosforoSection {
  kind: "malas" | "buenas" | "all";
  groups: FosforoGroup[];
}

/** Where the malas end for a match to `target` (docs/rules.md), or null: no malas and buenas. */
export function halfOf(target: number): number | null {
  return HALVES[target] ?? null;
}

function squares(points: number, size: number): FosforoGroup[] {
  const out: FosforoGroup[] = [];
  for (let start = 0; start < size; start += 5) {
    const capacity = Math.min(5, size - start);
    out.push({ capacity, sticks: Math.max(0, Math.min(capacity, points - start)) });
  }
  return out;
}

/** The squares to draw for a team's score; `half` is where the malas end (a game's view says it,
 * `view.half`; the anotador, which has no view, takes the rules' default for its target). */
export function fosforosLayout(score: number, target: number, half: number | null = halfOf(target)): FosforoSection[] {
  const points = Math.max(0, Math.min(score, target));
  if (half === null) return [{ kind: "all", groups: squares(points, target) }];
  return [
    { kind: "malas", groups: squares(points, half) },
    { kind: "buenas", groups: squares(points - half, target - half) },
  ];
}

/** Whether a team is in the buenas (past the half). */
export function inBuenas(score: number, target: number, half: number | null = halfOf(target)): boolean {
  return half !== null && score > half;
}

/**
 * The sticks of one square of side `size` at (x, y): left, top, right, bottom, then the diagonal.
 * The sides overlap a little at the corners, as matches laid on a table do.
 */
export function squareSticks(n: number, x: number, y: number, size: number): Stick[] {
  const all: Stick[] = [
    { x1: x, y1: y + size, x2: x, y2: y },
    { x1: x, y1: y, x2: x + size, y2: y },
    { x1: x + size, y1: y, x2: x + size, y2: y + size },
    { x1: x + size, y1: y + size, x2: x, y2: y + size },
    { x1: x + 2, y1: y + size - 2, x2: x + size - 2, y2: y + 2 },
  ];
  return all.slice(0, Math.max(0, Math.min(5, n)));
}

function stickSvg(s: Stick): Html {
  // The body of the match and its head at the (x2, y2) end.
  return html`<line x1="${s.x1}" y1="${s.y1}" x2="${s.x2}" y2="${s.y2}" class="stick"/>
    <circle cx="${s.x2}" cy="${s.y2}" r="1.9" class="head"/>`;
}

const SIZE = 14;
const STEP = 20;

/** One team's fósforos as SVG: squares in a row, malas, a rule, then buenas. `label` is text. */
export function fosforosSvg(score: number, target: number, label: string, half: number | null = halfOf(target)): Html {
  const sections = fosforosLayout(score, target, half);
  const parts: Html[] = [];
  let x = 3;
  sections.forEach((section, i) => {
    if (i > 0) {
      parts.push(html`<line x1="${x}" y1="0" x2="${x}" y2="${SIZE + 6}" class="half"/>`);
      x += 5;
    }
    for (const g of section.groups) {
      parts.push(html`<rect x="${x}" y="3" width="${SIZE}" height="${SIZE}" class="slot"/>`);
      for (const s of squareSticks(g.sticks, x, 3, SIZE)) parts.push(stickSvg(s));
      x += STEP;
    }
  });
  const width = x - STEP + SIZE + 3;
  const height = SIZE + 6;
  return html`<svg class="fosforos" viewBox="0 0 ${width} ${height}" width="${width * 1.4}" height="${height * 1.4}" role="img" aria-label="${label}">
    <title>${label}</title>${parts}</svg>`;
}
