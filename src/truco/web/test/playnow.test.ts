import { afterEach, describe, expect, it } from "vitest";
import { setLang } from "../src/i18n";
import { MODES, playNowBody } from "../src/playnow";

afterEach(() => setLang("es"));

const waiting = { ticket: "t", token: "k", mode: "2v2" as const, since: 1_000, offer: false };

describe("Jugar ahora", () => {
  it("offers a button per mode, named for the mode", () => {
    const markup = String(playNowBody(null, 0));
    for (const m of MODES) expect(markup).toContain(`data-mode="${m}" aria-label="Jugar ahora ${m}"`);
  });
  it("shows the time waited and a way out, and the bots only when offered", () => {
    const markup = String(playNowBody(waiting, 66_500));
    expect(markup).toContain("Buscando rivales… 1:05");
    expect(markup).toContain('data-do="cancel"');
    expect(markup).not.toContain('data-do="bots"');
    const offered = String(playNowBody({ ...waiting, offer: true }, 31_000));
    expect(offered).toContain("¿Jugamos con bots mientras tanto?");
    expect(offered).toContain('data-do="bots"');
    expect(offered).toContain("0:30");
  });
  it("speaks English on request", () => {
    setLang("en");
    expect(String(playNowBody({ ...waiting, offer: true }, 1_000))).toContain("Play with bots meanwhile?");
  });
});
