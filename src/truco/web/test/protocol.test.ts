import { describe, expect, it } from "vitest";
import {
  askPista,
  chatMessage,
  encodeClientMessage,
  initialState,
  lastWords,
  nextActionId,
  parseServerMessage,
  playedBySeat,
  reduce,
  startAction,
  type GameState,
} from "../src/protocol";
import type { ServerMessage } from "../src/types";
import { handAndActions } from "../src/render";
import { makeTable, makeView } from "./fixtures";

function full(v: number, over = {}): ServerMessage {
  return { t: "full", d: { v, seat: 0, view: makeView(over), table: makeTable() } };
}

function fold(state: GameState, ...msgs: ServerMessage[]) {
  let s = state;
  const effects = [];
  for (const m of msgs) {
    const r = reduce(s, m, 1000);
    s = r.state;
    effects.push(...r.effects);
  }
  return { state: s, effects };
}

describe("parseServerMessage", () => {
  it("accepts every server type of the protocol", () => {
    for (const raw of [
      '{"t":"full","d":{"v":1,"seat":0,"view":{},"table":{}}}',
      '{"t":"ev","d":{"v":2,"events":[],"view":{}}}',
      '{"t":"ack","d":{"a":3,"v":2}}',
      '{"t":"err","d":{"code":"stale_version","message":"x"}}',
      '{"t":"chat","d":{"seat":1,"name":"B","text":"hola","at":1}}',
      '{"t":"sena","d":{"seat":2,"sena":"tres"}}',
      '{"t":"table","d":{"seats":[]}}',
      '{"t":"pong","d":{}}',
      '{"t":"pista","d":{"v":3,"action":"quiero"}}',
    ]) {
      expect(parseServerMessage(raw), raw).not.toBeNull();
    }
  });
  it("rejects garbage, unknown types and missing fields", () => {
    for (const raw of ["", "nope", "[]", '{"t":"boom","d":{}}', '{"t":"ev","d":{"v":1}}', '{"t":"ack","d":{}}', '{"t":"full","d":5}']) {
      expect(parseServerMessage(raw), raw).toBeNull();
    }
  });
});

