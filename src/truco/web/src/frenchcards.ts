// The French-suited deck of Truco Paulista, drawn in SVG by code: paus ♣, copas ♥, espadas ♠ and
// ouros ♦, ranks A 2 3 4 5 6 7 Q J K (the 40 cards: no 8, 9 or 10). The notation keeps the Spanish
// codes the core uses ("4b" is the 4 of paus, "12c" the king of copas): suit e espadas, b paus,
// o ouros, c copas; rank 1 the ace, 10 the queen, 11 the jack, 12 the king (the order of Truco
// Paulista, K > J > Q, is the Spanish deck's 12 > 11 > 10). Markup built by the html tag, like
// cards.ts: every card is a 100 x 150 viewBox with no ids, so any number share a page.

import { cornerIndex } from "./cards";
import { type Html, html, join } from "./html";
import type { CardCode } from "./types";

export type FrenchSuit = "e" | "b" | "o" | "c";
export const FRENCH_SUITS: readonly FrenchSuit[] = ["b", "c", "e", "o"];
export const FRENCH_RANKS: readonly number[] = [1, 2, 3, 4, 5, 6, 7, 10, 11, 12];

/** The letter in a card's corner. */
export const RANK_LETTER: Record<number, string> = { 1: "A", 10: "Q", 11: "J", 12: "K" };
/** The suit's sign in text (the terminal and the corner use the same). */
export const SUIT_SIGN: Record<FrenchSuit, string> = { b: "♣", c: "♥", e: "♠", o: "♦" };

export interface FrenchCard {
  rank: number;
  suit: FrenchSuit;
}

export function parseFrench(code: string): FrenchCard | null {
  const m = /^(1[0-2]|[1-7])([eboc])$/i.exec(code.trim());
  if (!m || m[1] === undefined || m[2] === undefined) return null;
  return { rank: Number(m[1]), suit: m[2].toLowerCase() as FrenchSuit };
}

/** "A♣", "7♥", "Q♦": a card as its corner shows it. */
export function frenchLabel(code: CardCode): string {
  const card = parseFrench(code);
  if (!card) return code;
  return `${RANK_LETTER[card.rank] ?? card.rank}${SUIT_SIGN[card.suit]}`;
}

/** Red for copas and ouros, black for paus and espadas. */
export function isRed(suit: FrenchSuit): boolean {
  return suit === "c" || suit === "o";
}

const ink = (suit: FrenchSuit): string => (isRed(suit) ? "#c3202a" : "#1c1c1c");
const f = (n: number): string => (Math.round(n * 100) / 100).toString();

/** One suit sign centred on (0, 0), about 26 units tall: paths of our own. */
export function frenchSymbol(suit: FrenchSuit): Html {
  const c = ink(suit);
  switch (suit) {
    case "c": // copas: a heart
      return html`<path class="fsym fsym-c" d="M0,12 C-3,8.5 -13,2.5 -13,-4.5 C-13,-10.5 -5.5,-13.5 0,-6.5 C5.5,-13.5 13,-10.5 13,-4.5 C13,2.5 3,8.5 0,12 Z" fill="${c}"/>`;
    case "o": // ouros: a diamond, its sides a little hollow
      return html`<path class="fsym fsym-o" d="M0,-13 Q3.5,-4.5 10,0 Q3.5,4.5 0,13 Q-3.5,4.5 -10,0 Q-3.5,-4.5 0,-13 Z" fill="${c}"/>`;
    case "e": // espadas: a heart upside down on a stem
      return html`<path class="fsym fsym-e" d="M0,-13 C-3,-8.5 -13,-3 -13,3.5 C-13,9 -6.5,10.5 -1.8,6 Q-2,10 -5,13 H5 Q2,10 1.8,6 C6.5,10.5 13,9 13,3.5 C13,-3 3,-8.5 0,-13 Z" fill="${c}"/>`;
    case "b": // paus: three leaves on a stem
      return html`<g class="fsym fsym-b" fill="${c}"><circle cy="-6.5" r="5.6"/><circle cx="-6.4" cy="2" r="5.6"/>
        <circle cx="6.4" cy="2" r="5.6"/><path d="M-1.6,1 Q-1.5,9 -5,13 H5 Q1.5,9 1.6,1 Z"/></g>`;
  }
}

