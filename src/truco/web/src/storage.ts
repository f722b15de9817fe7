// What the browser keeps, all in localStorage: the seat token of each table (so that closing the
// tab and opening the invite again puts the player back in her seat), the last action id, the
// name, the language and the sound switch.

import type { Lang } from "./i18n";

export interface SeatToken {
  seat: number;
  token: string;
}

export const store = {
  seat(id: string): SeatToken | null {
    try {
      const raw = localStorage.getItem(`truco:seat:${id}`);
      const v = raw ? (JSON.parse(raw) as unknown) : null;
      if (v && typeof v === "object" && "token" in v && "seat" in v) return v as SeatToken;
    } catch {
      /* unavailable */
    }
    return null;
  },
  setSeat(id: string, s: SeatToken | null): void {
    try {
      if (s) localStorage.setItem(`truco:seat:${id}`, JSON.stringify(s));
      else localStorage.removeItem(`truco:seat:${id}`);
    } catch {
      /* unavailable */
    }
  },
  lastA(id: string): number {
    return Number(localStorage.getItem(`truco:a:${id}`) ?? "0") || 0;
  },
  setLastA(id: string, a: number): void {
    localStorage.setItem(`truco:a:${id}`, String(a));
  },
  name(): string {
    return localStorage.getItem("truco:name") ?? "";
  },
  setName(name: string): void {
    localStorage.setItem("truco:name", name);
  },
  muted(): boolean {
    try {
      return localStorage.getItem("truco:mute") === "1";
    } catch {
      return false;
    }
  },
  setMuted(muted: boolean): void {
    try {
      localStorage.setItem("truco:mute", muted ? "1" : "0");
    } catch {
      /* unavailable */
    }
  },
  lang(): Lang {
    return localStorage.getItem("truco:lang") === "en" ? "en" : "es";
  },
  setLang(lang: Lang): void {
    localStorage.setItem("truco:lang", lang);
  },
};
