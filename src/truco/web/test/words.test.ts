import { afterEach, describe, expect, it } from "vitest";
import { cardName, setLang, trickName } from "../src/i18n";
import { type HandSummary, initialState } from "../src/protocol";
import { eventLine, logLines, matchOverModal } from "../src/render";
import type { GameEvent } from "../src/types";
import { handWhy, scoredReason } from "../src/words";
import { makeTable, makeView } from "./fixtures";

afterEach(() => setLang("es"));

function summary(over: Partial<HandSummary>): HandSummary {
  return {
    hand: 3,
    points: [1, 0],
    winner: 0,
    score: [5, 4],
    scored: [{ team: 0, points: 1, reason: "truco" }],
    passed: [],
    declared: [],
    shown: [],
    tricks: [],
    results: [0, 0],
    history: [],
    view: makeView(),
    ...over,
  };
}

describe("the words of the table", () => {
  it("says +1 la mano where nobody called truco, and names a declined raise", () => {
    expect(scoredReason("truco", [])).toBe("la mano");
    expect(scoredReason("truco", ["envido"])).toBe("la mano");
    expect(scoredReason("truco", ["truco", "retruco"])).toBe("retruco");
    expect(scoredReason("truco-no-quiero", ["truco", "retruco"])).toBe("retruco no querido");
    expect(scoredReason("truco-no-quiero", ["truco", "retruco", "vale-cuatro"])).toBe("vale cuatro no querido");
    expect(scoredReason("envido-no-quiero", ["envido", "falta-envido", "truco"])).toBe("falta envido no querido");
    expect(scoredReason("mazo", [])).toBe("al mazo");
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
  it("says why the hand went where it did", () => {
    const table = makeTable();
    expect(handWhy(summary({ results: [0, 1, 0] }), table)).toBe("ganó primera y tercera");
    expect(handWhy(summary({ results: [-1, 0] }), table)).toBe("parda en primera, ganó la segunda");
    expect(handWhy(summary({ results: [0, -1] }), table)).toBe("ganó la primera, parda en segunda");
    expect(handWhy(summary({ results: [-1, -1, -1] }), table)).toBe("parda en primera, segunda y tercera, ganó por ser mano");
    const four = makeView({ options: { players: 4, target: 30, flor: false } });
    expect(handWhy(summary({ results: [0, 0], view: four }), table)).toBe("ganaron primera y segunda");
    const mazo = summary({ scored: [{ team: 0, points: 1, reason: "mazo" }], history: [[1, "play 4c"], [1, "mazo"]] });
    expect(handWhy(mazo, table)).toBe("Bot se fue al mazo");
    const declined = summary({
      scored: [{ team: 0, points: 2, reason: "truco-no-quiero" }],
      history: [[1, "truco"], [0, "retruco"], [1, "no-quiero"]],
    });
    expect(handWhy(declined, table)).toBe("Bot no quiso el retruco");
  });
});
