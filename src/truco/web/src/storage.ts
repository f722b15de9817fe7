// What the browser keeps: the seat token in sessionStorage (per tab), the name and the language
// in localStorage.

import type { Lang } from "./i18n";

export interface SeatToken {
  seat: number;
  token: string;
}

export const store = {
  seat(id: string): SeatToken | null {
    try {
      const raw = sessionStorage.getItem(`truco:seat:${id}`);
      const v = raw ? (JSON.parse(raw) as unknown) : null;
      if (v && typeof v === "object" && "token" in v && "seat" in v) return v as SeatToken;
    } catch {
      /* unavailable */
    }
    return null;
  },
  setSeat(id: string, s: SeatToken | null): void {
    try {
      if (s) sessionStorage.setItem(`truco:seat:${id}`, JSON.stringify(s));
      else sessionStorage.removeItem(`truco:seat:${id}`);
    } catch {
      /* unavailable */
    }
  },
  lastA(id: string): number {
    return Number(sessionStorage.getItem(`truco:a:${id}`) ?? "0") || 0;
  },
  setLastA(id: string, a: number): void {
    sessionStorage.setItem(`truco:a:${id}`, String(a));
  },
  name(): string {
    return localStorage.getItem("truco:name") ?? "";
  },
  setName(name: string): void {
    localStorage.setItem("truco:name", name);
  },
  lang(): Lang {
    return localStorage.getItem("truco:lang") === "en" ? "en" : "es";
  },
  setLang(lang: Lang): void {
    localStorage.setItem("truco:lang", lang);
  },
};
