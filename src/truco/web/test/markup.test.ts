// What people type is text, never markup: every view of every variant, drawn with hostile names,
// chat lines, señas and server strings, has exactly the elements and attributes it has with
// plain ones (that markup reaches the page only through src/html.ts: sinks.test.ts).

import { afterEach, describe, expect, it } from "vitest";
import { analyseLink, analysisPanel } from "../src/analysis";
import { newGame } from "../src/anotador";
import { accountArea } from "../src/account";
import { knowTable, myTables } from "../src/mytables";
import { homeShell } from "../src/home";
import { anotadorBody } from "../src/anotadorPage";
import { playNowBody } from "../src/playnow";
import { cardSvg } from "../src/cards";
import { fosforosSvg } from "../src/fosforos";
import { html } from "../src/html";
import { frenchSvg } from "../src/frenchcards";
import { tentosSvg } from "../src/tentos";
import { missingPt, setLang, setTableLang, tableLanguage } from "../src/i18n";
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
  pilePosition,
  seatPosition,
  seatsPanel,
  senasPanel,
  summaryModal,
} from "../src/render";
import { ratedLines } from "../src/modals";
import { modDialog, modState } from "../src/moderation";
import { playerPage, type PlayerInfo, rankingPage, ratingChart } from "../src/ranking";
import { replayBody, type ReplayHand, type ReplayMatch } from "../src/replayView";
import { tableShell } from "../src/table";
import type { GameEvent, Options, SeatInfo, TableInfo } from "../src/types";
import { analysisWith, makeTable, makeView } from "./fixtures";
import { HOSTILE, structure, tags, text } from "./tokens";

afterEach(() => {
  setLang("es");
  setTableLang(null);
});

const PLAIN = "Ana";


const VARIANTS: Record<string, Options> = {
  "1v1": { players: 2, target: 30, flor: true },
  "2v2": { players: 4, target: 30, flor: true },
  "3v3": { players: 6, target: 30, flor: true },
  pata_de_gallo: { players: 3, target: 30, flor: true, variant: "pata_de_gallo" },
  destantado: { players: 3, target: 30, flor: false, variant: "destantado", porotos: 10, destantado_falta: 6 },
  pica_pica: { players: 6, target: 30, flor: true, variant: "pica_pica", pica_from: 1, pica_margin: 5 },
  paulista: { players: 4, target: 12, flor: false, variant: "paulista", game: "paulista", manilhas: "vira" },
  paulista_1v1_velha: { players: 2, target: 12, flor: false, variant: "paulista", game: "paulista", manilhas: "velha" },
};

/** What a Paulista view adds (truco.view): the vira and its manilhas, a seis waiting, a mão de
 * onze with the partner's cards, or (manilha velha) a blind mão de ferro. */
function paulistaFacts(options: Options, seat: number | null): Partial<ReturnType<typeof makeView>> {
  if (options.game !== "paulista") return {};
  const velha = options.manilhas === "velha";
  return {
    game: "paulista",
    vira: velha ? null : "4c",
    manilhas: velha ? ["4b", "7c", "1e", "7o"] : ["5b", "5c", "5e", "5o"],
    hand_value: 3,
    truco_call: [6, 1, 0],
    awaited: { verb: "seis", caller: 1, responder: 0, value: 6 },
    onze_at: 11,
    at_onze: velha ? [true, true] : [true, false],
    onze: velha ? -1 : 0,
    onze_call: velha ? null : seat,
    ferro: velha,
    blind: velha && seat !== null,
    cards: velha && seat !== null ? [] : ["5b", "12c"],
    partners: !velha && seat !== null ? [[(seat + 2) % options.players, ["3e", "10o"]]] : [],
    tantos: null,
    envido_call: null,
    declared: [],
    legal: ["play 5b", "tapada 12c", "seis", "desce", "corre", "joga"],
    chain: [],
    history: [
      [1, "truco"],
      [0, "desce"],
      [1, "play 7o"],
      [0, "seis"],
    ],
  };
}

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

