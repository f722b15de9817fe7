// The Spanish deck, drawn in SVG by code: espada, basto, oro and copa, ranks 1-7 and the
// figures sota (10), caballo (11) and rey (12). Markup built by the html tag (testable without a DOM).
// Every card is a 100 x 150 viewBox; no ids, so any number of cards can share a page.

import { type Html, html, join } from "./html";
import type { CardCode } from "./types";

export type Suit = "e" | "b" | "o" | "c";
export const SUITS: readonly Suit[] = ["e", "b", "o", "c"];
export const RANKS: readonly number[] = [1, 2, 3, 4, 5, 6, 7, 10, 11, 12];

export interface Card {
  rank: number;
  suit: Suit;
}

export function parseCard(code: string): Card | null {
  const m = /^(1[0-2]|[1-7])([eboc])$/i.exec(code.trim());
  if (!m || m[1] === undefined || m[2] === undefined) return null;
  return { rank: Number(m[1]), suit: m[2].toLowerCase() as Suit };
}

/** The whole deck in notation, 40 cards. */
export function deck(): CardCode[] {
  return SUITS.flatMap((s) => RANKS.map((r) => `${r}${s}`));
}

const INK: Record<Suit, string> = {
  e: "#2357a6", // espadas: blue
  b: "#2f7a2c", // bastos: green
  o: "#c98a0b", // oros: gold
  c: "#c0262d", // copas: red
};

/** How many gaps ("pintas") the frame has: the traditional way to tell a suit at a glance. */
export const PINTAS: Record<Suit, number> = { o: 0, c: 1, e: 2, b: 3 };

const f = (n: number): string => (Math.round(n * 100) / 100).toString();

/** One suit symbol centred on (0, 0), about 28 units tall. */
export function suitSymbol(suit: Suit): Html {
  switch (suit) {
    case "o":
      return join([        html`<g class="sym sym-o">
        <circle r="11" fill="#f2c230" stroke="#8a5a00" stroke-width="1.4"/>
        <circle r="7.2" fill="none" stroke="#8a5a00" stroke-width="1"/>
        <circle r="3" fill="#c98a0b" stroke="#8a5a00" stroke-width="0.8"/>`,
        Array.from({ length: 8 }, (_, i) => {
          const a = (i * Math.PI) / 4;
          return html`<circle cx="${f(Math.cos(a) * 9.2)}" cy="${f(Math.sin(a) * 9.2)}" r="0.9" fill="#8a5a00"/>`;
        }),
        html`</g>`
      ]);
    case "c":
      return join([        html`<g class="sym sym-c">
        <path d="M-9,-10 H9 Q10,1 2.2,4.5 V9 H6.5 Q7,12 6,13 H-6 Q-7,12 -6.5,9 H-2.2 V4.5 Q-10,1 -9,-10 Z" 
        fill="#c0262d" stroke="#7a1014" stroke-width="1.2" stroke-linejoin="round"/>
        <ellipse cy="-10" rx="9" ry="2.2" fill="#f2c230" stroke="#7a1014" stroke-width="1"/>
        <path d="M-6,-5 Q-5,1 -1,2.5" fill="none" stroke="#f6b3b3" stroke-width="1.2"/>
        <rect x="-4" y="6" width="8" height="1.6" fill="#f2c230"/>
        </g>`
      ]);
    case "e":
      return join([        html`<g class="sym sym-e">
        <path d="M-2,5 L-2,-10 L0,-15 L2,-10 L2,5 Z" fill="#dfe7f1" stroke="#2357a6" stroke-width="1.1" stroke-linejoin="round"/>
        <line x1="0" y1="-12" x2="0" y2="4" stroke="#2357a6" stroke-width="0.6"/>
        <path d="M-8,5 Q0,8 8,5 L8,7.6 Q0,10.6 -8,7.6 Z" fill="#f2c230" stroke="#2357a6" stroke-width="1"/>
        <rect x="-1.6" y="8.6" width="3.2" height="5" fill="#2357a6"/>
        <circle cy="15" r="2" fill="#f2c230" stroke="#2357a6" stroke-width="0.9"/>
        </g>`
      ]);
    case "b":
      return join([        html`<g class="sym sym-b">
        <path d="M-2.2,14 L2.2,14 L5.2,-8 Q5.6,-14 0,-14.5 Q-5.6,-14 -5.2,-8 Z" 
        fill="#4f9a3f" stroke="#5a3312" stroke-width="1.2" stroke-linejoin="round"/>
        <path d="M-1,-12 Q-2.5,-4 -1,10" fill="none" stroke="#a5d68f" stroke-width="1"/>
        <ellipse cx="-4.8" cy="-4" rx="1.6" ry="1.2" fill="#5a3312"/>
        <ellipse cx="4.2" cy="1" rx="1.5" ry="1.1" fill="#5a3312"/>
        <ellipse cx="-3.4" cy="6" rx="1.3" ry="1" fill="#5a3312"/>
        </g>`
      ]);
  }
}

