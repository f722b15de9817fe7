// What was said and why a hand ended, in the words of the table: "+1 la mano", "retruco no
// querido", "parda en primera, ganó la segunda", "Beto se fue al mazo". Pure: it reads the
// events and the view (what was called, the tricks' results), never the rules.

import { ENVIDO_CALLS, TRUCO_CALLS } from "./generated";
import { callLabel, t, tr, trickName } from "./i18n";
import { seatName } from "./names";
import type { HandSummary } from "./protocol";
import type { TableInfo } from "./types";

function lastOf(calls: readonly string[], family: readonly string[]): string | undefined {
  return [...calls].reverse().find((c) => family.includes(c));
}

/** Why a side scored. `calls`: the verbs called in the hand up to then, in order. A hand that
 *  nobody called truco in is "la mano", a declined retruco is "retruco no querido". */
export function scoredReason(reason: string, calls: readonly string[]): string {
  const family = reason.startsWith("truco") ? TRUCO_CALLS : reason.startsWith("envido") ? ENVIDO_CALLS : null;
  const last = family ? lastOf(calls, family) : undefined;
  if (reason === "truco") return last ? callLabel(last).toLowerCase() : t("reason_hand");
  if (reason.endsWith("-no-quiero") && last) return t("reason_declined", { call: callLabel(last).toLowerCase() });
  return tr(`reason_${reason}`, reason);
}

function tricksText(ix: number[]): string {
  const names = ix.map((i) => trickName(i).toLowerCase());
  const last = names.pop();
  return names.length ? `${names.join(", ")} ${t("and")} ${last}` : (last ?? "");
}

/** Why the hand's truco part went where it did, from what was said (the hand's history) and the
 *  tricks' results: "Beto se fue al mazo", "Ana no quiso el retruco", "ganaron primera y
 *  tercera", "parda en primera, ganó la segunda", "ganó por ser mano". Null if it cannot say. */
export function handWhy(s: HandSummary, table: TableInfo | null): string | null {
  const truco = s.scored.find((x) => x.reason === "truco" || x.reason === "truco-no-quiero" || x.reason === "mazo");
  const who = (seat: number) => seatName(table, seat);
  const history = s.history ?? [];
  const last = (pred: (action: string) => boolean) => [...history].reverse().find(([, a]) => pred(a));
  if (truco?.reason === "mazo") {
    const went = last((a) => a === "mazo");
    return went ? t("why_mazo", { name: who(went[0]) }) : null;
  }
  if (truco?.reason === "truco-no-quiero") {
    const calls = history.map(([, a]) => a);
    const call = lastOf(calls, TRUCO_CALLS) ?? "truco";
    const no = last((a) => a === "no-quiero" || a === "corre");
    return no ? t("why_declined", { name: who(no[0]), call: callLabel(call).toLowerCase() }) : null;
  }
  const team = truco?.team ?? s.winner;
  if (team < 0 || s.results.length === 0) return null;
  const won = s.results.flatMap((r, i) => (r === team ? [i] : []));
  const pardas = s.results.flatMap((r, i) => (r === -1 ? [i] : []));
  const verb = s.view.options.players > 2 ? t("won_team") : t("won_one");
  if (won.length === 0) {
    const mano = t("why_mano", { won: verb });
    return pardas.length ? `${t("why_pardas", { tricks: tricksText(pardas) })}, ${mano}` : mano;
  }
  if (pardas.length === 0) return t("why_tricks", { won: verb, tricks: tricksText(won) });
  const wonText = t("why_won_the", { won: verb, tricks: tricksText(won) });
  const pardaText = t("why_pardas", { tricks: tricksText(pardas) });
  return (pardas[0] ?? 0) < (won[0] ?? 0) ? `${pardaText}, ${wonText}` : `${wonText}, ${pardaText}`;
}
