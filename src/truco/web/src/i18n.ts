// The interface's words: Spanish by default, English on request, and Brazilian Portuguese at the
// tables of Truco Paulista. The dictionaries are in src/lang/ (one module per language): every key
// exists in Spanish and English; pt-BR has every key a Paulista table shows (tests check both).

import { en } from "./lang/en";
import { type Key, es } from "./lang/es";
import { pt } from "./lang/pt";

export type { Key };
/** The visitor's language (the header's button switches it). */
export type Lang = "es" | "en";
/** A language the interface may speak: the visitor's, or a table's own (pt-BR at Paulista). */
export type AnyLang = Lang | "pt";

export const DICTS: Record<Lang, Record<Key, string>> = { es, en };
/** pt-BR: the Paulista tables' words (lang/pt.ts). */
export const PT: Partial<Record<Key, string>> = pt;

let current: Lang = "es";
/** The language of the table on screen, where it has its own (pt-BR at Paulista tables). */
let tableLang: AnyLang | null = null;
/** The visitor asked for his own language at such a table (the header's button). */
let ownWords = false;
/** Keys asked for in pt-BR that it lacks (shown in Spanish): the tests keep this empty. */
export const missingPt = new Set<Key>();

export function setLang(lang: Lang): void {
  current = lang;
}

/** The visitor's language. */
export function getLang(): Lang {
  return current;
}

/** A table that speaks its own language (pt-BR at Paulista tables), or null: the visitor's. */
export function setTableLang(lang: AnyLang | null): void {
  if (lang !== tableLang) ownWords = false;
  tableLang = lang;
}

/** The language of the table on screen, if it has its own. */
export function tableLanguage(): AnyLang | null {
  return tableLang;
}

/** The language the page speaks now: the table's own, unless the visitor asked for his. */
export function activeLang(): AnyLang {
  return tableLang !== null && !ownWords ? tableLang : current;
}

/** The header's button: at a table with its own language, between it and the visitor's;
 * elsewhere between Spanish and English. */
export function toggleLang(): void {
  if (tableLang !== null) ownWords = !ownWords;
  else current = current === "es" ? "en" : "es";
}

/** What the header's button says: the language it switches to, in that language. */
export function langButtonLabel(): string {
  if (tableLang === null) return t("language");
  return activeLang() === tableLang ? t("lang_name", {}, current) : t("lang_name", {}, tableLang);
}

/** The page's `lang` attribute. */
export function htmlLang(): string {
  return activeLang() === "pt" ? "pt-BR" : activeLang();
}

export function isKey(key: string): key is Key {
  return Object.prototype.hasOwnProperty.call(es, key);
}

/** Fill "{name}" placeholders. */
export function format(template: string, vars: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in vars ? String(vars[name]) : whole,
  );
}

function word(key: Key, lang: AnyLang): string {
  if (lang !== "pt") return DICTS[lang][key];
  const found = pt[key];
  if (found !== undefined) return found;
  missingPt.add(key);
  return es[key];
}

export function t(key: Key, vars?: Record<string, string | number>, lang: AnyLang = activeLang()): string {
  return format(word(key, lang), vars);
}

/** A key built at run time (an action, a reason, an error code); falls back on the raw text. */
export function tr(key: string, fallback: string, vars?: Record<string, string | number>): string {
  return isKey(key) ? t(key, vars) : fallback;
}

const RANK_NAMES: Record<Lang, Record<number, string>> = {
  es: { 1: "Ancho", 10: "Sota", 11: "Caballo", 12: "Rey" },
  en: { 1: "Ace", 10: "Jack (sota)", 11: "Knight (caballo)", 12: "King (rey)" },
};
/** The French deck's letters for the Spanish ranks the notation keeps: 1 A, 10 Q, 11 J, 12 K. */
const FRENCH_RANK: Record<number, Key> = { 1: "rank_a", 10: "rank_q", 11: "rank_j", 12: "rank_k" };

/** A card of the French deck (Truco Paulista) by name: "Ás de paus", "Dama de copas", "7 de ouros". */
export function frenchCardName(code: string, lang: AnyLang = activeLang()): string {
  const m = /^(1[0-2]|[1-7])([eboc])$/.exec(code);
  if (!m || m[1] === undefined || m[2] === undefined) return code;
  const rank = Number(m[1]);
  const rankKey = FRENCH_RANK[rank];
  const suit = t(`fsuit_${m[2]}` as Key, {}, lang);
  return t("card_name", { rank: rankKey ? t(rankKey, {}, lang) : String(rank), suit }, lang);
}

/** "7 de espada", "Rey de copa", "Ancho falso de oro", "Seven..."; at a pt-BR (Paulista) table,
 * the French deck's names. */
export function cardName(code: string, lang: AnyLang = activeLang()): string {
  if (lang === "pt") return frenchCardName(code, lang);
  const m = /^(1[0-2]|[1-7])([eboc])$/.exec(code);
  if (!m || m[1] === undefined || m[2] === undefined) return code;
  const rank = Number(m[1]);
  const suit = t(`suit_${m[2]}` as Key, {}, lang);
  // The 1 of oro and of copa are the anchos falsos: only espada's and basto's are anchos.
  if (rank === 1 && (m[2] === "o" || m[2] === "c")) return t("false_ace", { suit }, lang);
  return t("card_name", { rank: RANK_NAMES[lang][rank] ?? String(rank), suit }, lang);
}

/** The name of a call ("Retruco"), as opposed to the button that answers with it. */
export function callLabel(verb: string, lang: AnyLang = activeLang()): string {
  const key = `call_${verb}`;
  return isKey(key) ? t(key, {}, lang) : actionLabel(verb, lang);
}

/** A trick by its name at the table: primera, segunda, tercera (0-based `i`). */
export function trickName(i: number, lang: AnyLang = activeLang()): string {
  const key = `trick_${i + 1}`;
  return isKey(key) ? t(key, {}, lang) : String(i + 1);
}

/** The label of a legal action: a button text, or a line in the log. */
export function actionLabel(action: string, lang: AnyLang = activeLang()): string {
  const [verb, arg] = action.split(" ");
  if (verb === "play" && arg) return t("act_play", { card: cardName(arg, lang) }, lang);
  if (verb === "tapada") return t("act_tapada", {}, lang);
  if (verb === "discard") return arg && arg !== "??" ? t("act_discard", { card: cardName(arg, lang) }, lang) : t("discarded", {}, lang);
  const key = `act_${verb ?? ""}`;
  return isKey(key) ? t(key, {}, lang) : action;
}
