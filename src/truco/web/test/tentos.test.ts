import { describe, expect, it } from "vitest";
import { tentosLayout, tentosSvg, tentoX } from "../src/tentos";

describe("tentos (the Paulista score)", () => {
  it("has one counter per tento of the game, the won ones first", () => {
    for (let score = 0; score <= 12; score++) {
      const row = tentosLayout(score, 12);
      expect(row).toHaveLength(12);
      expect(row.filter((t) => t.won)).toHaveLength(score);
      expect(row.every((t, i) => t.won === i < score)).toBe(true);
    }
    expect(tentosLayout(15, 12).filter((t) => t.won)).toHaveLength(12);
    expect(tentosLayout(-2, 12).filter((t) => t.won)).toHaveLength(0);
  });
  it("marks the eleventh, the mão de onze", () => {
    expect(tentosLayout(0, 12, 11).filter((t) => t.onze).map((t) => t.n)).toEqual([11]);
  });
  it("groups the counters in fours", () => {
    expect(tentoX(1) - tentoX(0)).toBe(tentoX(2) - tentoX(1));
    expect(tentoX(4) - tentoX(3)).toBeGreaterThan(tentoX(3) - tentoX(2));
  });
  it("draws the filled counters and names the side as text", () => {
    const svg = String(tentosSvg(7, 12, "<b>Nós</b>: 7"));
    expect(svg.match(/class="tento won/g)).toHaveLength(7);
    expect(svg.match(/<circle/g)).toHaveLength(12);
    expect(svg).toContain('data-tentos="7"');
    expect(svg).toContain("&lt;b&gt;Nós&lt;/b&gt;: 7");
  });
});