/** A Truco Paulista hand's events: calls up to doze, desce and corre, a cangada, a mão de onze run. */
function paulistaLog(n: number, word: string): GameEvent[] {
  const events: GameEvent[] = [{ type: "HandStarted", hand: 1, mano: 0 }];
  const calls = ["truco", "seis", "nove", "doze"];
  for (let seat = 0; seat < n; seat++) {
    events.push(
      { type: "CardPlayed", seat, card: seat % 2 ? null : "4b", face_down: seat % 2 === 1 },
      { type: "Called", seat, verb: seat ? (calls[seat % 4] ?? "truco") : word },
      { type: "Answered", seat, verb: seat % 2 ? "desce" : word },
      { type: "Answered", seat, verb: seat % 2 ? "joga" : "corre" },
      { type: "TrickEnded", trick: 0, team: seat % 2 ? -1 : seat % 3, seat },
      { type: "Scored", team: seat, points: 2, reason: seat % 2 ? "mao-de-onze" : word },
    );
  }
  events.push({ type: "HandEnded", points: Array(n).fill(1), winner: 0 }, { type: "MatchEnded", winner: 0, score: [12, 3] });
  return events;
}

/** The lobby, in the visitor's language (never a table's). */
function lobbyPage(name: string): unknown {
  const table = tableLanguage();
  setTableLang(null);
  const home = homeShell(name);
  setTableLang(table);
  return home;
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
    awaited: { verb: "truco", caller: 1, responder: 0, value: 2 },
    envido_call: null,
    declared: Array.from({ length: n }, (_, s) => [s, s ? 27 : null, s === 2] as [number, number | null, boolean]),
    legal: ["play 1e", "tapada 4c", "discard 1e", "envido", "quiero", "mazo"],
    ...paulistaFacts(options, seat),
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
    log: options.game === "paulista" ? paulistaLog(n, name) : log(n, name),
    matchOver: { winner: 0, score: Array(individual ? n : 2).fill(3) },
  };
  const summary = {
    hand: 2,
    tricks: [Array.from({ length: n }, (_, s) => [s, s % 2 ? null : "1e"] as [number, string | null])],
    results: [0],
    declared: game.view!.declared,
    shown: [[1, ["1e", "7o"]]] as [number, string[]][],
    scored: [{ team: 0, points: 2, reason: name }],
    passed:
      options.game === "paulista"
        ? []
        : [
            { seat: 0, to: 1, points: 1, reason: name },
            { seat: 1, to: -1, points: 1, reason: "truco" },
          ],
    points: Array(individual ? n : 2).fill(1),
    view,
  };
  // The replay: the table's id, the seats' names and the events' words are the hostile text;
  // a finished match (every card face up) to a spectator, a hand as seen to a seat.
  const replayMatch: ReplayMatch = {
    table: name,
    match: 2,
    matches: 3,
    status: seat === null ? "over" : "playing",
    options,
    seats: table.seats,
    seat,
    reveal: seat === null,
    hands: [1, 2].map((hand) => ({ hand, mano: 0, score_before: [0, 0], score_after: [hand, 0], points: [hand, 0], steps: 2 })),
  };
  const frameView = { ...view, open_hands: seat === null ? Array.from({ length: n }, () => ["4c", "5o"]) : [] };
  const replayHand: ReplayHand = {
    table: name,
    match: 2,
    hand: 1,
    seat,
    reveal: seat === null,
    frames: [
      { step: 0, seat: null, action: null, events: [], view: frameView },
      { step: 1, seat: 1, action: options.game === "paulista" ? "play 7o" : seat === null ? "tapada 7o" : "tapada ??", events: options.game === "paulista" ? paulistaLog(n, name) : log(n, name), view: frameView },
      { step: 2, seat: 0, action: name, events: [], view: frameView },
    ],
  };
  const invite = `http://127.0.0.1/t/${encodeURIComponent(name)}`;
  const out: Record<string, unknown> = {
    home: lobbyPage(name),
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
    hand_pista: handAndActions({ ...game, table: { ...table, pista: true }, pista: { v: game.v, action: options.game === "paulista" ? "desce" : "quiero" } }, false),
    scoreboard: scoreboard(view, seat, table),
    senas: senasPanel(game),
    chat: chatLines(game),
    log: logLines(game),
    summary: summaryModal(summary as never, game, `/api/tables/${encodeURIComponent(name)}/hands/2.toml`),
    match_over: matchOverModal(game, `/api/tables/${encodeURIComponent(name)}/match.toml`, false),
    downloads: downloadsMenu(name, { ...view, hand: 3 }, (k) => `/h/${k}`, "/m"),
    account: accountArea({ me: { id: "p", name, seats: [] }, dialog: "password", note: name, busy: false }),
    account_claim: accountArea({ me: { id: "p", name: null, seats: [] }, dialog: "claim", note: name, busy: true }),
    account_login: accountArea({ me: { id: "p", name: null, seats: [] }, dialog: "login", note: "", busy: false }),
    my_tables: myTables({ id: "p", name, seats: [{ table: name, seat: 1 }] }),
    my_tables_known: (knowTable({ ...table, table: "known", status: "playing", score: [3, 4] }),
    myTables({ id: "p", name, seats: [{ table: "known", seat: 1 }] })),
    replay: replayBody(replayMatch, replayHand, { hand: 1, step: 1 }, `http://127.0.0.1/${name}`, [
      { panel: () => html`<p class="analysis">${name}</p>`, mark: () => html`<i>${name}</i>` },
    ]),
    replay_loading: replayBody(replayMatch, null, { hand: 2, step: 0 }, ""),
    replay_problem: replayBody(null, null, { hand: 1, step: 0 }, "", [], name),
    // Destantado's porotos (a Paulista table never shows them).
    porotos: options.game === "paulista" ? "" : porotosPile(7),
    playnow: playNowBody(null, 0),
    playnow_waiting: playNowBody({ ticket: name, token: name, mode: "2v2", since: 0, offer: false }, 65_000),
    playnow_offer: playNowBody({ ticket: name, token: name, mode: "1v1", since: 0, offer: true }, 31_000),
    analysis: analysisPanel({ analysis: analysisWith(name), error: null }, 1),
    analysis_face_up_hidden: analysisPanel({ analysis: analysisWith(name), error: null }, 6),
    analysis_refused: analysisPanel({ analysis: null, error: name }, 0),
    analysis_link: analyseLink(name, 2),
    ...moderationViews(game, waiting, seat, name),
  };
  return out;
}

