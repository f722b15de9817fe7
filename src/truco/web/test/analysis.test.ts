// The analysis over the replay (analysis.ts): labels in Spanish first, the decision of the step
// on screen, bars for the alternatives, and no face-up line during a match.

import { afterEach, describe, expect, it } from "vitest";
import { analysisHref, analysisPanel, decisionMark, optionBars, playedWords } from "../src/analysis";
import { setLang } from "../src/i18n";
import { analysisWith } from "./fixtures";

afterEach(() => setLang("es"));

describe("analysis", () => {
  const a = analysisWith("envido");

  it("labels each decision with the coach's words, Spanish first", () => {
    expect(a.decisions.map((d) => String(decisionMark(d)).match(/>([^<]+)<\/span>$/)?.[1])).toEqual(["error", "la mejor", "error grave"]);
    setLang("en");
    expect(a.decisions.map((d) => String(decisionMark(d)).match(/>([^<]+)<\/span>$/)?.[1])).toEqual(["mistake", "best", "blunder"]);
  });

  it("says what the player played: Jugaste 3 de oro, a tapada by its card to its owner", () => {
    expect(playedWords("play 3o")).toBe("Jugaste 3 de oro");
    expect(playedWords("tapada 4c")).toBe("Jugaste tapada: 4 de copa");
    expect(String(analysisPanel({ analysis: analysisWith("play 3o"), error: null }, 1))).toContain("Jugaste 3 de oro");
    expect(String(analysisPanel({ analysis: analysisWith("play 3o"), error: null }, 1))).not.toContain("Jugaste juega");
  });

  it("shows the decision of the step on screen: the action's index plus one", () => {
    expect(String(analysisPanel({ analysis: a, error: null }, 4))).toContain('class="an-decision an-best"');
    expect(String(analysisPanel({ analysis: a, error: null }, 1))).toContain('class="an-decision an-error"');
    const between = String(analysisPanel({ analysis: a, error: null }, 2));
    expect(between).not.toContain("an-decision");
    expect(between).toContain('data-replay-step="6"');
  });

  it("draws a bar per option, the best full and the worst at a tenth, the played one marked", () => {
    const bars = String(optionBars(a.decisions[0]!));
    expect(bars.match(/<rect [^>]*width="([\d.]+)"/g)?.map((r) => r.replace(/.*width="/, "").replace('"', ""))).toEqual([
      "100.0",
      "67.9",
      "10.0",
    ]);
    expect(bars).toContain('class="an-bar best" data-action="truco"');
    expect(bars).toContain('class="an-bar played" data-action="envido"');
  });

  it("says the face-up line waits for the end of the match when the server left it out", () => {
    expect(String(analysisPanel({ analysis: a, error: null }, 6))).toContain("cuando termine el partido");
    expect(String(analysisPanel({ analysis: a, error: null }, 1))).toContain("A la vista");
  });

  it("opens the hand's replay with the analysis on", () => {
    expect(analysisHref("ab c", 3)).toBe("/r/ab%20c/3/0?analizar");
  });
});