function place(suit: Suit, x: number, y: number, scale: number, rotate = 0): Html {
  const rot = rotate ? ` rotate(${rotate})` : "";
  return html`<g transform="translate(${f(x)} ${f(y)}) scale(${f(scale)})${rot}">${suitSymbol(suit)}</g>`;
}

/** Where the symbols of ranks 1-7 go: [x, y, scale]. */
export function pipLayout(rank: number, suit: Suit = "o"): [number, number, number][] {
  const L = 32;
  const R = 68;
  const C = 50;
  switch (rank) {
    case 1:
      // The anchos of espada and basto are the big ones of the deck.
      return [[C, 75, suit === "e" || suit === "b" ? 2.8 : 2.3]];
    case 2:
      return [
        [C, 45, 1.15],
        [C, 105, 1.15],
      ];
    case 3:
      return [
        [C, 38, 1.0],
        [C, 75, 1.0],
        [C, 112, 1.0],
      ];
    case 4:
      return [
        [L, 45, 1.0],
        [R, 45, 1.0],
        [L, 105, 1.0],
        [R, 105, 1.0],
      ];
    case 5:
      return [
        [L, 40, 0.95],
        [R, 40, 0.95],
        [C, 75, 0.95],
        [L, 110, 0.95],
        [R, 110, 0.95],
      ];
    case 6:
      return [
        [L, 38, 0.9],
        [R, 38, 0.9],
        [L, 75, 0.9],
        [R, 75, 0.9],
        [L, 112, 0.9],
        [R, 112, 0.9],
      ];
    case 7:
      return [
        [L, 36, 0.85],
        [R, 36, 0.85],
        [C, 56, 0.85],
        [L, 78, 0.85],
        [R, 78, 0.85],
        [L, 114, 0.85],
        [R, 114, 0.85],
      ];
    default:
      return [];
  }
}

/** The frame inside the card's edge, broken by the suit's pintas at top and bottom. */
function frame(suit: Suit): Html {
  const ink = INK[suit];
  const x0 = 7;
  const x1 = 93;
  const y0 = 7;
  const y1 = 143;
  const gaps = PINTAS[suit];
  const parts: string[] = [
    `M${x0},${y0 + 14} V${y1 - 14}`,
    `M${x1},${y0 + 14} V${y1 - 14}`,
  ];
  // Top and bottom edges, between the corner indices, broken into gaps + 1 segments.
  const a = 22;
  const b = 78;
  const gap = 5;
  const n = gaps + 1;
  const seg = (b - a - gaps * gap) / n;
  for (const y of [y0, y1]) {
    for (let i = 0; i < n; i++) {
      const s = a + i * (seg + gap);
      parts.push(`M${f(s)},${y} H${f(s + seg)}`);
    }
  }
  return html`<path class="frame" d="${parts.join(" ")}" fill="none" stroke="${ink}" stroke-width="1.6" stroke-linecap="round"/>`;
}

/** Where a deck puts its corner index: `x` from the left edge, the rank's font `size`, the
 * suit sign `gap` below it at `scale`. */
export interface IndexPlace {
  x: number;
  size: number;
  gap: number;
  scale: number;
}

/** A card's index in two opposite corners: its rank (`label`, text) over a small suit sign. The
 * Spanish and the French deck (frenchcards.ts) draw it alike. */
export function cornerIndex(label: string, ink: string, symbol: Html, at: IndexPlace): Html {
  const one = (x: number, y: number, rot: number): Html =>
    html`<g transform="translate(${x} ${y}) rotate(${rot})">
    <text x="0" y="0" text-anchor="middle" font-family="Georgia, 'DejaVu Serif', serif" font-weight="700" 
    font-size="${at.size}" fill="${ink}">${label}</text>
    <g transform="translate(0 ${at.gap}) scale(${at.scale})">${symbol}</g></g>`;
  return join([one(at.x, 19, 0), one(100 - at.x, 131, 180)]);
}

