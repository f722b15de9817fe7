// The score of Truco Paulista as its tentos: a game to 12 is kept with twelve counters per side,
// moved from the row of those still to win to the side's pile as they are won (as players keep it
// with beans, caps or matches). Drawn as one row of 12 counters per side, in fours (1-4, 5-8,
// 9-12), the won ones filled; the ring of the view's `onze_at` (the 11th) marks the mão de onze.
// Pure: markup by the html tag.

import { type Html, html } from "./html";

export interface Tento {
  /** 1-based: the tento's number. */
  n: number;
  won: boolean;
  /** The tento that brings a side to the mão de onze. */
  onze: boolean;
}

/** The counters of one side: `target` of them (12), the first `score` won; the `onzeAt`th is
 * the one that brings a side to the mão de onze (the view's `onze_at`; null: none). */
export function tentosLayout(score: number, target = 12, onzeAt: number | null = null): Tento[] {
  const won = Math.max(0, Math.min(score, target));
  return Array.from({ length: target }, (_, i) => ({ n: i + 1, won: i < won, onze: i + 1 === onzeAt }));
}

const R = 5;
const STEP = 13;
const GROUP_GAP = 6;

/** x of the centre of tento `i` (0-based): a small gap after every four. */
export function tentoX(i: number): number {
  return 8 + i * STEP + Math.floor(i / 4) * GROUP_GAP;
}

/** One side's tentos as SVG. `label` (text) names it: "Nós: 7 de 12 tentos". */
export function tentosSvg(score: number, target: number, label: string, onzeAt: number | null = null): Html {
  const tentos = tentosLayout(score, target, onzeAt);
  const width = tentoX(target - 1) + 8;
  const height = 16;
  const dots = tentos.map((t, i) => {
    const cls = `tento${t.won ? " won" : ""}${t.onze ? " onze" : ""}`;
    return html`<circle class="${cls}" cx="${tentoX(i)}" cy="8" r="${R}"/>`;
  });
  return html`<svg class="tentos" data-tentos="${Math.max(0, Math.min(score, target))}" viewBox="0 0 ${width} ${height}" width="${width * 1.3}" height="${height * 1.3}" role="img" aria-label="${label}">
    <title>${label}</title>${dots}</svg>`;
}
