// "Tus mesas": the tables where the player sits (from /api/me), each named by its rivals and
// its score as the table tells them (GET /api/tables/{id}), not by its id.

import { getTable, type Me } from "./api";
import { type Html, html, NOTHING } from "./html";
import { htmlLang, t } from "./i18n";
import type { TableInfo } from "./types";

/** The tables asked about at most, of one list (a player rarely sits at more). */
export const MOST_ASKED = 12;

const known = new Map<string, TableInfo>();

/** Ask each of the player's tables for its seats and score, then `redraw`; a table that does
 *  not answer keeps its plain name. */
export async function loadMyTables(me: Me | null, redraw: () => void): Promise<void> {
  const ids = [...new Set((me?.seats ?? []).map((s) => s.table))].slice(0, MOST_ASKED);
  if (ids.length === 0) return;
  const answers = await Promise.allSettled(ids.map((id) => getTable(id)));
  answers.forEach((a) => {
    if (a.status === "fulfilled") known.set(a.value.table, a.value);
  });
  redraw();
}

/** Forget what the tables said (the tests, between cases). */
export function forgetMyTables(): void {
  known.clear();
}

/** Remember a table's answer (the tests, which have no server). */
export function knowTable(info: TableInfo): void {
  known.set(info.table, info);
}

function names(list: string[]): string {
  return new Intl.ListFormat(htmlLang(), { type: "conjunction" }).format(list);
}

/** The words of one table for the player at `seat`: its rivals and the score, hers first. */
export function tableWords(info: TableInfo | undefined, seat: number, id: string): string {
  if (!info) return t("my_table", { table: id, n: seat + 1 });
  const score = info.score ?? [];
  // Two scores: two sides, seats alternating (pica-pica too); more: each plays alone.
  const sides = score.length === 2;
  const rival = (s: number) => (sides ? s % 2 !== seat % 2 : s !== seat);
  const rivals = info.seats.filter((s) => rival(s.seat) && s.kind !== "empty" && s.name).map((s) => s.name ?? "");
  if (rivals.length === 0) return t("my_table_waiting");
  if (info.status === "waiting" || score.length === 0) return t("my_table_vs_waiting", { rivals: names(rivals) });
  const mine = (sides ? score[seat % 2] : score[seat]) ?? 0;
  const theirs = sides ? [score[1 - (seat % 2)]] : score.filter((_, i) => i !== seat);
  return t("my_table_vs", { rivals: names(rivals), mine, theirs: theirs.join(" · ") });
}

/** The lobby's list of the player's tables, as links to them. */
export function myTables(me: Me | null): Html {
  if (!me || me.seats.length === 0) return NOTHING;
  return html`<h2>${t("my_tables")}</h2><ul class="my-tables">${me.seats.map(
    (s) => html`<li><a href="/t/${encodeURIComponent(s.table)}">${tableWords(known.get(s.table), s.seat, s.table)}</a></li>`,
  )}</ul>`;
}
