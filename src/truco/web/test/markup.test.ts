// What people type is text, never markup: every view of every variant, drawn with hostile names,
// chat lines, señas and server strings, has exactly the elements and attributes it has with
// plain ones. And markup reaches the page only through src/html.ts.

import ts from "typescript";
import { afterEach, describe, expect, it } from "vitest";
import { analyseLink, analysisPanel } from "../src/analysis";
import { newGame } from "../src/anotador";
import { homeShell } from "../src/home";
import { anotadorBody } from "../src/anotadorPage";
import { cardSvg } from "../src/cards";
import { fosforosSvg } from "../src/fosforos";
import { setLang } from "../src/i18n";
import { type GameState, initialState } from "../src/protocol";
import {
  board,
  chatLines,
  downloadsMenu,
  handAndActions,
  joinPanel,
  lobbyList,
  logLines,
  matchOverModal,
  porotosPile,
  scoreboard,
  seatPosition,
  seatsPanel,
  senasPanel,
  summaryModal,
} from "../src/render";
import { tableShell } from "../src/table";
import type { GameEvent, Options, SeatInfo, TableInfo } from "../src/types";
import { analysisWith, makeTable, makeView } from "./fixtures";

afterEach(() => setLang("es"));

/** Names and lines a hostile player could send (names at most 24 characters, as the server allows). */
export const HOSTILE = [
  "<iframe onload=alert(1)>",
  '"><img src=x onerror=a>',
  "' onmouseover='alert(1)",
  "</title><script>a()</script>",
  "<svg/onload=alert(1)>",
  "&lt;b&gt;x&#39;",
  "<!--",
  "]]><x y=z>",
];
const PLAIN = "Ana";

interface Tag {
  name: string;
  attrs: string[];
}

/** The tags of a piece of markup, as a browser's tokenizer would see them (names lower-cased). */
export function tags(markup: string): Tag[] {
  const out: Tag[] = [];
  let i = 0;
  while ((i = markup.indexOf("<", i)) >= 0) {
    if (markup.startsWith("<!--", i)) {
      out.push({ name: "!--", attrs: [] });
      const end = markup.indexOf("-->", i + 4);
      i = end < 0 ? markup.length : end + 3;
      continue;
    }
    const m = /^<\/?([a-zA-Z][^\s/>]*)/.exec(markup.slice(i));
    if (!m) {
      i++;
      continue;
    }
    const tag: Tag = { name: (m[0].startsWith("</") ? "/" : "") + m[1]!.toLowerCase(), attrs: [] };
    i += m[0].length;
    for (;;) {
      while (i < markup.length && /[\s/]/.test(markup[i]!)) i++;
      if (i >= markup.length || markup[i] === ">") break;
      const a = /^[^\s/>=]+/.exec(markup.slice(i))?.[0] ?? markup[i]!;
      i += a.length;
      tag.attrs.push(a.toLowerCase());
      while (/\s/.test(markup[i] ?? "")) i++;
      if (markup[i] !== "=") continue;
      i++;
      while (/\s/.test(markup[i] ?? "")) i++;
      const q = markup[i];
      if (q === '"' || q === "'") {
        const end = markup.indexOf(q, i + 1);
        i = end < 0 ? markup.length : end + 1;
      } else {
        while (i < markup.length && !/[\s>]/.test(markup[i]!)) i++;
      }
    }
    out.push(tag);
    i++;
  }
  return out;
}

const structure = (markup: unknown) => tags(String(markup)).map((t) => `${t.name}(${t.attrs.join(",")})`);