/** Moderation's views (moderation.ts) as a player who mutes another person sees them: the plates
 * with their "⋯" and badge, his options, the report form quoting his lines, and the creator's
 * options of a seat while the table waits. */
function moderationViews(game: GameState, waiting: TableInfo, seat: number | null, name: string): Record<string, unknown> {
  const n = waiting.seats.length;
  const other = seat === 0 ? (n > 2 ? 2 : 1) : 0;
  Object.assign(modState, { table: name, keys: [{ seat: other, kind: "mute", key: "k" }], menu: other, quotes: null, seen: "" });
  const out: Record<string, unknown> = {
    mod_board: board(game, { senas: [], now: 0, turnLeft: null }),
    mod_options: modDialog(game.table, seat),
    mod_creator: modDialog(waiting, 0),
  };
  modState.quotes = [name, `${name} ${name}`];
  out.mod_report = modDialog(game.table, seat);
  Object.assign(modState, { table: null, keys: [], menu: null, quotes: null });
  return out;
}

describe("hostile text stays text", () => {
  for (const [variant, options] of Object.entries(VARIANTS)) {
    for (const seat of [0, 1, null]) {
      it(`${variant}, ${seat === null ? "a spectator" : `seat ${seat}`}: every view, Spanish and English (and pt-BR at Paulista)`, () => {
        const langs = options.game === "paulista" ? (["es", "en", "pt"] as const) : (["es", "en"] as const);
        for (const lang of langs) {
          if (lang === "pt") setTableLang("pt");
          else setLang(lang);
          const plain = views(options, seat, PLAIN);
          for (const name of HOSTILE) {
            const hostile = views(options, seat, name);
            for (const [where, markup] of Object.entries(hostile)) {
              const found = structure(markup);
              expect(found, `${variant} ${where} with ${name}`).toEqual(structure(plain[where]));
              expect(found.filter((t) => /\(.*\bon/.test(t)), `${where}: an on* attribute`).toEqual([]);
            }
            // The names are shown, as the text they are.
            for (const where of ["board", "mod_board", "mod_report", "chat", "log", "summary", "seats_visitor", "join_visitor", "lobby", "account", "account_claim", "my_tables", "my_tables_known", "replay", "replay_problem", "analysis", "analysis_refused"]) {
              expect(text(hostile[where]), `${variant} ${where}`).toContain(name);
            }
          }
        }
      });
    }
  }

  it("a Paulista table speaks pt-BR: every word of its views is in the pt-BR dictionary", () => {
    for (const variant of ["paulista", "paulista_1v1_velha"]) {
      for (const seat of [0, 1, null]) {
        setTableLang("pt");
        missingPt.clear();
        const drawn = views(VARIANTS[variant]!, seat, PLAIN);
        expect([...missingPt], `${variant} seat ${seat}`).toEqual([]);
        // The Brazilian table's words are there.
        const all = Object.values(drawn).map(String).join(" ");
        for (const word of ["Seis!", "Desce", "Corre", "Jogar a mão de onze", "de 12 tentos", "Partida de 12 tentos"]) expect(all, word).toContain(word);
        if (variant === "paulista" && seat !== null) expect(all).toContain("Mão de onze");
        if (variant === "paulista") expect(all).toContain("Manilha: 5");
        else expect(all).toContain("Zap 4♣");
      }
    }
  });

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
      expect(structure(frenchSvg("12b", name))).toEqual(structure(frenchSvg("12b", PLAIN)));
      expect(structure(frenchSvg(null, name))).toEqual(structure(frenchSvg(null, PLAIN)));
      expect(structure(tentosSvg(7, 12, name))).toEqual(structure(tentosSvg(7, 12, PLAIN)));
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

/** The players' pages (ranking.ts) and the rating changes at the end of a match, with `name` as
 * every player's name, a bot's persona and a table id. */
function playersViews(name: string): Record<string, unknown> {
  const info: PlayerInfo = {
    name,
    ratings: { "1v1": { rating: 1128, matches: 1, provisional: true }, "2v2": { rating: 1510, matches: 40, provisional: false } },
    history: {
      "1v1": [{ at: "2026-12-01T18:00:00+00:00", rating: 1128 }],
      "2v2": [
        { at: "2026-11-30T18:00:00+00:00", rating: 1000 },
        { at: "2026-12-01T18:00:00+00:00", rating: 1510 },
      ],
    },
    matches: [
      {
        table: name,
        match: 1,
        mode: "2v2",
        at: name,
        result: "won",
        before: 1490,
        after: 1510,
        partners: [{ name, level: null }],
        rivals: [
          { name: `${name}1`, level: null },
          { name, level: name },
        ],
        replay: `/r/${encodeURIComponent(name)}`,
      },
      { table: "x", match: 2, mode: "1v1", at: "2026-12-01T18:00:00+00:00", result: "left", before: 1200, after: 1128, partners: [], rivals: [{ name, level: "experto" }], replay: "/r/x" },
    ],
  };
  const game: GameState = {
    ...initialState(),
    seat: 0,
    rated: {
      match: 1,
      mode: "1v1",
      changes: [
        { seat: 0, name, before: 1000, after: 1128, provisional: true, left: false },
        { seat: 1, name: `${name}1`, before: 1000, after: 959, provisional: true, left: true },
      ],
    },
  };
  return {
    ranking: rankingPage("2v2", [
      { name, rating: 1534, matches: 12, provisional: false },
      { name: `${name}2`, rating: 1100, matches: 2, provisional: true },
    ]),
    ranking_week: rankingPage(
      "1v1",
      [
        { name, rating: 1100, matches: 3, provisional: true, gained: 41, won: 2 },
        { name: `${name}2`, rating: 990, matches: 1, provisional: true, gained: -12, won: 0 },
      ],
      "",
      "week",
    ),
    ranking_empty: rankingPage("1v1", []),
    ranking_loading: rankingPage("3v3", null),
    player: playerPage(name, info),
    player_missing: playerPage(name, null, name),
    chart: ratingChart(info.history["2v2"]!),
    rated: ratedLines(game),
  };
}

describe("the players' pages keep hostile names as text", () => {
  it("the ranking, the player page, its chart and the rating changes, Spanish and English", () => {
    for (const lang of ["es", "en"] as const) {
      setLang(lang);
      const plain = playersViews(PLAIN);
      for (const name of HOSTILE) {
        const hostile = playersViews(name);
        for (const [where, markup] of Object.entries(hostile)) {
          const found = structure(markup);
          expect(found, `${where} with ${name}`).toEqual(structure(plain[where]));
          expect(found.filter((t) => /\(.*\bon/.test(t)), `${where}: an on* attribute`).toEqual([]);
        }
        for (const where of ["ranking", "player", "rated"]) expect(text(hostile[where]), where).toContain(name);
      }
    }
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
        const [px, py] = pilePosition(rel, n).map(round);
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

describe("the ranking of a period", () => {
  it("has tabs for all time, the week and the month, and ranks by the points won", () => {
    const page = text(rankingPage("2v2", [{ name: "Ana", rating: 1100, matches: 3, provisional: false, gained: 41, won: 2 }], "", "week"));
    expect(page).toContain("Siempre");
    expect(page).toContain("Esta semana");
    expect(page).toContain("Este mes");
    expect(page).toContain("+41");
    expect(page).toContain("2/3");
    const markup = String(rankingPage("2v2", [], "", "month"));
    expect(markup).toContain('href="/ranking?mode=1v1&amp;period=month"');
    expect(markup).toContain('href="/ranking?mode=2v2"');
    expect(text(rankingPage("1v1", [], "", "month"))).toContain("en este período");
  });
});
