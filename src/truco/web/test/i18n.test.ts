import { afterEach, describe, expect, it } from "vitest";
import { DICTS, actionLabel, cardName, format, getLang, setLang, t, tr } from "../src/i18n";
import { SENAS } from "../src/types";

afterEach(() => setLang("es"));

describe("i18n", () => {
  it("has the same keys and placeholders in Spanish and English", () => {
    const es = DICTS.es;
    const en = DICTS.en;
    expect(Object.keys(en).sort()).toEqual(Object.keys(es).sort());
    for (const key of Object.keys(es) as (keyof typeof es)[]) {
      const holes = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();
      expect(holes(en[key]), key).toEqual(holes(es[key]));
      expect(en[key].length, key).toBeGreaterThan(0);
    }
  });
  it("is Spanish by default and switches to English", () => {
    expect(getLang()).toBe("es");
    expect(t("rematch")).toBe("Revancha");
    setLang("en");
    expect(t("rematch")).toBe("Rematch");
  });
  it("fills placeholders and leaves unknown ones", () => {
    expect(format("{a} y {b}", { a: 1 })).toBe("1 y {b}");
    expect(t("hand_n", { n: 3 })).toBe("Mano 3");
  });
  it("names cards, figures included", () => {
    expect(cardName("1e")).toBe("Ancho de espada");
    expect(cardName("7o")).toBe("7 de oro");
    expect(cardName("12c")).toBe("Rey de copa");
    expect(cardName("11b", "en")).toBe("Knight (caballo) of clubs");
    expect(cardName("9z")).toBe("9z");
  });
  it("labels every action verb", () => {
    expect(actionLabel("quiero")).toBe("Quiero");
    expect(actionLabel("no-quiero")).toBe("No quiero");
    expect(actionLabel("vale-cuatro")).toBe("Quiero vale cuatro");
    expect(actionLabel("play 10o")).toBe("juega Sota de oro");
    expect(actionLabel("tapada 3e")).toBe("juega una tapada");
    for (const verb of ["truco", "retruco", "envido", "real-envido", "falta-envido", "mazo", "flor", "contraflor", "contraflor-al-resto", "con-flor-quiero", "con-flor-me-achico"]) {
      expect(actionLabel(verb)).not.toBe(verb);
    }
    expect(actionLabel("something-new")).toBe("something-new");
  });
  it("names every seña and error code, and falls back on unknown keys", () => {
    for (const s of SENAS) expect(tr(`sena_${s}`, "?")).not.toBe("?");
    for (const code of ["bad_json", "too_large", "unknown_type", "bad_message", "not_seated", "not_your_turn", "illegal_action", "stale_version", "match_over", "bad_token", "table_not_found", "seat_taken", "rate_limited", "bad_options"]) {
      expect(tr(`err_${code}`, "?"), code).not.toBe("?");
    }
    expect(tr("no_such_key", "fallback")).toBe("fallback");
  });
});
