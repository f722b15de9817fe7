// What was said and why a hand ended, in the words of the table: "+1 la mano", "retruco no
// querido", "parda en primera, ganó la segunda", "Beto se fue al mazo". Pure: it reads the
// events and the view (what was called, the tricks' results), never the rules.

import { ENVIDO_CALLS, TRUCO_CALLS } from "./generated";
import { callLabel, t, tr, trickName } from "./i18n";
import { seatName, teamLabel } from "./names";
import type { HandStory, TableInfo, View } from "./types";

function lastOf(calls: readonly string[], family: readonly string[]): string | undefined {
  return [...calls].reverse().find((c) => family.includes(c));
}

/** Why a side scored. `calls`: the verbs called in the hand up to then, in order. A hand that
 *  nobody called truco in is "la mano", a declined retruco is "retruco no querido". */
export function scoredReason(reason: string, calls: readonly string[]): string {
  const family = reason.startsWith("truco") ? TRUCO_CALLS : reason.startsWith("envido") ? ENVIDO_CALLS : null;
  const last = family ? lastOf(calls, family) : undefined;
  if (reason === "truco") return last ? callLabel(last).toLowerCase() : t("reason_hand");
  // The call that won the envido: "real envido", "falta envido" (a plain envido is "envido").
  if (reason === "envido" && last) return callLabel(last).toLowerCase();
  if (reason.endsWith("-no-quiero") && last) return t("reason_declined", { call: callLabel(last).toLowerCase() });
  return tr(`reason_${reason}`, reason);
}

function tricksText(ix: number[]): string {
  const names = ix.map((i) => trickName(i).toLowerCase());
  const last = names.pop();
  return names.length ? `${names.join(", ")} ${t("and")} ${last}` : (last ?? "");
}

/** The first letter as a sentence starts it. */
function sentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Why the hand ended, as the core's story says it (`view.story`, computed once from the final
 *  state: this only says it): "Beto se fue al mazo", "Ana no quiso el retruco", "Ganaste
 *  primera y segunda", "Ellos": "ganaron primera y tercera", "parda en primera, ganó la
 *  segunda", "ganó por ser mano". `who`: the side's name to put before the text, when the
 *  text does not name it. Null when the story has nothing to say of the truco part (the match
 *  ended on the envido first). */
export function handWhy(
  story: HandStory | null,
  viewer: number | null,
  view: View,
  table: TableInfo | null,
): { who: string | null; text: string } | null {
  if (!story) return null;
  const name = (seat: number) => seatName(table, seat);
  if (story.reason === "mazo" && story.seat !== null) return { who: null, text: t("why_mazo", { name: name(story.seat) }) };
  if (story.reason === "mao-de-onze" && story.seat !== null) return { who: null, text: t("why_ran_onze", { name: name(story.seat) }) };
  if (story.reason.endsWith("-no-quiero") && story.seat !== null) {
    const call = callLabel(story.call ?? "truco").toLowerCase();
    return { who: null, text: t("why_declined", { name: name(story.seat), call }) };
  }
  if (story.reason !== "truco") return null;
  if (story.side < 0) return { who: null, text: t("why_nobody") };
  const mine = viewer !== null && story.seats.includes(viewer);
  const alone = story.seats.length === 1;
  let who: string | null = null;
  let verb: string;
  if (mine) verb = alone ? t("won_you") : t("won_us");
  else if (alone) verb = `${name(story.seats[0] ?? 0)} ${t("won_one")}`;
  else {
    who = teamLabel(story.side, viewer, view, table);
    verb = t("won_team");
  }
  const { won, pardas } = story;
  let text: string;
  if (won.length === 0) {
    const mano = t("why_mano", { won: verb });
    text = pardas.length ? `${t("why_pardas", { tricks: tricksText(pardas) })}, ${mano}` : mano;
  } else if (pardas.length === 0) {
    text = t("why_tricks", { won: verb, tricks: tricksText(won) });
  } else {
    const wonText = t("why_won_the", { won: verb, tricks: tricksText(won) });
    const pardaText = t("why_pardas", { tricks: tricksText(pardas) });
    text = (pardas[0] ?? 0) < (won[0] ?? 0) ? `${pardaText}, ${wonText}` : `${wonText}, ${pardaText}`;
  }
  return { who, text: who === null ? sentence(text) : text };
}