function corner(rank: number, suit: Suit): Html {
  return cornerIndex(String(rank), INK[suit], suitSymbol(suit), { x: 14, size: 15, gap: 8, scale: 0.32 });
}

const SKIN = "#f4d2a8";
const OUT = "#3b2a1a";

/** A sota (10): a standing page holding the suit symbol. */
function sota(suit: Suit): Html {
  const ink = INK[suit];
  return join([    html`<g class="figure sota">`,
    // legs and shoes
    html`<rect x="42" y="104" width="6" height="20" fill="#f2c230" stroke="${OUT}" stroke-width="0.8"/>
    <rect x="52" y="104" width="6" height="20" fill="#f2c230" stroke="${OUT}" stroke-width="0.8"/>
    <ellipse cx="44" cy="125" rx="5" ry="2" fill="${OUT}"/><ellipse cx="56" cy="125" rx="5" ry="2" fill="${OUT}"/>`,
    // tunic
    html`<path d="M37,62 Q50,56 63,62 L67,106 Q50,110 33,106 Z" fill="${ink}" stroke="${OUT}" stroke-width="1"/>
    <path d="M41,76 H59 M39,90 H61" stroke="#f2c230" stroke-width="1.6"/>`,
    // arm holding the symbol
    html`<path d="M62,66 Q71,74 68,84" fill="none" stroke="${ink}" stroke-width="5" stroke-linecap="round"/>`,
    // head, hair and cap
    html`<circle cx="50" cy="50" r="9" fill="${SKIN}" stroke="${OUT}" stroke-width="1"/>
    <path d="M41,50 Q41,40 50,40 Q59,40 59,50 L57,48 Q50,44 43,48 Z" fill="#8a5a2b"/>
    <path d="M39,41 Q50,30 61,41 Z" fill="#c0262d" stroke="${OUT}" stroke-width="0.8"/>
    <circle cx="46.5" cy="51" r="0.9" fill="${OUT}"/><circle cx="53.5" cy="51" r="0.9" fill="${OUT}"/>
    </g>`,
    place(suit, 70, 90, 0.62)
  ]);
}

/** A caballo (11): a horse with its rider. */
function caballo(suit: Suit): Html {
  const ink = INK[suit];
  return join([    html`<g class="figure caballo">`,
    // horse legs
    html`<path d="M36,100 L33,124 M44,102 L44,124 M62,102 L64,124 M70,98 L74,122" stroke="#7a4a22" stroke-width="3.4" stroke-linecap="round"/>`,
    // horse body and neck and head
    html`<ellipse cx="53" cy="92" rx="22" ry="12" fill="#b0713a" stroke="${OUT}" stroke-width="1"/>
    <path d="M30,88 Q22,74 24,62 L33,58 Q38,72 42,84 Z" fill="#b0713a" stroke="${OUT}" stroke-width="1"/>
    <path d="M24,62 L16,70 Q14,74 19,75 L27,70 Z" fill="#b0713a" stroke="${OUT}" stroke-width="1"/>
    <path d="M28,58 L27,52 L31,56 Z" fill="#b0713a" stroke="${OUT}" stroke-width="0.8"/>
    <path d="M32,58 Q40,66 40,80" fill="none" stroke="#3b2a1a" stroke-width="2.4"/>
    <circle cx="24.5" cy="64" r="0.9" fill="${OUT}"/>
    <path d="M75,88 Q84,92 82,106" fill="none" stroke="#3b2a1a" stroke-width="2.4"/>`,
    // saddle cloth in the suit colour
    html`<path d="M44,82 H66 L64,98 H46 Z" fill="${ink}" stroke="${OUT}" stroke-width="0.8"/>`,
    // rider
    html`<path d="M48,82 L46,60 Q55,54 62,60 L60,82 Z" fill="${ink}" stroke="${OUT}" stroke-width="1"/>
    <path d="M52,82 L50,98" stroke="#f2c230" stroke-width="3.2" stroke-linecap="round"/>
    <circle cx="54" cy="50" r="7" fill="${SKIN}" stroke="${OUT}" stroke-width="1"/>
    <path d="M46,47 Q54,36 62,47 Z" fill="#f2c230" stroke="${OUT}" stroke-width="0.8"/>
    <path d="M61,64 Q70,60 72,50" fill="none" stroke="${ink}" stroke-width="4" stroke-linecap="round"/>
    </g>`,
    place(suit, 74, 40, 0.6)
  ]);
}

