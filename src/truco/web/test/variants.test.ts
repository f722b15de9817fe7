import { describe, expect, it } from "vitest";
import { actionLabel, setLang } from "../src/i18n";
import { discards, initialState, reduce, sitsOut, stakeOf, teamOf, variantOf, type GameState } from "../src/protocol";
import { board, eventLine, handAndActions, lobbyList, matchOverModal, scoreboard, seatPosition, senasPanel, summaryModal } from "../src/render";
import type { GameEvent, Options, ServerMessage, TableInfo, View } from "../src/types";
import { createOptions, type CreateForm } from "../src/variants";
import { HALVES, VARIANT_RULES } from "../src/generated";
import { makeTable, makeView } from "./fixtures";

const GALLO: Options = { players: 3, target: 15, flor: false, variant: "pata_de_gallo" };
const DESTANTADO: Options = { players: 3, target: 30, flor: false, variant: "destantado", porotos: 5, destantado_falta: 6 };
const PICA: Options = { players: 6, target: 15, flor: false, variant: "pica_pica", pica_from: 1, pica_margin: 5 };

function table(n: number, options: Options): TableInfo {
  const names = ["Ana", "Beto", "Caro", "Dani", "Eva", "Fede"];
  return makeTable({
    options,
    seats: names.slice(0, n).map((name, seat) => ({ seat, name, kind: seat ? "bot" : "human", connected: true, level: seat ? "random" : null })),
  });
}

function variantFacts(options: Options): Pick<View, "individual" | "half"> {
  const facts = VARIANT_RULES[options.variant ?? "standard"];
  return { individual: facts.individual, half: facts.piles ? null : (HALVES[options.target ?? 30] ?? null) };
}

function game(options: Options, view: Partial<View>, seat: number | null = 0): GameState {
  const n = options.players;
  return {
    ...initialState(),
    v: 10,
    seat,
    // What the server's view says of the variant (truco.variants), as observe() computes it.
    view: makeView({ seat, options, ...variantFacts(options), hand_sizes: Array(n).fill(3), stakes: Array(n).fill(1), playing: [...Array(n).keys()], tricks: [], results: [], history: [], declared: [], ...view }),
    table: table(n, options),
  };
}

const acts = (html: string) => [...html.matchAll(/data-act="([^"]+)"/g)].map((m) => m[1]);
const extras = { senas: [], now: 0, turnLeft: null };

const FORM: CreateForm = { variant: "standard", players: 4, target: 15, flor: true, falta: "leader", tapada: "off", porotos: 3, pica_from: 1 };

describe("the create form's options", () => {
  it("sends the standard options with the players chosen", () => {
    expect(createOptions(FORM)).toEqual({ options: { players: 4, target: 15, flor: true, falta: "leader", tapada: "off" }, seats: 4 });
  });
  it("gives each variant its own seats and only its own options", () => {
    expect(createOptions({ ...FORM, variant: "pata_de_gallo" })).toEqual({
      options: { variant: "pata_de_gallo", target: 15, flor: true, falta: "leader", tapada: "off" },
      seats: 3,
    });
    // Destantado: no flor, no target, no falta formula; its porotos instead.
    expect(createOptions({ ...FORM, variant: "destantado" })).toEqual({ options: { variant: "destantado", porotos: 3, tapada: "off" }, seats: 3 });
    const pica = createOptions({ ...FORM, variant: "pica_pica" });
    expect(pica.seats).toBe(6);
    expect(pica.options).toMatchObject({ variant: "pica_pica", pica_from: 1, target: 15 });
    expect(pica.options).not.toHaveProperty("players");
  });
});

describe("the create form's Truco Paulista", () => {
  it("sends its own options: the seats chosen, the manilhas and the mão de ferro, never a target, flor or falta", () => {
    const paulista = createOptions({ ...FORM, variant: "paulista", players: 6, manilhas: "velha", mao_de_ferro: "aberta" });
    expect(paulista).toEqual({ options: { variant: "paulista", players: 6, tapada: "off", manilhas: "velha", mao_de_ferro: "aberta" }, seats: 6 });
    expect(createOptions({ ...FORM, variant: "paulista", players: 2 }).seats).toBe(2);
  });
  it("names it in the lobby, with the manilha velha", () => {
    setLang("es");
    const velha: Options = { players: 4, target: 12, flor: false, variant: "paulista", game: "paulista", manilhas: "velha" };
    const markup = String(lobbyList([table(4, velha)]));
    expect(markup).toContain("Truco Paulista · 4p · 12");
    expect(markup).toContain("Fijas (manilha velha)");
  });
});

