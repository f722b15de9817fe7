// Ejercicios' page (src/ejercicios.ts): the position as its seat saw it, its actions, and the
// coach's answer, whose words are the server's text: shown as text, never as markup.

import { afterEach, describe, expect, it } from "vitest";
import { type Answered, answerView, ejerciciosPage, type Exercise } from "../src/ejercicios";
import { setLang } from "../src/i18n";
import { makeView } from "./fixtures";

afterEach(() => setLang("es"));

const HOSTILE = '<img src=x onerror="alert(1)"><script>alert(2)</script>';

function exercise(answered: Answered | null = null): Exercise {
  const position = makeView({
    seat: 0,
    to_act: 0,
    cards: ["1e", "7o", "4c"],
    legal: ["play 1e", "play 7o", "play 4c", "truco", "mazo"],
    history: [[1, "play 5b"]],
    plays: [[1, "5b", false]],
    tantos: 7,
  });
  return { id: "abc", position, rating: 1500, attempts: 0, solved: 0, own: false, answered };
}

const ANSWER: Answered = {
  id: "abc",
  answer: "mazo",
  solved: false,
  best: "truco",
  options: [
    { action: "truco", equity: 0.61 },
    { action: "mazo", equity: 0.5 },
  ],
  words: { es: `Lo mejor es cantar truco ${HOSTILE}`, en: `The best is calling truco ${HOSTILE}` },
  rating_before: 1500,
  rating_after: 1338,
  first: true,
};

describe("ejercicios", () => {
  it("draws the position: the seat's own cards, the rival's card on the table, an action per legal one", () => {
    const page = ejerciciosPage({ tab: "hoy", stream: { exercise: exercise(), me: { rating: 1500, deviation: 350, attempts: 0 } }, problem: "" }).toString();
    for (const card of ["1e", "7o", "4c", "5b"]) expect(page).toContain(`data-card="${card}"`);
    expect(page.match(/data-ej="answer"/g)?.length).toBe(5);
    expect(page).toContain("7 de envido");
    expect(page).not.toContain("ej-answer");
  });
  it("shows the coach's words as text, never as markup", () => {
    const text = answerView(ANSWER).toString();
    expect(text).not.toContain("<img");
    expect(text).not.toContain("<script");
    expect(text).toContain("&lt;script&gt;");
    expect(text).toContain("1500 → 1338");
    setLang("en");
    expect(answerView(ANSWER).toString()).toContain("The best is calling truco");
  });
  it("disables the actions once answered and marks the one chosen", () => {
    const page = ejerciciosPage({ tab: "siguiente", stream: { exercise: exercise(ANSWER), me: { rating: 1338, deviation: 290, attempts: 1 } }, problem: "" }).toString();
    expect(page.match(/ disabled/g)?.length).toBe(5);
    expect(page).toContain('class="ej-action chosen"');
    expect(page).toContain('data-ej="siguiente"');
  });
});
