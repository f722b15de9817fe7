import { describe, expect, it } from "vitest";
import {
  type FaltaMode,
  STORAGE_KEY,
  add,
  faltaPoints,
  faltaValue,
  fromJson,
  load,
  newGame,
  quick,
  reset,
  save,
  score,
  setSides,
  status,
  toJson,
  undo,
  winner,
} from "../src/anotador";

// [target, mode, score, before, value]: generated from truco.envido.falta_value (winner side 0, loser side 1).
const FALTA_CASES: [number, FaltaMode, [number, number], number, number][] = [
  [15, "match_if_malas", [3, 7], 2, 12],
  [15, "match_if_malas", [10, 14], 2, 1],
  [15, "match_if_malas", [0, 0], 2, 15],
  [15, "match_if_malas", [13, 2], 2, 2],
  [15, "leader", [3, 7], 2, 8],
  [15, "leader", [10, 14], 2, 1],
  [15, "leader", [0, 0], 2, 15],
  [15, "leader", [13, 2], 2, 2],
  [15, "litoral", [3, 7], 2, 1],
  [15, "litoral", [10, 14], 2, 1],
  [15, "litoral", [0, 0], 2, 8],
  [15, "litoral", [13, 2], 2, 2],
  [15, "doble", [3, 7], 2, 5],
  [15, "doble", [10, 14], 2, 5],
  [15, "doble", [0, 0], 2, 8],
  [15, "doble", [13, 2], 2, 2],
  [15, "loser", [3, 7], 2, 8],
  [15, "loser", [10, 14], 2, 1],
  [15, "loser", [0, 0], 2, 15],
  [15, "loser", [13, 2], 2, 13],
  [15, "diferencia", [3, 7], 2, 5],
  [15, "diferencia", [10, 14], 2, 1],
  [15, "diferencia", [0, 0], 2, 1],
  [15, "diferencia", [13, 2], 2, 2],
  [30, "match_if_malas", [3, 7], 2, 27],
  [30, "match_if_malas", [10, 14], 2, 20],
  [30, "match_if_malas", [20, 5], 2, 10],
  [30, "match_if_malas", [5, 20], 2, 10],
  [30, "match_if_malas", [0, 0], 2, 30],
  [30, "match_if_malas", [13, 2], 2, 17],
  [30, "leader", [3, 7], 2, 23],
  [30, "leader", [10, 14], 2, 16],
  [30, "leader", [20, 5], 2, 10],
  [30, "leader", [5, 20], 2, 10],
  [30, "leader", [0, 0], 2, 30],
  [30, "leader", [13, 2], 2, 17],
  [30, "litoral", [3, 7], 2, 9],
  [30, "litoral", [10, 14], 2, 2],
  [30, "litoral", [20, 5], 2, 10],
  [30, "litoral", [5, 20], 2, 10],
  [30, "litoral", [0, 0], 2, 16],
  [30, "litoral", [13, 2], 2, 3],
  [30, "doble", [3, 7], 2, 13],
  [30, "doble", [10, 14], 2, 6],
  [30, "doble", [20, 5], 2, 10],
  [30, "doble", [5, 20], 2, 11],
  [30, "doble", [0, 0], 2, 16],
  [30, "doble", [13, 2], 2, 3],
  [30, "loser", [3, 7], 2, 23],
  [30, "loser", [10, 14], 2, 16],
  [30, "loser", [20, 5], 2, 25],
  [30, "loser", [5, 20], 2, 10],
  [30, "loser", [0, 0], 2, 30],
  [30, "loser", [13, 2], 2, 28],
  [30, "diferencia", [3, 7], 2, 5],
  [30, "diferencia", [10, 14], 2, 5],
  [30, "diferencia", [20, 5], 2, 2],
  [30, "diferencia", [5, 20], 2, 15],
  [30, "diferencia", [0, 0], 2, 1],
  [30, "diferencia", [13, 2], 2, 1],
  [24, "match_if_malas", [3, 7], 2, 21],
  [24, "match_if_malas", [10, 14], 2, 10],
  [24, "match_if_malas", [20, 5], 2, 4],
  [24, "match_if_malas", [5, 20], 2, 4],
  [24, "match_if_malas", [0, 0], 2, 24],
  [24, "match_if_malas", [13, 2], 2, 11],
  [24, "leader", [3, 7], 2, 17],
  [24, "leader", [10, 14], 2, 10],
  [24, "leader", [20, 5], 2, 4],
  [24, "leader", [5, 20], 2, 4],
  [24, "leader", [0, 0], 2, 24],
  [24, "leader", [13, 2], 2, 11],
  [24, "litoral", [3, 7], 2, 6],
  [24, "litoral", [10, 14], 2, 10],
  [24, "litoral", [20, 5], 2, 4],
  [24, "litoral", [5, 20], 2, 4],
  [24, "litoral", [0, 0], 2, 13],
  [24, "litoral", [13, 2], 2, 11],
  [24, "doble", [3, 7], 2, 10],
  [24, "doble", [10, 14], 2, 3],
  [24, "doble", [20, 5], 2, 4],
  [24, "doble", [5, 20], 2, 8],
  [24, "doble", [0, 0], 2, 13],
  [24, "doble", [13, 2], 2, 11],
  [24, "loser", [3, 7], 2, 17],
  [24, "loser", [10, 14], 2, 10],
  [24, "loser", [20, 5], 2, 19],
  [24, "loser", [5, 20], 2, 4],
  [24, "loser", [0, 0], 2, 24],
  [24, "loser", [13, 2], 2, 22],
  [24, "diferencia", [3, 7], 2, 5],
  [24, "diferencia", [10, 14], 2, 4],
  [24, "diferencia", [20, 5], 2, 2],
  [24, "diferencia", [5, 20], 2, 15],
  [24, "diferencia", [0, 0], 2, 1],
  [24, "diferencia", [13, 2], 2, 2],
  [40, "match_if_malas", [3, 7], 2, 37],
  [40, "match_if_malas", [10, 14], 2, 30],
  [40, "match_if_malas", [20, 5], 2, 20],
  [40, "match_if_malas", [5, 20], 2, 35],
  [40, "match_if_malas", [0, 0], 2, 40],
  [40, "match_if_malas", [13, 2], 2, 27],
  [40, "leader", [3, 7], 2, 33],
  [40, "leader", [10, 14], 2, 26],
  [40, "leader", [20, 5], 2, 20],
  [40, "leader", [5, 20], 2, 20],
  [40, "leader", [0, 0], 2, 40],
  [40, "leader", [13, 2], 2, 27],
  [40, "litoral", [3, 7], 2, 14],
  [40, "litoral", [10, 14], 2, 7],
  [40, "litoral", [20, 5], 2, 1],
  [40, "litoral", [5, 20], 2, 1],
  [40, "litoral", [0, 0], 2, 21],
  [40, "litoral", [13, 2], 2, 8],
  [40, "doble", [3, 7], 2, 18],
  [40, "doble", [10, 14], 2, 11],
  [40, "doble", [20, 5], 2, 1],
  [40, "doble", [5, 20], 2, 16],
  [40, "doble", [0, 0], 2, 21],
  [40, "doble", [13, 2], 2, 8],
  [40, "loser", [3, 7], 2, 33],
  [40, "loser", [10, 14], 2, 26],
  [40, "loser", [20, 5], 2, 35],
  [40, "loser", [5, 20], 2, 20],
  [40, "loser", [0, 0], 2, 40],
  [40, "loser", [13, 2], 2, 38],
  [40, "diferencia", [3, 7], 2, 5],
  [40, "diferencia", [10, 14], 2, 5],
  [40, "diferencia", [20, 5], 2, 1],
  [40, "diferencia", [5, 20], 2, 16],
  [40, "diferencia", [0, 0], 2, 1],
  [40, "diferencia", [13, 2], 2, 1],
];