describe("the sides of a hand", () => {
  it("reads each seat's side from the view, not from s % 2", () => {
    const v = makeView({ options: GALLO, teams: [0, 1, 0], pie: 1 });
    expect([0, 1, 2].map((s) => teamOf(s, v))).toEqual([0, 1, 0]);
    expect(teamOf(3)).toBe(1);
    // Per-player scores and seat counts are the registry's (generated VARIANT_RULES).
    const facts = (o: Options) => VARIANT_RULES[variantOf(o)];
    expect(facts(GALLO).individual && facts(DESTANTADO).individual).toBe(true);
    expect(facts(PICA).individual || facts({ players: 2, target: 30, flor: false }).individual).toBe(false);
    expect([GALLO, DESTANTADO, PICA].map((o) => facts(o).seats[0])).toEqual([3, 3, 6]);
  });
  it("knows who sits out a 1v1 hand of pica-pica", () => {
    const v = makeView({ options: PICA, pica: 1, mano: 4, playing: [1, 4] });
    expect([0, 1, 2, 3, 4, 5].filter((s) => !sitsOut(v, s))).toEqual([1, 4]);
    expect(sitsOut({ ...v, pica: -1 }, 0)).toBe(false);
  });
  it("knows who is still in destantado's bet", () => {
    const v = makeView({ options: DESTANTADO, teams: [0, 1, 2], stakes: [2, 0, 2], retired: [1, 2] });
    expect([0, 1, 2].map((s) => stakeOf(v, s))).toEqual([2, 0, 0]);
  });
});