describe("reduce", () => {
  it("takes a full view and table", () => {
    const { state } = fold(initialState(), full(10));
    expect(state.v).toBe(10);
    expect(state.seat).toBe(0);
    expect(state.view?.cards).toEqual(["1e", "4c"]);
    expect(state.table?.table).toBe("abc");
  });

  it("applies the next ev and ignores an old one", () => {
    const s0 = fold(initialState(), full(10)).state;
    const ev: ServerMessage = {
      t: "ev",
      d: { v: 11, events: [{ type: "CardPlayed", seat: 0, card: "1e", face_down: false }], view: makeView({ cards: ["4c"] }) },
    };
    const { state, effects } = fold(s0, ev);
    expect(state.v).toBe(11);
    expect(state.view?.cards).toEqual(["4c"]);
    expect(state.log.at(-1)).toMatchObject({ type: "CardPlayed" });
    expect(effects).toEqual([]);
    const again = fold(state, ev);
    expect(again.state).toBe(state);
  });

  it("asks for a resync on a gap and does not apply it", () => {
    const s0 = fold(initialState(), full(10)).state;
    const { state, effects } = fold(s0, { t: "ev", d: { v: 13, events: [], view: makeView() } });
    expect(effects).toEqual([{ kind: "resync" }]);
    expect(state.v).toBe(10);
  });

  it("tracks a pending action until its ack", () => {
    const s0 = fold(initialState(), full(10)).state;
    const started = startAction(s0, "play 1e", 77);
    expect(started?.msg).toEqual({ t: "act", d: { a: 77, v: 10, action: "play 1e" } });
    expect(startAction(started!.state, "mazo", 78)).toBeNull(); // one at a time
    const { state } = fold(started!.state, { t: "ack", d: { a: 77, v: 11 } });
    expect(state.pending).toBeNull();
  });

  it("takes the version its action made, carrying its a, as the ack", () => {
    const s0 = fold(initialState(), full(10)).state;
    const started = startAction(s0, "play 1e", 77)!.state;
    const other = fold(started, { t: "ev", d: { v: 11, events: [], view: makeView(), a: 76 } }).state;
    expect(other.pending?.a).toBe(77); // another action's a acknowledges nothing of ours
    const { state } = fold(started, { t: "ev", d: { v: 11, events: [], view: makeView(), a: 77 } });
    expect(state.pending).toBeNull();
    expect(state.v).toBe(11);
    expect(parseServerMessage('{"t":"ev","d":{"v":1,"events":[],"view":{},"a":"x"}}')).toBeNull();
  });

  it("refuses to start an action that is not legal, or as a spectator", () => {
    const s0 = fold(initialState(), full(10)).state;
    expect(startAction(s0, "truco", 1)).toBeNull();
    const spectator = fold(initialState(), { t: "full", d: { v: 3, seat: null, view: makeView({ seat: null, legal: [] }), table: makeTable() } }).state;
    expect(startAction(spectator, "play 1e", 1)).toBeNull();
  });

  it("drops the pending action on its error, and resyncs on stale_version", () => {
    const s0 = fold(initialState(), full(10)).state;
    const s1 = startAction(s0, "play 1e", 5)!.state;
    const { state, effects } = fold(s1, { t: "err", d: { code: "stale_version", message: "old", a: 5 } });
    expect(state.pending).toBeNull();
    expect(state.error?.code).toBe("stale_version");
    expect(effects).toEqual([{ kind: "resync" }]);
    const other = fold(s1, { t: "err", d: { code: "rate_limited", message: "slow" } });
    expect(other.state.pending).not.toBeNull();
    expect(other.effects).toEqual([]);
  });

  it("resends a pending action after a full at the same version, with the same a", () => {
    const s0 = fold(initialState(), full(10)).state;
    const s1 = startAction(s0, "play 1e", 9)!.state;
    const again = fold(s1, full(10));
    expect(again.effects).toEqual([{ kind: "send", msg: { t: "act", d: { a: 9, v: 10, action: "play 1e" } } }]);
    const moved = fold(s1, full(12));
    expect(moved.effects).toEqual([]);
    expect(moved.state.pending).toBeNull();
  });

  it("builds a hand summary from HandEnded and keeps the shown cards", () => {
    const s0 = fold(initialState(), full(10)).state;
    const { state } = fold(s0, {
      t: "ev",
      d: {
        v: 11,
        events: [
          { type: "CardPlayed", seat: 0, card: "1e", face_down: false },
          { type: "TrickEnded", trick: 1, team: 0, seat: 0 },
          { type: "Scored", team: 1, points: 2, reason: "truco" },
          { type: "CardsShown", seat: 1, cards: ["7o", "5o"] },
          { type: "HandEnded", points: [0, 4], winner: 1 },
        ],
        view: makeView({ phase: "deal", score: [3, 9], legal: [] }),
      },
    });
    expect(state.summary).toMatchObject({ hand: 4, points: [0, 4], winner: 1, score: [3, 9] });
    expect(state.summary?.shown).toEqual([[1, ["7o", "5o"]]]);
    expect(state.summary?.scored).toEqual([{ team: 1, points: 2, reason: "truco" }]);
    expect(state.summary?.tricks.length).toBe(1);
  });

  it("notes the end of the match, from events and from a full view", () => {
    const s0 = fold(initialState(), full(10)).state;
    const { state } = fold(s0, {
      t: "ev",
      d: { v: 11, events: [{ type: "MatchEnded", winner: 1, score: [20, 30] }], view: makeView({ phase: "over", winner: 1 }) },
    });
    expect(state.matchOver).toEqual({ winner: 1, score: [20, 30] });
    const f = fold(initialState(), full(3, { phase: "over", winner: 0, score: [30, 2] })).state;
    expect(f.matchOver).toEqual({ winner: 0, score: [30, 2] });
  });

  it("keeps chat, señas and seat changes", () => {
    let s = fold(initialState(), full(1)).state;
    s = fold(s, { t: "chat", d: { seat: 1, name: "Beto", text: "¡truco!", at: 5 } }).state;
    s = fold(s, { t: "sena", d: { seat: 2, sena: "ancho-espada" } }).state;
    s = fold(s, { t: "table", d: makeTable({ status: "over" }) }).state;
    expect(s.chat.map((c) => c.text)).toEqual(["¡truco!"]);
    expect(s.senas).toEqual([{ seat: 2, sena: "ancho-espada", at: 1000 }]);
    expect(s.table?.status).toBe("over");
  });
});