/** A rey (12): a crowned, bearded king in a long robe. */
function rey(suit: Suit): Html {
  const ink = INK[suit];
  return join([    html`<g class="figure rey">`,
    // robe and cape
    html`<path d="M34,66 Q50,58 66,66 L72,124 H28 Z" fill="${ink}" stroke="${OUT}" stroke-width="1"/>
    <path d="M46,66 L44,124 H56 L54,66 Z" fill="#f2c230" stroke="${OUT}" stroke-width="0.6"/>
    <path d="M28,124 H72" stroke="#f4f0e6" stroke-width="3"/>`,
    // arm with the symbol
    html`<path d="M64,72 Q72,80 68,90" fill="none" stroke="${ink}" stroke-width="5" stroke-linecap="round"/>`,
    // head, beard and crown
    html`<circle cx="50" cy="50" r="9" fill="${SKIN}" stroke="${OUT}" stroke-width="1"/>
    <path d="M41,52 Q42,66 50,68 Q58,66 59,52 Q55,58 50,58 Q45,58 41,52 Z" fill="#e8e2d4" stroke="${OUT}" stroke-width="0.8"/>
    <path d="M40,42 L40,32 L44.5,37 L50,29 L55.5,37 L60,32 L60,42 Z" fill="#f2c230" stroke="${OUT}" stroke-width="1"/>
    <circle cx="50" cy="35" r="1.3" fill="#c0262d"/>
    <circle cx="46.5" cy="49" r="0.9" fill="${OUT}"/><circle cx="53.5" cy="49" r="0.9" fill="${OUT}"/>
    </g>`,
    place(suit, 70, 96, 0.62)
  ]);
}

function figure(rank: number, suit: Suit): Html {
  const body = rank === 10 ? sota(suit) : rank === 11 ? caballo(suit) : rey(suit);
  return html`<rect x="18" y="26" width="64" height="100" rx="3" fill="#fbf3df" stroke="${INK[suit]}" stroke-width="0.8"/>${body}`;
}

const SUIT_NAMES: Record<Suit, string> = { e: "espada", b: "basto", o: "oro", c: "copa" };

/** The face of a card. `code` in the notation ("1e"); throws on a bad code. */
export function cardFace(code: CardCode, label?: string): Html {
  const card = parseCard(code);
  if (!card) throw new Error(`not a card: ${code}`);
  const { rank, suit } = card;
  const inner =
    rank >= 10
      ? figure(rank, suit)
      : pipLayout(rank, suit)
          .map(([x, y, s]) => place(suit, x, y, s));
  const title = label ?? `${rank} de ${SUIT_NAMES[suit]}`;
  return join([    html`<svg class="card card-${suit}" data-card="${rank}${suit}" viewBox="0 0 100 150" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${title}">
    <title>${title}</title>
    <rect x="1" y="1" width="98" height="148" rx="8" fill="#fffdf6" stroke="#6b6b6b" stroke-width="1.2"/>`,
    frame(suit),
    corner(rank, suit),
    inner,
    html`</svg>`
  ]);
}

/** The back of a card (an unknown or face-down card). */
export function cardBack(label = "carta tapada"): Html {
  const lines: string[] = [];
  for (let k = -140; k <= 100; k += 10) {
    lines.push(`M${10 + k},10 L${150 + k},140`, `M${90 - k},10 L${-50 - k},140`);
  }
  return join([    html`<svg class="card card-back" viewBox="0 0 100 150" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${label}">
    <title>${label}</title>
    <rect x="1" y="1" width="98" height="148" rx="8" fill="#fffdf6" stroke="#6b6b6b" stroke-width="1.2"/>
    <rect x="8" y="8" width="84" height="134" rx="4" fill="#9e1c22"/>
    <svg x="8" y="8" width="84" height="134" viewBox="8 8 84 134" overflow="hidden">
    <path d="${lines.join(" ")}" stroke="#c9464b" stroke-width="1.2"/></svg>
    <rect x="8" y="8" width="84" height="134" rx="4" fill="none" stroke="#f2c230" stroke-width="2"/>
    <circle cx="50" cy="75" r="16" fill="#9e1c22" stroke="#f2c230" stroke-width="2"/>
    <g transform="translate(50 75) scale(0.7)">${suitSymbol("o")}</g>
    </svg>`
  ]);
}

/** A card as seen: a face, or the back when `code` is null (a hidden or face-down card). */
export function cardSvg(code: CardCode | null, label?: string): Html {
  return code === null ? cardBack(label) : cardFace(code, label);
}
