import { describe, expect, it } from "vitest";
import { initialState, type GameState } from "../src/protocol";
import { html } from "../src/html";
import { board, downloadsMenu, handAndActions, scoreboard, seatPosition, seatsPanel, senasPanel } from "../src/render";
import { makeTable, makeView } from "./fixtures";
import type { View } from "../src/types";

function game(view: Partial<View> = {}, seat: number | null = 0): GameState {
  return { ...initialState(), v: 10, seat, view: makeView({ seat, ...view }), table: makeTable() };
}

const acts = (html: string) => [...html.matchAll(/data-act="([^"]+)"/g)].map((m) => m[1]);

describe("render", () => {
  it("offers exactly the legal actions: cards to play and call buttons", () => {
    const html = String(handAndActions(game(), false));
    expect(acts(html).sort()).toEqual(["mazo", "play 1e", "play 4c", "retruco"]);
  });
  it("offers nothing while an action waits for its ack, and nothing to a spectator", () => {
    const g = { ...game(), pending: { a: 1, v: 10, action: "mazo" } };
    expect(acts(String(handAndActions(g, false)))).toEqual([]);
    expect(acts(String(handAndActions(game({ legal: [] }, null), false)))).toEqual([]);
  });
  it("plays face down in tapada mode", () => {
    const g = game({ legal: ["play 1e", "play 4c", "tapada 1e", "tapada 4c"] });
    expect(acts(String(handAndActions(g, false))).sort()).toEqual(["play 1e", "play 4c"]);
    expect(acts(String(handAndActions(g, true))).sort()).toEqual(["tapada 1e", "tapada 4c"]);
    expect(String(handAndActions(g, false))).toContain('data-cmd="tapada"');
  });
  it("a blind mão de ferro: the first face-down card plays 'cega', which names no card and is no call button", () => {
    const options = { players: 2, target: 12, flor: false, variant: "paulista", game: "paulista" } as View["options"];
    const g = game({ options, game: "paulista", ferro: true, blind: true, cards: [], hand_sizes: [3, 3], legal: ["cega"] });
    const out = String(handAndActions(g, false));
    expect(acts(out)).toEqual(["cega"]);
    expect(out.match(/my-card blind/g)?.length).toBe(3);
    expect(out).not.toContain("act-cega");
  });
  it("draws the call the view says is awaited, by its caller", () => {
    const none = String(board(game(), { senas: [], now: 0, turnLeft: null }));
    expect(none).not.toContain("waiting-call");
    const awaited = { verb: "retruco", caller: 1, responder: 0, value: 3 };
    const out = String(board(game({ truco_call: [3, 1, 0], awaited }), { senas: [], now: 0, turnLeft: null }));
    expect(out).toMatch(/class="waiting-call">[^<]*Bot[^<]*retruco/i);
  });
  it("marks the side the view puts at the mão de onze, and its tento", () => {
    const options = { players: 2, target: 12, flor: false, variant: "paulista", game: "paulista" } as View["options"];
    const view = makeView({ options, game: "paulista", score: [11, 4], onze_at: 11, at_onze: [true, false] });
    const out = String(scoreboard(view, 0));
    expect(out.match(/at-onze/g)).toHaveLength(1);
    expect(out.match(/class="tento won onze"/g)).toHaveLength(1);
    expect(String(scoreboard({ ...view, at_onze: [false, false] }, 0))).not.toContain("at-onze");
  });
  it("offers the Pista only on the seat's turn at a table that allows it", () => {
    const allowed = { ...game(), table: makeTable({ pista: true }) };
    expect(String(handAndActions(allowed, false))).toContain('data-cmd="pista"');
    expect(String(handAndActions(game(), false))).not.toContain('data-cmd="pista"');
    expect(String(handAndActions({ ...allowed, view: makeView({ to_act: 1 }) }, false))).not.toContain('data-cmd="pista"');
  });
  it("highlights the suggested action and says it, only for the version on screen", () => {
    const allowed = { ...game(), table: makeTable({ pista: true }) };
    const shown = String(handAndActions({ ...allowed, pista: { v: 10, action: "retruco" } }, false));
    expect(shown).toContain("act act-retruco suggested");
    expect(shown).toContain("Pista: ");
    expect(shown.match(/suggested/g)).toHaveLength(1);
    const card = String(handAndActions({ ...allowed, pista: { v: 10, action: "play 4c" } }, false));
    expect(card).toMatch(/my-card playable suggested"\s+data-act="play 4c"/);
    const old = String(handAndActions({ ...allowed, pista: { v: 9, action: "retruco" } }, false));
    expect(old).not.toContain("suggested");
    expect(old).not.toContain("Pista: ");
  });
  it("marks el envido está primero", () => {
    const g = game({ truco_call: [2, 1, 0], legal: ["quiero", "no-quiero", "retruco", "envido", "mazo"] });
    const html = String(handAndActions(g, false));
    expect(html).toContain("El envido está primero");
    expect(html).toContain("act-envido primero");
  });
  it("draws every seat, the played cards, declarations and son buenas", () => {
    const html = String(board(game(), { senas: [], now: 0, turnLeft: null }));
    expect(html.match(/class="seat /g)).toHaveLength(2);
    expect(html).toContain('data-card="7o"');
    expect(html).toContain('data-card="3b"');
    expect(html).toContain(">27<");
    expect(html).toContain("Son buenas");
  });
  it("never draws a hidden card's face", () => {
    const html = String(board(game({ plays: [[1, null, true]] }), { senas: [], now: 0, turnLeft: null }));
    expect(html).toContain("card-back");
  });
  it("puts the viewer at the bottom", () => {
    expect(seatPosition(0, 4)).toEqual([50, 90]);
    expect(seatPosition(2, 4)).toEqual([50, 10]);
    const html = String(board(game({}, 1), { senas: [], now: 0, turnLeft: null }));
    // The place is in styles.css (no style="" under the Content-Security-Policy; markup.test.ts).
    expect(html).toMatch(/rel-0 me" data-seat="1"/);
  });
  it("scores with fósforos, our team first", () => {
    const html = String(scoreboard(makeView({ score: [3, 16] }), 1));
    expect(html.indexOf("Nosotros")).toBeLessThan(html.indexOf("Ellos"));
    expect(html).toContain("buenas");
  });
  it("shows señas only at team tables", () => {
    expect(String(senasPanel(game()))).toBe("");
    const g = game({ options: { players: 4, target: 30, flor: false }, hand_sizes: [3, 3, 3, 3] });
    expect(String(senasPanel(g)).match(/data-sena=/g)).toHaveLength(10);
    expect(String(senasPanel({ ...g, seat: null }))).toBe("");
  });
  it("lets the creator fill an empty seat with a bot", () => {
    const t = makeTable({ status: "waiting", seats: [
      { seat: 0, name: "Ana", kind: "human", connected: true, level: null },
      { seat: 1, name: null, kind: "empty", connected: false, level: null },
    ] });
    expect(String(seatsPanel(t, 0, false))).toContain('data-cmd="bot" data-seat="1"');
    expect(String(seatsPanel(t, null, true))).toContain('data-cmd="join" data-seat="1"');
    expect(String(seatsPanel(t, null, true))).not.toContain('data-cmd="bot"');
  });
  it("links the finished hands and the match", () => {
    const html = String(downloadsMenu("abc", makeView({ hand: 3 }), (n) => `/h/${n}`, "/m"));
    expect(html).toContain('href="/h/1"');
    expect(html).toContain('href="/h/2"');
    expect(html).not.toContain('href="/h/3"');
    expect(String(downloadsMenu("abc", makeView({ hand: 1 }), (n) => `/h/${n}`, "/m"))).toBe("");
  });
  it("escapes names", () => {
    expect(String(html`<b>${'<img src=x onerror="a">'}</b>`)).toBe("<b>&lt;img src=x onerror=&quot;a&quot;&gt;</b>");
    const g = { ...game(), table: makeTable({ seats: [
      { seat: 0, name: "<b>Ana</b>", kind: "human", connected: true, level: null },
      { seat: 1, name: "B", kind: "human", connected: true, level: null },
    ] }) };
    expect(String(board(g, { senas: [], now: 0, turnLeft: null }))).not.toContain("<b>Ana</b>");
  });
});
