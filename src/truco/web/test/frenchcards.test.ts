import { describe, expect, it } from "vitest";
import { FRENCH_RANKS, frenchBack, frenchDeck, frenchFace, frenchLabel, frenchPips, frenchSvg, isRed, parseFrench } from "../src/frenchcards";

describe("the French deck (Truco Paulista)", () => {
  it("reads the core's notation: e espadas, b paus, o ouros, c copas; 10 Q, 11 J, 12 K", () => {
    expect(parseFrench("4b")).toEqual({ rank: 4, suit: "b" });
    expect(parseFrench("12C")).toEqual({ rank: 12, suit: "c" });
    for (const bad of ["8e", "9o", "13b", "0c", "1x", "", "??", "Kb"]) expect(parseFrench(bad), bad).toBeNull();
    expect(frenchLabel("4b")).toBe("4♣");
    expect(frenchLabel("7c")).toBe("7♥");
    expect(frenchLabel("1e")).toBe("A♠");
    expect(frenchLabel("10o")).toBe("Q♦");
    expect(frenchLabel("11b")).toBe("J♣");
    expect(frenchLabel("12e")).toBe("K♠");
  });
  it("has 40 cards, A-7 and Q J K of four suits", () => {
    const deck = frenchDeck();
    expect(deck).toHaveLength(40);
    expect(new Set(deck).size).toBe(40);
    expect(FRENCH_RANKS).toHaveLength(10);
  });
  it("draws one pip per rank for A-7, and courts for Q, J and K", () => {
    for (let rank = 1; rank <= 7; rank++) {
      expect(frenchPips(rank)).toHaveLength(rank);
      for (const suit of ["e", "b", "o", "c"]) {
        const svg = String(frenchFace(`${rank}${suit}`));
        // the pips and the two corners
        expect(svg.match(new RegExp(`class="fsym fsym-${suit}"`, "g")), `${rank}${suit}`).toHaveLength(rank + 2);
      }
    }
    expect(String(frenchFace("10o"))).toContain('class="court court-Q"');
    expect(String(frenchFace("11b"))).toContain('class="court court-J"');
    expect(String(frenchFace("12e"))).toContain('class="court court-K"');
  });
  it("letters both corners, reds copas and ouros, and has no ids", () => {
    for (const code of frenchDeck()) {
      const card = parseFrench(code)!;
      const svg = String(frenchFace(code));
      const letter = frenchLabel(code).slice(0, -1);
      expect(svg.match(new RegExp(`>${letter}</text>`, "g")), code).toHaveLength(2);
      expect(svg.includes(`font-size="16" fill="${isRed(card.suit) ? "#c3202a" : "#1c1c1c"}"`), code).toBe(true);
      expect(svg.startsWith("<svg")).toBe(true);
      expect(svg.endsWith("</svg>")).toBe(true);
      expect(svg).not.toContain("NaN");
      expect(svg).not.toContain("id=");
      expect(svg).toContain(`data-card="${code}"`);
    }
  });
  it("draws the back for a hidden card and takes labels as text", () => {
    expect(String(frenchSvg(null))).toBe(String(frenchBack()));
    expect(String(frenchSvg(null))).toContain("card-back");
    expect(String(frenchSvg("3c", '<b>"x"'))).toContain("&lt;b&gt;&quot;x&quot;");
    expect(() => frenchFace("8e")).toThrow();
  });
});