function place(suit: FrenchSuit, x: number, y: number, scale: number, flip = false): Html {
  // The pips of the lower half stand upside down, as on every French card.
  const rot = flip ? " rotate(180)" : "";
  return html`<g transform="translate(${f(x)} ${f(y)}) scale(${f(scale)})${rot}">${frenchSymbol(suit)}</g>`;
}

/** Where the pips of A-7 go: [x, y, scale]. */
export function frenchPips(rank: number): [number, number, number][] {
  const L = 33;
  const R = 67;
  const C = 50;
  const top = 34;
  const bottom = 116;
  const mid = 75;
  const s = 0.82;
  switch (rank) {
    case 1:
      return [[C, mid, 2.1]];
    case 2:
      return [
        [C, top, s],
        [C, bottom, s],
      ];
    case 3:
      return [
        [C, top, s],
        [C, mid, s],
        [C, bottom, s],
      ];
    case 4:
      return [
        [L, top, s],
        [R, top, s],
        [L, bottom, s],
        [R, bottom, s],
      ];
    case 5:
      return [
        [L, top, s],
        [R, top, s],
        [C, mid, s],
        [L, bottom, s],
        [R, bottom, s],
      ];
    case 6:
      return [
        [L, top, s],
        [R, top, s],
        [L, mid, s],
        [R, mid, s],
        [L, bottom, s],
        [R, bottom, s],
      ];
    case 7:
      return [
        [L, top, s],
        [R, top, s],
        [C, 54, s],
        [L, mid, s],
        [R, mid, s],
        [L, bottom, s],
        [R, bottom, s],
      ];
    default:
      return [];
  }
}

function corner(rank: number, suit: FrenchSuit): Html {
  const letter = RANK_LETTER[rank] ?? String(rank);
  return cornerIndex(letter, ink(suit), frenchSymbol(suit), { x: 12, size: 16, gap: 9, scale: 0.34 });
}

const SKIN = "#f3d3b0";
const LINE = "#2b2118";
const GOLD = "#e9b82c";

/** The upper half of a court card (drawn again turned round for the lower half): a bust with
 * what marks the rank (the king's crown and beard, the queen's veil and flower, the jack's cap and
 * feather), robed in the suit's colour, and the suit's sign beside it. */
function courtHalf(rank: number, suit: FrenchSuit): Html {
  const robe = ink(suit);
  const trim = isRed(suit) ? "#2f4f9a" : "#c3202a";
  const body = html`<path d="M27,75 Q29,56 50,53 Q71,56 73,75 Z" fill="${robe}" stroke="${LINE}" stroke-width="0.8"/>
    <path d="M44,54 L50,75 L56,54" fill="${trim}" stroke="${LINE}" stroke-width="0.6"/>
    <path d="M30,68 H70" stroke="${GOLD}" stroke-width="1.6"/>
    <circle cx="50" cy="41" r="9.5" fill="${SKIN}" stroke="${LINE}" stroke-width="0.9"/>
    <circle cx="46.5" cy="40.5" r="0.9" fill="${LINE}"/><circle cx="53.5" cy="40.5" r="0.9" fill="${LINE}"/>
    <path d="M47.5,45.5 Q50,47 52.5,45.5" fill="none" stroke="${LINE}" stroke-width="0.7"/>`;
  let mark: Html;
  if (rank === 12) {
    mark = html`<path d="M40,45 Q41,56 50,57 Q59,56 60,45 Q56,50 50,50 Q44,50 40,45 Z" fill="#d9cdb5" stroke="${LINE}" stroke-width="0.7"/>
      <path d="M39.5,33 L39.5,22 L44.5,27 L50,19 L55.5,27 L60.5,22 L60.5,33 Z" fill="${GOLD}" stroke="${LINE}" stroke-width="0.9"/>
      <circle cx="50" cy="25.5" r="1.4" fill="${trim}"/>`;
  } else if (rank === 10) {
    mark = html`<path d="M39,43 Q37,28 50,27 Q63,28 61,43 Q63,56 66,60 L60,58 Q59,46 58,38 Q50,33 42,38 Q41,46 40,58 L34,60 Q37,56 39,43 Z" fill="#8a4f23" stroke="${LINE}" stroke-width="0.7"/>
      <path d="M42,31 Q50,24 58,31" fill="none" stroke="${GOLD}" stroke-width="2"/>
      <circle cx="31" cy="58" r="3" fill="${trim}" stroke="${LINE}" stroke-width="0.6"/><path d="M31,61 V71" stroke="#3c7a2e" stroke-width="1.2"/>`;
  } else {
    mark = html`<path d="M39,37 Q40,27 50,27 Q60,27 61,37 Q56,32 50,32 Q44,32 39,37 Z" fill="${trim}" stroke="${LINE}" stroke-width="0.8"/>
      <path d="M58,30 Q66,20 72,19 Q66,25 60,33" fill="${GOLD}" stroke="${LINE}" stroke-width="0.6"/>
      <path d="M41,46 Q40,52 43,54 M59,46 Q60,52 57,54" fill="none" stroke="#8a4f23" stroke-width="1.6"/>`;
  }
  return join([body, mark, place(suit, 29, 32, 0.5)]);
}

