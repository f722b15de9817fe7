// The replay page's logic: its addresses, where a step forward or back goes, the keys, and what
// it draws of a frame (every card face up in a finished match; the viewer's own mid-match).

import { afterEach, describe, expect, it } from "vitest";
import { html, NOTHING } from "../src/html";
import { setLang } from "../src/i18n";
import {
  type ReplayHand,
  type ReplayHandLine,
  type ReplayMatch,
  clampPosition,
  keyMove,
  move,
  parseReplayPath,
  replayBody,
  replayPath,
  stepLabel,
} from "../src/replayView";
import { makeView } from "./fixtures";

afterEach(() => setLang("es"));

const line = (hand: number, steps: number): ReplayHandLine => ({
  hand,
  mano: (hand + 1) % 2,
  score_before: [hand - 1, 0],
  score_after: [hand, 0],
  points: [1, 0],
  steps,
});
const HANDS = [line(1, 3), line(2, 1), line(3, 5)];

export function makeMatch(over: Partial<ReplayMatch> = {}): ReplayMatch {
  return {
    table: "abc",
    match: 1,
    matches: 1,
    status: "over",
    options: { players: 2, target: 30, flor: false },
    seats: [
      { seat: 0, name: "Ana", kind: "human", connected: false, level: null },
      { seat: 1, name: "Coca", kind: "bot", connected: true, level: "facil" },
    ],
    seat: null,
    reveal: true,
    hands: HANDS,
    ...over,
  };
}

export function makeHand(seat: number | null, names: string[] = ["Ana", "Coca"]): ReplayHand {
  const open = seat === null;
  const view = (history: [number, string][], cards: string[][]) =>
    makeView({
      seat,
      hand: 1,
      phase: "play",
      legal: [],
      cards: seat === null ? [] : (cards[seat] ?? []),
      tricks: [],
      plays: history.length > 1 ? [[0, "1e", false], [1, open ? "7o" : null, true]] : history.length ? [[0, "1e", false]] : [],
      history,
      open_hands: open ? cards : [],
      declared: [],
    });
  return {
    table: "abc",
    match: 1,
    hand: 1,
    seat,
    reveal: open,
    frames: [
      { step: 0, seat: null, action: null, events: [], view: view([], [["1e", "4c", "5o"], ["7o", "6c", "12b"]]) },
      {
        step: 1,
        seat: 0,
        action: "play 1e",
        events: [{ type: "CardPlayed", seat: 0, card: "1e", face_down: false }],
        view: view([[0, "play 1e"]], [["4c", "5o"], ["7o", "6c", "12b"]]),
      },
      {
        step: 2,
        seat: 1,
        action: open ? "tapada 7o" : "tapada ??",
        events: [
          { type: "CardPlayed", seat: 1, card: null, face_down: true },
          { type: "TrickEnded", trick: 0, team: 0, seat: 0 },
          { type: "Scored", team: 0, points: 1, reason: names[1] ?? "truco" },
        ],
        view: view([[0, "play 1e"], [1, open ? "tapada 7o" : "tapada ??"]], [["4c", "5o"], ["6c", "12b"]]),
      },
      { step: 3, seat: 0, action: "mazo", events: [{ type: "WentToMazo", seat: 0 }], view: view([], [["4c", "5o"], ["6c", "12b"]]) },
    ],
  };
}

