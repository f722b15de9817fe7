// The scoreboard: fósforos per team (malas and buenas), per player where scores are individual,
// or destantado's porotos.

import { fosforosSvg, inBuenas } from "./fosforos";
import { type Html, html } from "./html";
import { t } from "./i18n";
import { VARIANT_RULES } from "./generated";
import { teamOf, variantOf } from "./protocol";
import { scorerLabel, teamLabel } from "./names";
import { isPaulista, tentosBoard } from "./paulista";
import type { TableInfo, View } from "./types";

/** Destantado's pile of porotos, one bean each. */
export function porotosPile(n: number): Html {
  const beans = Array.from({ length: Math.max(0, Math.min(n, 40)) }, () => html`<span class="poroto"></span>`);
  return html`<span class="porotos" data-porotos="${n}" title="${t("porotos_n", { n })}">${beans}</span>`;
}

function playerBoards(view: View, viewer: number | null, table: TableInfo | null): Html {
  const n = view.score.length;
  const target = view.options.target;
  const destantado = VARIANT_RULES[variantOf(view.options)].piles;
  const order = Array.from({ length: n }, (_, i) => (i + (viewer ?? 0)) % n);
  const boards = order.map((seat) => {
    const score = view.score[seat] ?? 0;
    const label = scorerLabel(seat, viewer, view, table);
    const drawing = destantado ? porotosPile(score) : fosforosSvg(score, target, `${label}: ${score}`, view.half);
    const cls = `team player${seat === viewer ? " ours" : ""}${view.pie === seat ? " is-pie" : ""}${view.winner === seat ? " winner" : ""}`;
    return html`<div class="${cls}" data-seat="${seat}">
      <div class="team-head"><span class="team-name">${label}</span>${view.pie === seat && html`<span class="badge pie">${t("pie")}</span>`}
      <span class="team-score" data-score="${score}">${score}</span></div>${drawing}</div>`;
  });
  return html`<div class="scoreboard players">${boards}
    <div class="target">${destantado ? t("first_to_empty") : `${t("target")}: ${target}`}</div>
    </div>`;
}

export function scoreboard(view: View, viewer: number | null, table: TableInfo | null = null): Html {
  if (view.individual) return playerBoards(view, viewer, table);
  if (isPaulista(view.options)) return tentosBoard(view, viewer, table);
  const target = view.options.target;
  const half = view.half;
  const teams = [0, 1];
  // The viewer's team first.
  if (viewer !== null && teamOf(viewer) === 1) teams.reverse();
  const boards = teams.map((team) => {
    const score = view.score[team] ?? 0;
    const label = teamLabel(team, viewer, null, table);
    const state = half === null ? "" : inBuenas(score, target, half) ? t("buenas") : t("malas");
    const side = viewer === null ? "" : team === teamOf(viewer) ? " ours" : " theirs";
    return html`<div class="team team-${team}${side}">
      <div class="team-head"><span class="team-name">${label}</span>
      <span class="team-score" data-score="${score}">${score}</span>
      ${state && html`<span class="team-half">${state}</span>`}
      </div>${fosforosSvg(score, target, `${label}: ${score}`, half)}</div>`;
  });
  return html`<div class="scoreboard${viewer !== null ? " seated" : ""}">${boards}<div class="target">${t("target")}: ${target}</div></div>`;
}