describe("pata de gallo", () => {
  const discarding = {
    teams: [1, 0, 0],
    pie: 0,
    discard: 0,
    mano: 1,
    to_act: 0,
    cards: ["1e", "7o", "4c", "12b"],
    hand_sizes: [4, 3, 3],
    legal: ["discard 1e", "discard 7o", "discard 4c", "discard 12b"],
  };
  it("lets the pie discard one of his four cards, and nothing else", () => {
    const g = game(GALLO, discarding);
    expect(discards(g.view!)).toEqual(["1e", "7o", "4c", "12b"]);
    const html = String(handAndActions(g, false));
    expect(acts(html)).toEqual(["discard 1e", "discard 7o", "discard 4c", "discard 12b"]);
    expect(html).toContain("elegí la carta que descartás");
    expect(html.match(/<button class="my-card/g)).toHaveLength(4);
  });
  it("marks the pie on the board and says he is discarding", () => {
    const g = game(GALLO, { ...discarding, seat: 1, cards: ["3e", "3b", "2o"], legal: [], to_act: 0 }, 1);
    const html = String(board(g, extras));
    expect(html.match(/class="seat /g)).toHaveLength(3);
    expect(html).toMatch(/class="seat team-1 rel-2 to-act pie"[^>]*data-seat="0"/);
    expect(html).toContain('<span class="badge pie">pie</span>');
    expect(html).toContain("Ana (el pie) descarta…");
    expect(html.match(/mini-back/g)).toHaveLength(4 + 3); // the pie's four, the other's three
    expect(seatPosition(1, 3)).toEqual([84, 14]);
    expect(acts(String(handAndActions(g, false)))).toEqual([]);
  });
  it("scores per player, the viewer first, and names the winner", () => {
    const g = game(GALLO, { score: [4, 9, 2], teams: [0, 1, 0], pie: 1, phase: "over", winner: 1 }, 2);
    const html = String(scoreboard(g.view!, 2, g.table));
    expect([...html.matchAll(/data-seat="(\d)"/g)].map((m) => m[1])).toEqual(["2", "0", "1"]);
    expect(html).toContain("Caro (vos)");
    expect(html).toContain('data-score="9"');
    expect(html).not.toContain("Nosotros");
    // The pie's board says so in words (once, on Beto's board), no bare sign.
    expect(html.match(/<span class="badge pie">pie<\/span>/g)).toHaveLength(1);
    expect(html).toMatch(/data-seat="1">\s*<div class="team-head"><span class="team-name">Beto<\/span><span class="badge pie">/);
    expect(html).not.toContain("♦");
    const over = { ...g, matchOver: { winner: 1, score: [4, 15, 2] } };
    expect(String(matchOverModal(over, "/m", false))).toContain("Ganó Beto");
    expect(String(matchOverModal(over, "/m", false))).toMatch(/class="team player[^"]* winner" data-seat="1"/);
    expect(String(matchOverModal({ ...over, seat: 1, view: { ...g.view!, seat: 1 } }, "/m", false))).toContain("¡Ganaste!");
  });
  it("writes the discard and each player's points in the log, never the card", () => {
    const g = game(GALLO, { teams: [0, 1, 0], pie: 1 });
    expect(eventLine({ type: "Discarded", seat: 1 }, g.table, 0, g.view)).toBe("Beto descartó una carta");
    expect(eventLine({ type: "Scored", team: 2, points: 2, reason: "truco" }, g.table, 0, g.view, ["truco"])).toBe("Caro +2 (truco)");
    expect(eventLine({ type: "TrickEnded", trick: 0, team: 0, seat: 2 }, g.table, 0, g.view)).toBe("Primera: para Nosotros");
    expect(eventLine({ type: "TrickEnded", trick: 0, team: 0, seat: 2 }, g.table, null, g.view)).toBe("Primera: para Ana · Caro");
    expect(eventLine({ type: "MatchEnded", winner: 0, score: [15, 3, 15] }, g.table, 0, g.view)).toBe("Fin del partido: Ana (vos)");
    expect(actionLabel("discard ??")).toBe("descartó una carta");
    expect(actionLabel("discard 1e")).toBe("descarta Ancho de espada");
  });
});

describe("destantado", () => {
  it("draws each player's pile of porotos and who is still in the bet", () => {
    const g = game(DESTANTADO, { score: [5, 2, 7], teams: [0, 1, 2], stakes: [2, 0, 2], retired: [1], truco: 2 });
    const score = String(scoreboard(g.view!, 0, g.table));
    expect(score.match(/class="poroto"/g)).toHaveLength(14);
    expect(score).toContain('data-porotos="2"');
    expect(score).toContain("Gana el primero que se queda sin porotos");
    const html = String(board(g, extras));
    expect(html.match(/data-stake="2"/g)).toHaveLength(2);
    expect(html).toContain('<span class="badge out">afuera</span>');
    expect(html).toMatch(/class="seat team-2 /);
    expect(String(senasPanel(g))).toBe(""); // nobody to sign to
  });
  it("tells who passed porotos to whom, in the log and in the hand's summary", () => {
    const g = game(DESTANTADO, { teams: [0, 1, 2], history: [[1, "truco"], [0, "quiero"]] });
    const pass: GameEvent = { type: "PorotosPassed", seat: 0, to: 2, points: 2, reason: "truco" };
    expect(eventLine(pass, g.table, 0, g.view, ["truco"])).toBe("Ana pasa 2 a Caro (truco)");
    expect(eventLine({ ...pass, to: -1, reason: "envido-no-quiero" }, g.table, 0, g.view)).toBe("Ana pasa 2 al pozo (envido no querido)");
    const ev: ServerMessage = {
      t: "ev",
      d: {
        v: 11,
        events: [pass, { type: "HandEnded", points: [-2, 0, 2], winner: 0 }],
        view: { ...g.view!, phase: "deal", score: [3, 5, 7], hand_points: [-2, 0, 2] },
      },
    };
    const { state } = reduce(g, ev, 0);
    expect(state.summary?.passed).toEqual([{ seat: 0, to: 2, points: 2, reason: "truco" }]);
    const html = String(summaryModal(state.summary!, state, "/h/4"));
    expect(html).toContain("Ana pasa 2 a Caro (truco)");
    expect(html).toContain("Ana (vos) -2 · Beto 0 · Caro 2");
  });
});

describe("pica-pica", () => {
  it("greys the four who sit out a 1v1 hand and labels it", () => {
    const g = game(PICA, { pica: 0, mano: 2, teams: [0, 1, 0, 1, 0, 1], hand_sizes: [0, 0, 3, 0, 0, 3], playing: [2, 5], retired: [0, 1, 3, 4], to_act: 2 });
    const html = String(board(g, extras));
    expect(html.match(/class="seat /g)).toHaveLength(6);
    expect(html.match(/sitting-out/g)).toHaveLength(4);
    expect(html.match(/no juega/g)).toHaveLength(4);
    expect(html).not.toContain("al mazo");
    expect(html).toContain("Mano de pica 1 de 3");
    const everyone = String(board(game(PICA, { pica: -1, teams: [0, 1, 0, 1, 0, 1] }), extras));
    expect(everyone).toContain("Mano de todos");
    expect(everyone).not.toContain("sitting-out");
    // Scores stay per team.
    expect(String(scoreboard(g.view!, 0, g.table))).toContain("Nosotros");
  });
  it("lists the variant in the lobby", () => {
    const html = String(lobbyList([table(6, PICA), table(3, DESTANTADO)]));
    expect(html).toContain("Pica-pica · 6p · 15");
    expect(html).toContain("Destantado · 3p · 5 porotos");
  });
  it("names a bot in the lobby by its persona with its level beside it (issue 11, point 6)", () => {
    const tb = table(2, { variant: "standard", players: 2, target: 30, flor: false });
    tb.seats[0] = { ...tb.seats[0]!, kind: "human", name: "Ana" };
    tb.seats[1] = { ...tb.seats[1]!, kind: "bot", name: "Don Ramón", level: "experto" };
    const html = String(lobbyList([tb]));
    expect(html).toContain("Ana, Don Ramón (Experto)");
  });
});

describe("names", () => {
  it("tells apart seats of the same name (bots of one kind) by their number", () => {
    const tb = table(3, GALLO);
    tb.seats[1]!.name = "random";
    tb.seats[2]!.name = "random";
    const g = { ...game(GALLO, { teams: [0, 1, 0] }), table: tb };
    const html = String(board(g, extras));
    expect(html).toContain("random 2");
    expect(html).toContain("random 3");
    expect(html).toContain(">Ana (vos)<");
  });
});

describe("English", () => {
  it("has the variants' words", () => {
    setLang("en");
    try {
      const g = game(PICA, { pica: 2, teams: [0, 1, 0, 1, 0, 1] });
      expect(String(board(g, extras))).toContain("Pica hand 3 of 3");
      expect(actionLabel("discard ??")).toBe("discarded a card");
    } finally {
      setLang("es");
    }
  });
});