describe("the replay's addresses", () => {
  it("reads /r/ID and /r/ID/HAND/STEP, and nothing else", () => {
    expect(parseReplayPath("/r/abc")).toEqual({ id: "abc", pos: null, match: null });
    expect(parseReplayPath("/r/abc/")).toEqual({ id: "abc", pos: null, match: null });
    expect(parseReplayPath("/r/abc/3/12")).toEqual({ id: "abc", pos: { hand: 3, step: 12 }, match: null });
    expect(parseReplayPath("/r/a%20b/1/0")).toEqual({ id: "a b", pos: { hand: 1, step: 0 }, match: null });
    expect(parseReplayPath("/r/abc/3/12", "?match=2")).toEqual({ id: "abc", pos: { hand: 3, step: 12 }, match: 2 });
    for (const odd of ["?match=0", "?match=x", "?match=-1", "?match=1e3", "?other=2"]) {
      expect(parseReplayPath("/r/abc", odd)?.match, odd).toBeNull();
    }
    for (const other of ["/t/abc", "/r/", "/r/abc/1", "/r/abc/x/1", "/r/abc/1/2/3", "/r/%E0%A4%A/1/0", "/anotador"]) {
      expect(parseReplayPath(other), other).toBeNull();
    }
  });
  it("writes the address of a moment, which reads back", () => {
    expect(replayPath("a b", { hand: 2, step: 5 })).toBe("/r/a%20b/2/5");
    expect(replayPath("a b", { hand: 2, step: 5 }, 3)).toBe("/r/a%20b/2/5?match=3");
    expect(parseReplayPath(replayPath("x/y", { hand: 2, step: 5 }))).toEqual({ id: "x/y", pos: { hand: 2, step: 5 }, match: null });
    const [path, search] = replayPath("x", { hand: 1, step: 2 }, 4).split("?");
    expect(parseReplayPath(path!, `?${search}`)).toEqual({ id: "x", pos: { hand: 1, step: 2 }, match: 4 });
  });
});

describe("moving through the match", () => {
  it("keeps a position within the match", () => {
    expect(clampPosition(HANDS, null)).toEqual({ hand: 1, step: 0 });
    expect(clampPosition(HANDS, { hand: 9, step: 9 })).toEqual({ hand: 3, step: 5 });
    expect(clampPosition(HANDS, { hand: 2, step: 4 })).toEqual({ hand: 2, step: 1 });
    expect(clampPosition(HANDS, { hand: 0, step: -1 })).toEqual({ hand: 1, step: 0 });
    expect(clampPosition([], { hand: 4, step: 4 })).toEqual({ hand: 1, step: 0 });
  });
  it("steps forward into the next hand and back into the last one", () => {
    expect(move(HANDS, { hand: 1, step: 0 }, "next")).toEqual({ hand: 1, step: 1 });
    expect(move(HANDS, { hand: 1, step: 3 }, "next")).toEqual({ hand: 2, step: 0 });
    expect(move(HANDS, { hand: 3, step: 5 }, "next")).toEqual({ hand: 3, step: 5 });
    expect(move(HANDS, { hand: 2, step: 0 }, "prev")).toEqual({ hand: 1, step: 3 });
    expect(move(HANDS, { hand: 1, step: 0 }, "prev")).toEqual({ hand: 1, step: 0 });
    expect(move(HANDS, { hand: 3, step: 2 }, "first")).toEqual({ hand: 3, step: 0 });
    expect(move(HANDS, { hand: 3, step: 2 }, "last")).toEqual({ hand: 3, step: 5 });
    expect(move(HANDS, { hand: 1, step: 2 }, "next-hand")).toEqual({ hand: 2, step: 0 });
    expect(move(HANDS, { hand: 3, step: 2 }, "next-hand")).toEqual({ hand: 3, step: 0 });
    expect(move(HANDS, { hand: 2, step: 1 }, "prev-hand")).toEqual({ hand: 1, step: 0 });
  });
  it("every step forward can be taken back", () => {
    let pos = { hand: 1, step: 0 };
    const seen = [pos];
    for (let i = 0; i < 20; i++) seen.push((pos = move(HANDS, pos, "next")));
    expect(seen.filter((p, i) => i === 0 || p !== seen[i - 1]).length).toBeGreaterThan(9);
    for (let i = seen.length - 1; i > 0; i--) {
      if (seen[i]!.hand === seen[i - 1]!.hand && seen[i]!.step === seen[i - 1]!.step) continue;
      expect(move(HANDS, seen[i]!, "prev")).toEqual(seen[i - 1]);
    }
  });
  it("the arrows, Home, End and the page keys move; other keys do not", () => {
    expect(keyMove("ArrowRight")).toBe("next");
    expect(keyMove("ArrowLeft")).toBe("prev");
    expect(keyMove("Home")).toBe("first");
    expect(keyMove("End")).toBe("last");
    expect(keyMove("PageDown")).toBe("next-hand");
    expect(keyMove("PageUp")).toBe("prev-hand");
    expect(keyMove("1")).toBeNull();
    expect(keyMove("Enter")).toBeNull();
  });
});