describe("pista", () => {
  it("keeps the expert's choice for the version on screen and ignores an older one", () => {
    const start = fold(initialState(), full(10)).state;
    const stale = fold(start, { t: "pista", d: { v: 9, action: "mazo" } }).state;
    expect(stale.pista).toBeNull();
    const notLegal = fold(start, { t: "pista", d: { v: 10, action: "vale-cuatro" } }).state;
    expect(notLegal.pista).toBeNull();
    const fresh = fold(start, { t: "pista", d: { v: 10, action: "mazo" } }).state;
    expect(fresh.pista).toEqual({ v: 10, action: "mazo" });
  });
  it("shows it is thinking from the ask to the answer, one ask a decision", () => {
    const start = fold(initialState(), full(10)).state;
    const asked = askPista(start);
    expect(asked?.msg).toEqual({ t: "pista", d: {} });
    expect(asked?.state.pistaAsked).toBe(10);
    expect(askPista(asked!.state)).toBeNull(); // asked already for this decision
    const answered = fold(asked!.state, { t: "pista", d: { v: 10, action: "mazo" } }).state;
    expect(answered.pistaAsked).toBeNull();
    expect(askPista(answered)).toBeNull(); // answered: the decision has its pista
    const refused = fold(asked!.state, { t: "err", d: { code: "pista_unavailable", message: "" } }).state;
    expect(refused.pistaAsked).toBeNull();
    expect(askPista(refused)).not.toBeNull();
    // The button says so while the expert thinks, and is pressed once a decision.
    const table = { ...makeTable(), pista: true };
    const mine = { ...asked!.state, seat: 0, table };
    const button = (g: GameState) => String(handAndActions(g, false)).match(/<button class="act pista[^>]*>[^<]*</)?.[0] ?? "";
    expect(button(mine)).toContain("Pensando…");
    expect(button(mine)).toContain('aria-busy="true"');
    expect(button(mine)).toContain("disabled");
    expect(button({ ...refused, seat: 0, table })).toContain(">Pista<");
    expect(button({ ...refused, seat: 0, table })).not.toContain("disabled");
  });
  it("rejects a pista without its version or action", () => {
    for (const raw of ['{"t":"pista","d":{"action":"mazo"}}', '{"t":"pista","d":{"v":1}}']) {
      expect(parseServerMessage(raw), raw).toBeNull();
    }
  });
});

describe("client messages", () => {
  it("trims chat and caps it at 300 characters", () => {
    expect(chatMessage("   ")).toBeNull();
    const m = chatMessage(" hola ".repeat(100));
    expect(m?.t).toBe("chat");
    if (m?.t === "chat") expect(m.d.text.length).toBe(300);
  });
  it("refuses a message over 8 KiB", () => {
    expect(encodeClientMessage({ t: "ping", d: {} })).toBe('{"t":"ping","d":{}}');
    expect(encodeClientMessage({ t: "chat", d: { text: "ñ".repeat(5000) } })).toBeNull();
  });
  it("never reuses an action counter", () => {
    expect(nextActionId(5, 3)).toBe(6);
    expect(nextActionId(5, 1e12)).toBe(1e12);
  });
});

describe("view helpers", () => {
  it("groups the played cards by seat and trick", () => {
    const m = playedBySeat(makeView({ plays: [[1, null, true]] }));
    expect(m.get(0)).toEqual([{ card: [0, "3b", false], trick: 0 }]);
    expect(m.get(1)?.map((x) => x.trick)).toEqual([0, 1]);
  });
  it("knows the last call of each seat", () => {
    const w = lastWords(makeView());
    expect(w.get(1)).toBe("envido");
    expect(w.get(0)).toBe("quiero");
  });
});