function memoryStore(): Pick<Storage, "getItem" | "setItem"> & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
}

describe("anotador", () => {
  it("computes the falta as envido.py does, for every formula", () => {
    for (const [target, mode, points, before, value] of FALTA_CASES) {
      expect(faltaValue(target, mode, points, 0, 1, before), `${target} ${mode} ${points.join("-")}`).toBe(value);
    }
  });
  it("computes the falta by hand for a few cases", () => {
    // 30, both in malas (3 and 7): the match for the winner in match_if_malas.
    expect(faltaValue(30, "match_if_malas", [3, 7], 0, 1)).toBe(27);
    expect(faltaValue(30, "leader", [3, 7], 0, 1)).toBe(23);
    expect(faltaValue(30, "litoral", [3, 7], 0, 1)).toBe(9);
    expect(faltaValue(30, "doble", [3, 7], 0, 1)).toBe(13);
    expect(faltaValue(30, "loser", [3, 7], 0, 1)).toBe(23);
    expect(faltaValue(30, "diferencia", [3, 7], 0, 1)).toBe(5);
    // Never less than 1.
    expect(faltaValue(15, "leader", [14, 14], 0, 1)).toBe(1);
  });
  it("quick buttons add the usual amounts and the falta from the score and formula", () => {
    let g = newGame({ target: 30, falta: "leader" });
    g = quick(g, 0, "envido");
    g = quick(g, 1, "real envido");
    g = quick(g, 0, "truco");
    g = quick(g, 1, "retruco");
    g = quick(g, 0, "vale cuatro");
    expect(score(g)).toEqual([8, 6]);
    expect(faltaPoints(g, 1)).toBe(22);
    g = quick(g, 1, "falta envido");
    expect(g.entries.at(-1)).toEqual({ side: 1, points: 22, what: "falta envido" });
    expect(score(g)).toEqual([8, 28]);
  });
  it("keeps the score between 0 and the target and tells the winner", () => {
    let g = newGame({ target: 15 });
    g = add(g, 0, -1);
    expect(score(g)).toEqual([0, 0]);
    g = add(g, 1, 20);
    expect(score(g)).toEqual([0, 15]);
    expect(winner(g)).toBe(1);
    expect(() => add(g, 2, 1)).toThrow();
    expect(() => add(g, 0, 0)).toThrow();
  });
  it("shows malas and buenas at every target", () => {
    let g = newGame({ target: 30 });
    g = add(g, 0, 15);
    g = add(g, 1, 17);
    expect(status(g, 0)).toEqual({ kind: "malas", n: 15 });
    expect(status(g, 1)).toEqual({ kind: "buenas", n: 2 });
    expect(status(newGame({ target: 15 }), 0)).toEqual({ kind: "malas", n: 0 });
    expect(status(add(newGame({ target: 10 }), 1, 6), 1)).toEqual({ kind: "buenas", n: 1 });
  });
  it("undoes the last change, one at a time", () => {
    let g = newGame();
    expect(undo(g)).toBe(g);
    g = quick(g, 0, "envido");
    g = quick(g, 1, "truco");
    g = undo(g);
    expect(score(g)).toEqual([2, 0]);
    g = undo(g);
    expect(g.entries).toEqual([]);
    expect(reset(quick(g, 0, "truco")).entries).toEqual([]);
  });
  it("plays with three sides and takes the leading rival for the falta", () => {
    let g = newGame({ names: ["A", "B", "C"], target: 30, falta: "loser" });
    g = add(g, 1, 4);
    g = add(g, 2, 9);
    expect(faltaPoints(g, 0)).toBe(21);
    expect(faltaPoints(g, 0, 1)).toBe(26);
    g = add(setSides(g, 2), 0, 1);
    expect(g.names).toEqual(["A", "B"]);
    expect(score(g)).toEqual([1, 4]);
  });
  it("survives a round trip through storage in anotador.py's JSON form", () => {
    const store = memoryStore();
    expect(load(store)).toBeNull();
    let g = newGame({ names: ["Nosotros", "Ellos"], target: 24, falta: "doble" });
    g = quick(g, 0, "envido");
    g = add(g, 1, -1, "");
    save(g, store);
    expect(JSON.parse(store.data.get(STORAGE_KEY) ?? "")).toEqual({
      format: 1,
      names: ["Nosotros", "Ellos"],
      target: 24,
      falta: "doble",
      entries: [
        [0, 2, "envido"],
        [1, -1, ""],
      ],
    });
    expect(load(store)).toEqual(g);
    expect(fromJson(toJson(g))).toEqual(g);
  });
  it("ignores a saved game that is not one", () => {
    const store = memoryStore();
    for (const bad of ["{", "[]", '{"names":["a"],"target":30,"entries":[]}', '{"names":["a","b"],"target":31,"entries":[]}']) {
      store.setItem(STORAGE_KEY, bad);
      expect(load(store), bad).toBeNull();
    }
  });
});