function court(rank: number, suit: FrenchSuit): Html {
  const half = courtHalf(rank, suit);
  return html`<g class="court court-${RANK_LETTER[rank]}">
    <rect x="20" y="25" width="60" height="100" rx="3" fill="#fbf6ea" stroke="${ink(suit)}" stroke-width="0.9"/>
    <svg x="20" y="25" width="60" height="100" viewBox="20 25 60 100" overflow="hidden">
    ${half}<g transform="rotate(180 50 75)">${half}</g></svg>
    <line x1="20" y1="75" x2="80" y2="75" stroke="${ink(suit)}" stroke-width="0.6"/></g>`;
}

/** The face of a card of the French deck. `code` in the notation ("4b" is the 4 of paus); throws
 * on a bad code. `label` (text) names it for screen readers and tooltips. */
export function frenchFace(code: CardCode, label?: string): Html {
  const card = parseFrench(code);
  if (!card) throw new Error(`not a card: ${code}`);
  const { rank, suit } = card;
  const inner =
    rank >= 10 ? court(rank, suit) : frenchPips(rank).map(([x, y, s]) => place(suit, x, y, s, rank > 1 && y > 75));
  const title = label ?? frenchLabel(code);
  return join([
    html`<svg class="card french card-${suit}" data-card="${rank}${suit}" viewBox="0 0 100 150" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${title}">
    <title>${title}</title>
    <rect x="1" y="1" width="98" height="148" rx="8" fill="#ffffff" stroke="#6b6b6b" stroke-width="1.2"/>`,
    corner(rank, suit),
    inner,
    html`</svg>`,
  ]);
}

/** The back of a French card (a hidden or face-down card): blue, with a lattice and a diamond. */
export function frenchBack(label = "carta coberta"): Html {
  const lines: string[] = [];
  for (let k = -140; k <= 100; k += 8) lines.push(`M${10 + k},10 L${150 + k},140`, `M${90 - k},10 L${-50 - k},140`);
  return html`<svg class="card card-back french" viewBox="0 0 100 150" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${label}">
    <title>${label}</title>
    <rect x="1" y="1" width="98" height="148" rx="8" fill="#ffffff" stroke="#6b6b6b" stroke-width="1.2"/>
    <rect x="8" y="8" width="84" height="134" rx="4" fill="#1f3f7a"/>
    <svg x="8" y="8" width="84" height="134" viewBox="8 8 84 134" overflow="hidden">
    <path d="${lines.join(" ")}" stroke="#4d6fae" stroke-width="1"/></svg>
    <rect x="8" y="8" width="84" height="134" rx="4" fill="none" stroke="#f4f1e8" stroke-width="2"/>
    <path d="M50,52 L66,75 L50,98 L34,75 Z" fill="#1f3f7a" stroke="#f4f1e8" stroke-width="2"/>
    </svg>`;
}

/** A French card as seen: its face, or the back when `code` is null. */
export function frenchSvg(code: CardCode | null, label?: string): Html {
  return code === null ? frenchBack(label) : frenchFace(code, label);
}

/** The 40 cards in the notation. */
export function frenchDeck(): CardCode[] {
  return FRENCH_SUITS.flatMap((s) => FRENCH_RANKS.map((r) => `${r}${s}`));
}