/** The text a browser shows for a piece of markup (tags dropped, entities decoded). */
function text(markup: unknown): string {
  return String(markup)
    .replace(/<[^>]*>/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
}

const VARIANTS: Record<string, Options> = {
  "1v1": { players: 2, target: 30, flor: true },
  "2v2": { players: 4, target: 30, flor: true },
  "3v3": { players: 6, target: 30, flor: true },
  pata_de_gallo: { players: 3, target: 30, flor: true, variant: "pata_de_gallo" },
  destantado: { players: 3, target: 30, flor: false, variant: "destantado", porotos: 10, destantado_falta: 6 },
  pica_pica: { players: 6, target: 30, flor: true, variant: "pica_pica", pica_from: 1, pica_margin: 5 },
};

function seats(n: number, name: string, waiting: boolean): SeatInfo[] {
  return Array.from({ length: n }, (_, seat) => {
    const empty = waiting && seat === n - 1;
    const bot = seat === 1 && !empty;
    return {
      seat,
      // Two seats share a name (a copy gets the seat's number), the others are the name and a digit.
      name: empty ? null : seat === 2 ? name : seat === 0 ? name : `${name}${seat}`,
      kind: empty ? "empty" : bot ? "bot" : "human",
      connected: seat !== 3,
      level: bot ? (name === PLAIN ? "normal" : (name as "normal")) : null,
      replaced: seat === 4,
      rematch: true,
    } as SeatInfo;
  });
}

function log(n: number, word: string): GameEvent[] {
  const events: GameEvent[] = [{ type: "HandStarted", hand: 1, mano: 0 }];
  for (let seat = 0; seat < n; seat++) {
    events.push(
      { type: "CardPlayed", seat, card: seat % 2 ? null : "1e", face_down: seat % 2 === 1 },
      { type: "Called", seat, verb: seat ? "truco" : word },
      { type: "Answered", seat, verb: word },
      { type: "WentToMazo", seat },
      { type: "TrickEnded", trick: 0, team: seat % 2 ? -1 : seat % 3, seat },
      { type: "PointsDeclared", seat, points: seat ? 27 : null, flor: seat === 2 },
      { type: "Scored", team: seat, points: 2, reason: word },
      { type: "Discarded", seat },
      { type: "PorotosPassed", seat, to: seat ? seat - 1 : -1, points: 1, reason: word },
      { type: "CardsShown", seat, cards: ["7o", "7e"] },
    );
  }
  events.push({ type: "HandEnded", points: Array(n).fill(1), winner: 0 }, { type: "MatchEnded", winner: 0, score: Array(n).fill(3) });
  return events;
}

/** Every view of a table of `options` as `seat` (null: a spectator) sees it, with `name` everywhere. */
function views(options: Options, seat: number | null, name: string): Record<string, unknown> {
  const n = options.players;
  const individual = options.variant === "pata_de_gallo" || options.variant === "destantado";
  const table: TableInfo = makeTable({ table: name, options, seats: seats(n, name, false) });
  const waiting: TableInfo = { ...table, status: "waiting", seats: seats(n, name, true) };
  const view = makeView({
    seat,
    options,
    individual,
    score: Array.from({ length: individual ? n : 2 }, (_, i) => i * 7),
    teams: Array.from({ length: n }, (_, i) => (options.variant === "pata_de_gallo" ? (i === 0 ? 0 : 1) : i % 2)),
    hand_sizes: Array(n).fill(2),
    stakes: Array(n).fill(2),
    pie: options.variant === "pata_de_gallo" ? 0 : null,
    discard: options.variant === "pata_de_gallo" ? 1 : null,
    pica: options.variant === "pica_pica" ? 1 : -1,
    retired: [2],
    truco_call: [2, 1, 0],
    envido_call: null,
    declared: Array.from({ length: n }, (_, s) => [s, s ? 27 : null, s === 2] as [number, number | null, boolean]),
    legal: ["play 1e", "tapada 4c", "discard 1e", "envido", "quiero", "mazo"],
  });
  const game: GameState = {
    ...initialState(),
    v: 10,
    seat,
    view,
    table,
    senas: [
      { seat: 0, sena: "ancho_espada", at: 0 },
      { seat: 1, sena: name as "ancho_espada", at: 0 },
    ],
    chat: [
      { seat: 0, name, text: name, at: 0 },
      { seat: null, name, text: `hola ${name} chau`, at: 0 },
    ],
    log: log(n, name),
    matchOver: { winner: 0, score: Array(individual ? n : 2).fill(3) },
  };
  const summary = {
    hand: 2,
    tricks: [Array.from({ length: n }, (_, s) => [s, s % 2 ? null : "1e"] as [number, string | null])],
    results: [0],
    declared: game.view!.declared,
    shown: [[1, ["1e", "7o"]]] as [number, string[]][],
    scored: [{ team: 0, points: 2, reason: name }],
    passed: [
      { seat: 0, to: 1, points: 1, reason: name },
      { seat: 1, to: -1, points: 1, reason: "truco" },
    ],
    points: Array(individual ? n : 2).fill(1),
    view,
  };
  const invite = `http://127.0.0.1/t/${encodeURIComponent(name)}`;
  const out: Record<string, unknown> = {
    home: homeShell(name),
    table_shell: tableShell(),
    join_visitor: joinPanel(waiting, invite, null, name),
    join_creator: joinPanel(waiting, invite, 0, name),
    lobby: lobbyList([table, waiting]),
    seats_creator: seatsPanel(waiting, 0, false),
    seats_visitor: seatsPanel(waiting, null, true),
    board: board(game, { senas: game.senas, now: 0, turnLeft: 9 }),
    board_waiting: board({ ...game, table: waiting }, { senas: [], now: 0, turnLeft: null }),
    hand: handAndActions(game, false),
    hand_tapada: handAndActions(game, true),
    hand_pista: handAndActions({ ...game, table: { ...table, pista: true }, pista: { v: game.v, action: "quiero" } }, false),
    scoreboard: scoreboard(view, seat, table),
    senas: senasPanel(game),
    chat: chatLines(game),
    log: logLines(game),
    summary: summaryModal(summary as never, game, `/api/tables/${encodeURIComponent(name)}/hands/2.toml`),
    match_over: matchOverModal(game, `/api/tables/${encodeURIComponent(name)}/match.toml`, false),
    downloads: downloadsMenu(name, { ...view, hand: 3 }, (k) => `/h/${k}`, "/m"),
    porotos: porotosPile(7),
    analysis: analysisPanel({ analysis: analysisWith(name), error: null }, 1),
    analysis_face_up_hidden: analysisPanel({ analysis: analysisWith(name), error: null }, 6),
    analysis_refused: analysisPanel({ analysis: null, error: name }, 0),
    analysis_link: analyseLink(name, 2),
  };
  return out;
}

describe("hostile text stays text", () => {
  for (const [variant, options] of Object.entries(VARIANTS)) {
    for (const seat of [0, 1, null]) {
      it(`${variant}, ${seat === null ? "a spectator" : `seat ${seat}`}: every view, Spanish and English`, () => {
        for (const lang of ["es", "en"] as const) {
          setLang(lang);
          const plain = views(options, seat, PLAIN);
          for (const name of HOSTILE) {
            const hostile = views(options, seat, name);
            for (const [where, markup] of Object.entries(hostile)) {
              const found = structure(markup);
              expect(found, `${variant} ${where} with ${name}`).toEqual(structure(plain[where]));
              expect(found.filter((t) => /\(.*\bon/.test(t)), `${where}: an on* attribute`).toEqual([]);
            }
            // The names are shown, as the text they are.
            for (const where of ["board", "chat", "log", "summary", "seats_visitor", "join_visitor", "lobby", "analysis", "analysis_refused"]) {
              expect(text(hostile[where]), `${variant} ${where}`).toContain(name);
            }
          }
        }
      });
    }
  }

  it("the pata de gallo scoreboard draws hostile names as text in its fósforos", () => {
    for (const name of HOSTILE) {
      const markup = String(views(VARIANTS.pata_de_gallo!, null, name).scoreboard);
      expect(tags(markup).map((t) => t.name)).not.toContain("iframe");
      expect(text(markup)).toContain(`${name} 1: 0`);
    }
  });

  it("the anotador, fósforos and cards take labels as text", () => {
    for (const name of HOSTILE) {
      const g = newGame({ names: [name, name.slice(0, 5)] });
      expect(structure(anotadorBody(g))).toEqual(structure(anotadorBody(newGame({ names: [PLAIN, PLAIN] }))));
      expect(structure(fosforosSvg(12, 30, name))).toEqual(structure(fosforosSvg(12, 30, PLAIN)));
      expect(structure(cardSvg("1e", name))).toEqual(structure(cardSvg("1e", PLAIN)));
      expect(structure(cardSvg(null, name))).toEqual(structure(cardSvg(null, PLAIN)));
    }
  });

  it("the tokenizer finds what a browser would", () => {
    expect(tags('<a href="x>y" onclick=go>t</a>')).toEqual([
      { name: "a", attrs: ["href", "onclick"] },
      { name: "/a", attrs: [] },
    ]);
    expect(tags("<title><iframe onload=alert(1)>: 3</title>").map((t) => t.name)).toEqual(["title", "iframe", "/title"]);
    expect(tags('<svg aria-label="" onmouseover="a">').map((t) => t.attrs)).toEqual([["aria-label", "onmouseover"]]);
  });
});

describe("markup reaches the page only through html.ts", () => {
  const files = import.meta.glob<string>("../src/**/*.ts", { query: "?raw", import: "default", eager: true });
  const sources = Object.entries(files).map(([path, src]) => [path.replace("../src/", ""), src] as const);

  it("no other module writes markup into the page", () => {
    expect(sources.length).toBeGreaterThan(10);
    const sinks = /\.(innerHTML|outerHTML)\s*=|insertAdjacentHTML|document\.write|createContextualFragment|DOMParser|srcdoc/;
    const found = sources.filter(([f, src]) => f !== "html.ts" && sinks.test(src)).map(([f]) => f);
    expect(found).toEqual([]);
  });

  it("every template or string that holds a tag is an html`` template", () => {
    const untagged: string[] = [];
    for (const [f, src] of sources) {
      const file = ts.createSourceFile(f, src, ts.ScriptTarget.ES2022, true);
      const visit = (node: ts.Node): void => {
        const literal =
          ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node) || ts.isStringLiteral(node);
        if (literal) {
          const parent = node.parent;
          const tagged = ts.isTaggedTemplateExpression(parent) && parent.tag.getText(file) === "html";
          if (!tagged && /<\/?[a-zA-Z]/.test(node.getText(file))) untagged.push(`${f}: ${node.getText(file).slice(0, 60)}`);
        }
        ts.forEachChild(node, visit);
      };
      visit(file);
    }
    expect(untagged).toEqual([]);
  });
});

describe("no style attributes", () => {
  const styles = Object.values(import.meta.glob<string>("../src/styles.css", { query: "?raw", import: "default", eager: true }))[0] ?? "";
  it("styles.css places the seats and their piles where seatPosition says", () => {
    const round = (v: number) => String(Math.round(v * 100) / 100);
    for (const n of [2, 3, 4, 6]) {
      for (let rel = 0; rel < n; rel++) {
        const [x, y] = seatPosition(rel, n);
        expect(styles).toContain(`.board.players-${n} .seat.rel-${rel} { left: ${x}%; top: ${y}%; }`);
        const [px, py] = [x + (50 - x) * 0.6, y + (50 - y) * 0.6].map(round);
        expect(styles).toContain(`.board.players-${n} .pile.rel-${rel} { left: ${px}%; top: ${py}%; }`);
      }
    }
  });
  it("no view carries a style attribute", () => {
    for (const options of Object.values(VARIANTS)) {
      for (const [where, markup] of Object.entries(views(options, 0, PLAIN))) {
        expect(tags(String(markup)).filter((t) => t.attrs.includes("style")), where).toEqual([]);
      }
    }
  });
});
