// What a Truco Paulista table looks like: its French-suited cards, its score in tentos, and the
// language it speaks (pt-BR). The table's facts (the vira, the manilhas, the mão de onze) come from
// the view; this module only draws them.

import { cardBack, cardSvg } from "./cards";
import { frenchBack, frenchLabel, frenchSvg } from "./frenchcards";
import { type Html, html, NOTHING } from "./html";
import { cardName, t } from "./i18n";
import { seatName, teamLabel } from "./names";
import { ONZE_RUN, ONZE_VALUE, VARIANT_RULES } from "./generated";
import { teamOf, variantOf } from "./protocol";
import { tentosSvg } from "./tentos";
import type { CardCode, Options, TableInfo, View } from "./types";

/** Whether a table plays Truco Paulista (its options name the game, or a variant of it). */
export function isPaulista(options: Options | null | undefined): boolean {
  if (!options) return false;
  return options.game === "paulista" || VARIANT_RULES[variantOf(options)]?.game === "paulista";
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
    const onze = view.at_onze[team] ?? false;
    return html`<div class="team team-${team}${side}${onze ? " at-onze" : ""}">
      <div class="team-head"><span class="team-name">${label}</span>
      <span class="team-score" data-score="${score}">${score}</span>
      ${onze && html`<span class="team-half">${t("mao_de_onze")}</span>`}
      </div>${tentosSvg(score, target, `${label}: ${t("tentos_n", { n: score, target })}`, view.onze_at)}</div>`;
  });
  return html`<div class="scoreboard tentos-board${viewer !== null ? " seated" : ""}">${boards}<div class="target">${t("tentos_target", { n: target })}</div></div>`;
}

/** A rank by its name at the table: "5", "Dama", "Valete", "Rei", "Ás". */
export function rankName(code: CardCode): string {
  const rank = Number(/^(\d+)/.exec(code)?.[1] ?? 0);
  const key = ({ 1: "rank_a", 10: "rank_q", 11: "rank_j", 12: "rank_k" } as const)[rank as 1 | 10 | 11 | 12];
  return key ? t(key) : String(rank);
}

/** The name of a manilha, by its place among the four (strongest first): Zap, Copeta,
 * Espadilha, Pica-fumo; null for another card. */
export function manilhaName(view: View, code: CardCode): string | null {
  const i = view.manilhas.indexOf(code);
  if (i < 0) return null;
  return t((["manilha_b", "manilha_c", "manilha_e", "manilha_o"] as const)[i] ?? "manilha_o");
}

/** The vira beside the table, and the manilhas it makes named by their rank ("Manilha: 5"); with
 * the manilha velha, the four fixed ones. */
export function viraPanel(view: View): Html {
  if (!isPaulista(view.options) || view.hand === 0 || view.manilhas.length === 0) return NOTHING;
  if (view.vira !== null) {
    const manilha = view.manilhas[0] ?? "";
    return html`<div class="vira-panel" data-vira="${view.vira}" data-manilha="${manilha}">
      <div class="vira-text"><span class="vira-label">${t("vira")}</span>
      <span class="manilha">${t("manilha_is", { rank: rankName(manilha) })}</span></div>
      <div class="vira-card">${frenchSvg(view.vira, `${t("vira")}: ${cardName(view.vira)}`)}</div></div>`;
  }
  const fixed = view.manilhas.map((c) => html`<span class="manilha" data-card="${c}">${manilhaName(view, c)} ${frenchLabel(c)}</span>`);
  return html`<div class="vira-panel velha"><div class="vira-text"><span class="vira-label">${t("manilhas_fixed")}</span>${fixed}</div></div>`;
}

/** Over the viewer's cards: the mão de onze (the partners' cards to look at before deciding),
 * the mão de ferro. */
export function onzeNotes(view: View, seat: number, table: TableInfo | null): Html {
  if (!isPaulista(view.options) || view.phase !== "play") return NOTHING;
  const parts: Html[] = [];
  if (view.ferro) parts.push(html`<div class="hint onze-hint ferro" role="status"><b>${t("mao_de_ferro")}</b>: ${t("mao_de_ferro_hint", { at: view.onze_at ?? "" })}</div>`);
  else if (view.onze_call === seat) parts.push(html`<div class="hint onze-hint" role="status"><b>${t("mao_de_onze")}</b>: ${t("mao_de_onze_hint", { at: view.onze_at ?? "", value: ONZE_VALUE, run: ONZE_RUN })}</div>`);
  else if (view.onze >= 0) parts.push(html`<div class="hint onze-note">${t("mao_de_onze")} · ${teamLabel(view.onze, seat, view, table)}</div>`);
  for (const [partner, cards] of view.partners) {
    if (cards.length === 0) continue;
    parts.push(html`<div class="partner-cards" data-partner="${partner}"><span>${t("partner_cards", { name: seatName(table, partner) })}</span>
      ${cards.map((c) => html`<span class="partner-card">${frenchSvg(c, cardName(c))}</span>`)}</div>`);
  }
  return html`${parts}`;
}
