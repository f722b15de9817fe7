// Names on the screen: a seat's, a side's (a team, the pie's pair, a player) and a score's owner.
// Plain strings: they become text wherever the html tag puts them.

import { t } from "./i18n";
import { VARIANT_RULES } from "./generated";
import { teamOf, variantOf } from "./protocol";
import type { TableInfo, View } from "./types";

/** A seat's name; where two seats share it (bots of one kind), with the seat's number. */
export function seatName(table: TableInfo | null, seat: number): string {
  const info = table?.seats.find((s) => s.seat === seat);
  const name = info?.name;
  if (!name) return t("seat_n", { n: seat + 1 });
  const shared = table?.seats.some((s) => s.seat !== seat && s.name === name) ?? false;
  return shared ? `${name} ${seat + 1}` : name;
}

/** A side of the hand: a team, the pie or the pair in pata de gallo, a player in destantado. */
export function teamLabel(team: number, viewer: number | null, view: View | null = null, table: TableInfo | null = null): string {
  const facts = VARIANT_RULES[variantOf(view?.options)];
  if (view && facts.own_side) return seatName(table, team);
  if (viewer !== null) return team === teamOf(viewer, view) ? t("team_us") : t("team_them");
  if (view && facts.pie_alone) {
    const seats = view.teams.map((side, seat) => [side, seat] as const).filter(([side]) => side === team);
    return seats.map(([, seat]) => seatName(table, seat)).join(" · ");
  }
  // A spectator: the team by its players' names ("Ana y Caro"), not "Equipo 1".
  const names = (table?.seats ?? []).filter((s) => s.seat % 2 === team).map((s) => seatName(table, s.seat));
  return names.length ? names.join(` ${t("and")} `) : t("team_n", { n: team + 1 });
}

/** Whose a score is: a team, or a player where scores are individual. */
export function scorerLabel(index: number, viewer: number | null, view: View | null, table: TableInfo | null = null): string {
  if (view?.individual) {
    return index === viewer ? `${seatName(table, index)} (${t("you")})` : seatName(table, index);
  }
  return teamLabel(index, viewer, null, table);
}