describe("what the page draws", () => {
  it("says a revealed tapada's card, and a hidden one as a tapada", () => {
    expect(stepLabel("tapada 7o")).toBe("juega una tapada (7 de oro)");
    expect(stepLabel("tapada ??")).toBe("juega una tapada");
    expect(stepLabel("play 1e")).toBe("juega Ancho de espada");
    expect(stepLabel("retruco")).toBe("Retruco");
  });
  it("a finished match: every seat's cards face up, the tapada too, the step marked", () => {
    const markup = String(replayBody(makeMatch(), makeHand(null), { hand: 1, step: 2 }, "http://x"));
    const open = markup.match(/<div class="open-hand">.*?<\/div>/g) ?? [];
    expect(open.length).toBe(2);
    expect(open[1]).toContain('data-card="6c"');
    expect(open[1]).toContain('data-card="12b"');
    // The rival's tapada shows its face, marked as a tapada.
    expect(markup).toMatch(/class="played won face-down"[^>]*><svg class="card card-o" data-card="7o"/);
    expect(markup).toMatch(/class="replay-step current" data-step="2" aria-current="step"/);
    expect(markup).toContain("Primera");
    expect(markup).toContain('value="http://x/r/abc/1/2"');
    expect(markup).toContain("Mano 1 · jugada 2 de 3");
  });
  it("mid-match: the viewer's own cards only, the rival's as backs", () => {
    const match = makeMatch({ status: "playing", seat: 0, reveal: false });
    const markup = String(replayBody(match, makeHand(0), { hand: 1, step: 2 }, "http://x"));
    expect(markup).not.toContain('class="open-hand"');
    expect(markup).toContain("Tus cartas");
    for (const hidden of ["6c", "12b", "7o"]) expect(markup).not.toContain(`data-card="${hidden}"`);
    expect(markup).toContain('data-card="4c"');
    expect(markup).toContain("mini-back");
  });
  it("the ends of the match disable the way out of it", () => {
    const first = String(replayBody(makeMatch(), makeHand(null), { hand: 1, step: 0 }, ""));
    expect(first).toMatch(/data-replay="prev" disabled/);
    expect(first).toMatch(/data-replay="first"[^>]*disabled/);
    const end = String(replayBody(makeMatch({ hands: [line(1, 3)] }), makeHand(null), { hand: 1, step: 3 }, ""));
    expect(end).toMatch(/data-replay="next" class="primary" disabled/);
  });
  it("an earlier match of the table: its number in every address, links to the others", () => {
    const match = makeMatch({ match: 1, matches: 3 });
    const markup = String(replayBody(match, makeHand(null), { hand: 1, step: 2 }, "http://x"));
    expect(markup).toContain('value="http://x/r/abc/1/2?match=1"');
    expect(markup).toContain('href="/r/abc/2/0?match=1"');
    expect(markup).toContain('<b aria-current="true">Partido 1</b>');
    expect(markup).toContain('href="/r/abc?match=3"');
    // The current match is linked as asked: without a number unless one was in the address.
    const current = makeMatch({ match: 3, matches: 3 });
    expect(String(replayBody(current, makeHand(null), { hand: 1, step: 0 }, "http://x"))).toContain('value="http://x/r/abc/1/0"');
    expect(String(replayBody(current, makeHand(null), { hand: 1, step: 0 }, "http://x", [], null, 3))).toContain(
      'value="http://x/r/abc/1/0?match=3"',
    );
  });
  it("a problem or no finished hand is said in words", () => {
    expect(String(replayBody(null, null, { hand: 1, step: 0 }, "", [], "nope"))).toContain("nope");
    expect(String(replayBody(makeMatch({ hands: [] }), null, { hand: 1, step: 0 }, ""))).toContain("Todavía no terminó ninguna mano.");
  });
  it("draws what overlays add, per step and beside each play", () => {
    const markup = String(
      replayBody(makeMatch(), makeHand(null), { hand: 1, step: 1 }, "", [
        { panel: (ctx) => html`<p>step ${ctx.pos.step}</p>`, mark: (_ctx, step) => (step === 2 ? html`<i>?!</i>` : NOTHING) },
      ]),
    );
    expect(markup).toContain("step 1");
    expect(markup).toMatch(/data-replay-step="2">.*?<\/button><i>\?!<\/i>/);
    expect(markup.match(/\?!/g)?.length).toBe(1);
  });
});
