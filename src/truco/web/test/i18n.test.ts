import { afterEach, describe, expect, it } from "vitest";
import { DICTS, PT, actionLabel, activeLang, cardName, format, getLang, langButtonLabel, setLang, setTableLang, t, toggleLang, tr } from "../src/i18n";
import { SENAS } from "../src/types";

afterEach(() => {
  setLang("es");
  setTableLang(null);
});

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

  it("has pt-BR words with the same placeholders, for the Truco Paulista tables", () => {
    const holes = (x: string) => (x.match(/\{\w+\}/g) ?? []).sort();
    for (const [key, word] of Object.entries(PT)) {
      expect(key in DICTS.es, key).toBe(true);
      expect(holes(word!), key).toEqual(holes(DICTS.es[key as keyof typeof DICTS.es]));
      expect(word!.length, key).toBeGreaterThan(0);
    }
    setTableLang("pt");
    expect(activeLang()).toBe("pt");
    expect(["truco", "seis", "nove", "doze", "desce", "corre"].map((v) => actionLabel(v))).toEqual(["Truco!", "Seis!", "Nove!", "Doze!", "Desce", "Corre"]);
    expect(t("mao_de_onze")).toBe("Mão de onze");
    expect(t("manilha_b")).toBe("Zap");
    // The French deck's names: 1 is the ace, 10 the queen, 11 the jack, 12 the king.
    expect(["1b", "7c", "10o", "11e", "12b"].map((c) => cardName(c))).toEqual(["Ás de paus", "7 de copas", "Dama de ouros", "Valete de espadas", "Rei de paus"]);
  });
  it("switches a pt-BR table to the visitor's language and back, and leaves it with the table", () => {
    setLang("en");
    setTableLang("pt");
    expect(t("rematch")).toBe("Revanche");
    expect(langButtonLabel()).toBe("English");
    toggleLang();
    expect(t("rematch")).toBe("Rematch");
    expect(langButtonLabel()).toBe("Português");
    expect(getLang()).toBe("en");
    toggleLang();
    expect(t("rematch")).toBe("Revanche");
    setTableLang(null);
    expect(t("rematch")).toBe("Rematch");
    expect(langButtonLabel()).toBe("Español");
  });
});
