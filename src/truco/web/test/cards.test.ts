import { describe, expect, it } from "vitest";
import { PINTAS, cardBack, cardFace, cardSvg, deck, parseCard, pipLayout } from "../src/cards";

describe("cards", () => {
  it("parses the notation and refuses cards that are not in the Spanish deck", () => {
    expect(parseCard("1e")).toEqual({ rank: 1, suit: "e" });
    expect(parseCard("12C")).toEqual({ rank: 12, suit: "c" });
    for (const bad of ["8e", "9o", "13b", "0c", "1x", "", "??"]) expect(parseCard(bad), bad).toBeNull();
  });
  it("has 40 cards", () => {
    const d = deck();
    expect(d).toHaveLength(40);
    expect(new Set(d).size).toBe(40);
  });
  it("draws one symbol per pip for ranks 1-7", () => {
    for (let rank = 1; rank <= 7; rank++) {
      expect(pipLayout(rank)).toHaveLength(rank);
      for (const suit of ["e", "b", "o", "c"]) {
        const svg = String(cardFace(`${rank}${suit}`));
        // two small symbols in the corners + the pips
        expect(svg.match(new RegExp(`class="sym sym-${suit}"`, "g")), `${rank}${suit}`).toHaveLength(rank + 2);
      }
    }
  });
  it("draws figures for 10, 11 and 12", () => {
    expect(String(cardFace("10o"))).toContain('class="figure sota"');
    expect(String(cardFace("11b"))).toContain('class="figure caballo"');
    expect(String(cardFace("12e"))).toContain('class="figure rey"');
  });
  it("shows the rank in both corners and breaks the frame by the suit's pintas", () => {
    for (const code of deck()) {
      const card = parseCard(code)!;
      const svg = String(cardFace(code));
      expect(svg.match(new RegExp(`>${card.rank}</text>`, "g")), code).toHaveLength(2);
      const frame = /class="frame" d="([^"]+)"/.exec(svg)![1]!;
      // 2 sides + (gaps + 1) segments on the top and on the bottom edge
      expect(frame.split("M").length - 1, code).toBe(2 + 2 * (PINTAS[card.suit] + 1));
      expect(svg.startsWith("<svg")).toBe(true);
      expect(svg.endsWith("</svg>")).toBe(true);
      expect(svg).not.toContain("NaN");
      expect(svg).not.toContain("id=");
    }
  });
  it("draws the back for a hidden card and escapes labels", () => {
    expect(String(cardSvg(null))).toBe(String(cardBack()));
    expect(String(cardSvg(null))).toContain("card-back");
    // Labels are text, escaped by the one html tag (src/html.ts).
    expect(String(cardSvg("3c", '<b>"x"'))).toContain("&lt;b&gt;&quot;x&quot;");
    expect(() => cardFace("8e")).toThrow();
  });
});
