import { describe, expect, it } from "vitest";
import { fosforosLayout, fosforosSvg, halfOf, inBuenas, squareSticks } from "../src/fosforos";

const sticks = (score: number, target: number) =>
  fosforosLayout(score, target).map((s) => [s.kind, s.groups.map((g) => g.sticks)]);

describe("fósforos", () => {
  it("splits 30 into malas and buenas of three squares", () => {
    expect(sticks(0, 30)).toEqual([
      ["malas", [0, 0, 0]],
      ["buenas", [0, 0, 0]],
    ]);
    expect(sticks(7, 30)).toEqual([
      ["malas", [5, 2, 0]],
      ["buenas", [0, 0, 0]],
    ]);
    expect(sticks(18, 30)).toEqual([
      ["malas", [5, 5, 5]],
      ["buenas", [3, 0, 0]],
    ]);
    expect(sticks(30, 30)).toEqual([
      ["malas", [5, 5, 5]],
      ["buenas", [5, 5, 5]],
    ]);
  });
  it("has halves at every target (issue 17: 15 has 7 malas, 10 has 5)", () => {
    expect(sticks(11, 15)).toEqual([
      ["malas", [5, 2]],
      ["buenas", [4, 0]],
    ]);
    expect(sticks(4, 10)).toEqual([
      ["malas", [4]],
      ["buenas", [0]],
    ]);
    expect(halfOf(15)).toBe(7);
  });
  it("handles 24 (halves of 12) and 40 (20)", () => {
    const l = fosforosLayout(13, 24);
    expect(l.map((s) => s.groups.map((g) => g.capacity))).toEqual([
      [5, 5, 2],
      [5, 5, 2],
    ]);
    expect(sticks(13, 24)).toEqual([
      ["malas", [5, 5, 2]],
      ["buenas", [1, 0, 0]],
    ]);
    expect(fosforosLayout(0, 40).map((s) => s.groups.length)).toEqual([4, 4]);
  });
  it("clamps scores beyond the target", () => {
    expect(sticks(99, 15)).toEqual([
      ["malas", [5, 2]],
      ["buenas", [5, 3]],
    ]);
    expect(sticks(-3, 15)).toEqual([
      ["malas", [0, 0]],
      ["buenas", [0, 0]],
    ]);
  });
  it("knows the malas and buenas", () => {
    expect(inBuenas(15, 30)).toBe(false);
    expect(inBuenas(16, 30)).toBe(true);
    expect(inBuenas(7, 15)).toBe(false);
    expect(inBuenas(8, 15)).toBe(true);
  });
  it("draws the four sides then the diagonal", () => {
    expect(squareSticks(0, 0, 0, 10)).toEqual([]);
    const five = squareSticks(5, 0, 0, 10);
    expect(five).toHaveLength(5);
    expect(five[4]).toEqual({ x1: 2, y1: 8, x2: 8, y2: 2 });
    expect(squareSticks(9, 0, 0, 10)).toHaveLength(5);
  });
  it("renders one line and one head per point", () => {
    const svg = String(fosforosSvg(17, 30, "Nosotros: 17"));
    expect(svg.match(/class="stick"/g)).toHaveLength(17);
    expect(svg.match(/class="head"/g)).toHaveLength(17);
    expect(svg.match(/class="half"/g)).toHaveLength(1);
    expect(String(fosforosSvg(3, 15, "x")).match(/class="half"/g)).toHaveLength(1);
  });
});
