// What a Truco Paulista table looks like: its French-suited cards, its score in tentos, and the
// language it speaks (pt-BR). The table's facts (the vira, the manilhas, the mão de onze) come from
// the view; this module only draws them.

import { cardBack, cardSvg } from "./cards";
import { frenchBack, frenchSvg } from "./frenchcards";
import { type Html, html } from "./html";
import { t } from "./i18n";
import { teamLabel } from "./names";
import { teamOf } from "./protocol";
import { tentosSvg } from "./tentos";
import type { CardCode, Options, TableInfo, View } from "./types";

/** Whether a table plays Truco Paulista (its options name the game or its variant). */
export function isPaulista(options: Options | null | undefined): boolean {
  if (!options) return false;
  return options.game === "paulista" || String(options.variant ?? "") === "paulista";
}

/** A card as a table of these options draws it: the French deck at Paulista, else the Spanish. */
export function tableCard(options: Options | null | undefined, code: CardCode | null, label?: string): Html {
  return isPaulista(options) ? frenchSvg(code, label) : cardSvg(code, label);
}

/** The back of a card at a table of these options. */
export function tableBack(options: Options | null | undefined, label?: string): Html {
  return isPaulista(options) ? frenchBack(label) : cardBack(label);
}

/** The scoreboard of a Paulista table: each side's 12 tentos, ours first. */
export function tentosBoard(view: View, viewer: number | null, table: TableInfo | null): Html {
  const target = view.options.target;
  const teams = [0, 1];
  if (viewer !== null && teamOf(viewer, view) === 1) teams.reverse();
  const boards = teams.map((team) => {
    const score = view.score[team] ?? 0;
    const label = teamLabel(team, viewer, null, table);
    const side = viewer === null ? "" : team === teamOf(viewer, view) ? " ours" : " theirs";
    const onze = score === target - 1;
    return html`<div class="team team-${team}${side}${onze ? " at-onze" : ""}">
      <div class="team-head"><span class="team-name">${label}</span>
      <span class="team-score" data-score="${score}">${score}</span>
      ${onze && html`<span class="team-half">${t("mao_de_onze")}</span>`}
      </div>${tentosSvg(score, target, `${label}: ${t("tentos_n", { n: score, target })}`)}</div>`;
  });
  return html`<div class="scoreboard tentos-board${viewer !== null ? " seated" : ""}">${boards}<div class="target">${t("tentos_target", { n: target })}</div></div>`;
}
