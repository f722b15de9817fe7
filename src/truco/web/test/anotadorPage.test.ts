import { afterEach, describe, expect, it } from "vitest";
import { add, newGame, quick } from "../src/anotador";
import { anotadorBody, sideName } from "../src/anotadorPage";
import { setLang } from "../src/i18n";

afterEach(() => setLang("es"));

describe("anotador page", () => {
  it("names the sides by default in the current language and escapes own names", () => {
    const g = newGame();
    expect(sideName(g, 0)).toBe("Nosotros");
    expect(sideName(newGame({ names: ["", "", ""] }), 2)).toBe("Equipo 3");
    setLang("en");
    expect(sideName(g, 1)).toBe("Them");
    const html = String(anotadorBody(newGame({ names: ['<b>"x"', ""] })));
    expect(html).toContain("&lt;b&gt;&quot;x&quot;");
    expect(html).not.toContain('<b>"x"');
  });
  it("shows the falta from the score, malas and buenas, and the winner", () => {
    let g = add(newGame({ target: 30 }), 0, 16);
    let html = String(anotadorBody(g));
    expect(html).toContain("1 buena");
    expect(html).toContain("malas");
    expect(html).toContain('data-q="falta envido"');
    expect(html).toContain("Falta envido <b>+14</b>");
    expect(html).not.toContain("an-winner");
    // Ellos in the malas, Nosotros in the buenas: the falta is what the leader lacks.
    g = quick(g, 1, "falta envido");
    expect(String(anotadorBody(g))).toContain("Último: Ellos: Falta envido +14");
    g = add(g, 1, 16);
    html = String(anotadorBody(g));
    // The words of the table, not "¡Ganó Ellos!".
    expect(html).toContain("¡Ganaron ellos!");
    expect(html).toMatch(/data-q="envido" disabled/);
  });
  it("asks before a new game, and offers to undo it", () => {
    const g = add(newGame(), 0, 3);
    expect(String(anotadorBody(g))).toContain('data-an="new"');
    const asking = String(anotadorBody(g, { confirming: true, restorable: false }));
    expect(asking).toContain('data-an="new-yes"');
    expect(asking).toContain('data-an="new-no"');
    const fresh = String(anotadorBody(newGame(), { confirming: false, restorable: true }));
    expect(fresh).toMatch(/data-an="undo">/);
    expect(fresh).toContain("Deshacer lo trae de vuelta");
    expect(String(anotadorBody(newGame()))).toMatch(/data-an="undo" disabled/);
  });
});
