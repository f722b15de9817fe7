import { afterEach, describe, expect, it } from "vitest";
import { cardName, setLang, setTableLang, trickName } from "../src/i18n";
import { initialState } from "../src/protocol";
import { eventLine, logLines, matchOverModal } from "../src/render";
import type { GameEvent, HandStory } from "../src/types";
import { handWhy, scoredReason } from "../src/words";
import { makeTable, makeView } from "./fixtures";

afterEach(() => setLang("es"));

describe("the words of the table", () => {
  it("says +1 la mano where nobody called truco, and names a declined raise", () => {
    expect(scoredReason("truco", [])).toBe("la mano");
    expect(scoredReason("truco", ["envido"])).toBe("la mano");
    expect(scoredReason("truco", ["truco", "retruco"])).toBe("retruco");
    expect(scoredReason("truco-no-quiero", ["truco", "retruco"])).toBe("retruco no querido");
    expect(scoredReason("truco-no-quiero", ["truco", "retruco", "vale-cuatro"])).toBe("vale cuatro no querido");
    expect(scoredReason("envido-no-quiero", ["envido", "falta-envido", "truco"])).toBe("falta envido no querido");
    expect(scoredReason("mazo", [])).toBe("al mazo");
    expect(scoredReason("envido", ["envido", "real-envido"])).toBe("real envido");
    expect(scoredReason("envido", ["truco", "falta-envido"])).toBe("falta envido");
    expect(scoredReason("envido", ["envido"])).toBe("envido");
    setLang("en");
    expect(scoredReason("truco", [])).toBe("the hand");
  });
  it("logs a declined retruco as such, and keeps every call of the hand in order", () => {
    const table = makeTable();
    const events: GameEvent[] = [
      { type: "HandStarted", hand: 2, mano: 0 },
      { type: "Called", seat: 0, verb: "falta-envido" },
      { type: "Answered", seat: 1, verb: "no-quiero" },
      { type: "Scored", team: 0, points: 1, reason: "envido-no-quiero" },
      { type: "Called", seat: 1, verb: "truco" },
      { type: "Called", seat: 0, verb: "retruco" },
      { type: "Answered", seat: 1, verb: "no-quiero" },
      { type: "Scored", team: 0, points: 2, reason: "truco-no-quiero" },
      { type: "HandStarted", hand: 3, mano: 1 },
      { type: "TrickEnded", trick: 0, team: 0, seat: 0 },
      { type: "Scored", team: 0, points: 1, reason: "truco" },
    ];
    const state = { ...initialState(), seat: 0, table, view: makeView() };
    const text = String(logLines(state, events));
    expect(text).toContain("Nosotros +1 (falta envido no querido)");
    expect(text).toContain("Nosotros +2 (retruco no querido)");
    expect(text).not.toContain("(truco no querido)");
    expect(text).toContain("Primera: para Nosotros");
    expect(text).toContain("Nosotros +1 (la mano)");
    expect(text).not.toContain("Baza");
    expect(eventLine({ type: "TrickEnded", trick: 2, team: -1, seat: 0 }, table, 0)).toBe("Tercera: parda");
  });
  it("names tricks primera, segunda, tercera and the 1 of oro and copa anchos falsos", () => {
    expect([0, 1, 2].map((i) => trickName(i))).toEqual(["Primera", "Segunda", "Tercera"]);
    expect(cardName("1o")).toBe("Ancho falso de oro");
    expect(cardName("1c")).toBe("Ancho falso de copa");
    expect(cardName("1e")).toBe("Ancho de espada");
    expect(cardName("1b")).toBe("Ancho de basto");
    expect(cardName("1o", "en")).toBe("Ace of coins (ancho falso)");
  });
  it("says ¡Ganaste! to the winner of a 1 vs 1, and the rival's name to the loser", () => {
    const view = makeView({ phase: "over", winner: 0, score: [30, 12] });
    const state = { ...initialState(), seat: 0, view, table: makeTable(), matchOver: { winner: 0, score: [30, 12] } };
    expect(String(matchOverModal(state, "/m", false))).toContain("¡Ganaste!");
    expect(String(matchOverModal(state, "/m", false))).not.toContain("ustedes");
    const lost = { ...state, seat: 1, view: { ...view, seat: 1 } };
    expect(String(matchOverModal(lost, "/m", false))).toContain("Ganó Ana");
    const four = makeView({ phase: "over", winner: 1, score: [9, 30], options: { players: 4, target: 30, flor: false } });
    const us = { ...state, seat: 1, view: { ...four, seat: 1 }, matchOver: { winner: 1, score: [9, 30] } };
    expect(String(matchOverModal(us, "/m", false))).toContain("¡Ganamos!");
  });
  it("says why the hand went where it did, as the core's story tells it", () => {
    const table = makeTable();
    const view = makeView();
    const story = (over: Partial<HandStory>): HandStory => ({
      reason: "truco", side: 0, seats: [0], seat: null, call: null, won: [], pardas: [], mano: false, ...over,
    });
    const why = (s: HandStory, viewer: number | null = 0, v = view, tb = table) => {
      const w = handWhy(s, viewer, v, tb);
      return w && (w.who ? `${w.who}: ${w.text}` : w.text);
    };
    // 1 vs 1: the viewer won, or the rival by his name; never "Nosotros: ganó".
    expect(why(story({ won: [0, 1] }))).toBe("Ganaste primera y segunda");
    expect(why(story({ won: [0, 1] }), 1)).toBe("Ana ganó primera y segunda");
    expect(why(story({ side: 1, seats: [1], won: [0, 2] }))).toBe("Bot ganó primera y tercera");
    expect(why(story({ won: [1], pardas: [0] }))).toBe("Parda en primera, ganaste la segunda");
    expect(why(story({ won: [0], pardas: [1] }))).toBe("Ganaste la primera, parda en segunda");
    expect(why(story({ pardas: [0, 1, 2], mano: true }))).toBe("Parda en primera, segunda y tercera, ganaste por ser mano");
    // Who did it is the seat the story names, whatever the history said before the last action.
    expect(why(story({ reason: "truco-no-quiero", side: 1, seats: [1], seat: 0, call: "retruco" }))).toBe("Ana no quiso el retruco");
    expect(why(story({ reason: "mazo", side: 0, seats: [0], seat: 1 }))).toBe("Bot se fue al mazo");
    expect(why(story({ reason: "envido", side: -1, seats: [] }))).toBeNull();
    // Teams: ours, or theirs by its label.
    const four = makeView({ options: { players: 4, target: 30, flor: false }, teams: [0, 1, 0, 1] });
    expect(why(story({ seats: [0, 2], won: [0, 1] }), 0, four)).toBe("Ganamos primera y segunda");
    expect(why(story({ side: 1, seats: [1, 3], won: [0, 1] }), 0, four)).toBe("Ellos: ganaron primera y segunda");
    // Pata de gallo: Beba's side won segunda and tercera, primera was mine.
    const pata = makeTable({ seats: [
      { seat: 0, name: "Ana", kind: "human", connected: true, level: null },
      { seat: 1, name: "Beba", kind: "bot", connected: true, level: "normal" },
      { seat: 2, name: "Toto", kind: "bot", connected: true, level: "normal" },
    ] });
    const gallo = makeView({ options: { players: 3, target: 30, flor: false, variant: "pata_de_gallo" }, teams: [0, 1, 1], individual: true });
    expect(why(story({ side: 1, seats: [1, 2], won: [1, 2] }), 0, gallo, pata)).toBe("Ellos: ganaron segunda y tercera");
    setTableLang("pt");
    expect(why(story({ won: [0, 1] }))).toBe("Você ganhou primeira e segunda");
    setTableLang(null);
  });
});
