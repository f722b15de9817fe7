// The modals: the summary of the hand just played, and the end of the match.

import { analyseLink } from "./analysis";
import { trickCard } from "./board";
import { type Html, html, join, NOTHING } from "./html";
import { cardName, t, trickName } from "./i18n";
import { scorerLabel, seatName, teamLabel } from "./names";
import { tableCard } from "./paulista";
import { type GameState, type HandSummary, teamOf } from "./protocol";
import { scoreboard } from "./score";
import type { TableInfo } from "./types";
import { handWhy, scoredReason } from "./words";

export function summaryModal(s: HandSummary, state: GameState, handHref: string): Html {
  const viewer = state.seat;
  const tricks = s.tricks.map((trick, i) => {
    const result = s.results[i];
    const res =
      result === undefined ? "" : result === -1 ? t("parda") : t("won_by", { team: teamLabel(result, viewer, s.view, state.table) });
    return html`<div class="sum-trick"><span class="sum-label">${trickName(i)}</span>
      ${trick.map(
        (play) =>
          html`<span class="sum-card${play[2] ? " face-down" : ""}" title="${seatName(state.table, play[0])}">${trickCard(play, s.view.options)}<small>${seatName(state.table, play[0])}</small></span>`,
      )}
      <span class="sum-res">${res}</span></div>`;
  });
  const declared = s.declared.map(
    ([seat, pts, flor]) =>
      html`<li>${seatName(state.table, seat)}: ${pts === null ? t("son_buenas") : flor ? t("flor_declares", { n: pts }) : String(pts)}</li>`,
  );
  const shown = s.shown.map(
    ([seat, cards]) =>
      html`<div class="sum-shown"><span>${seatName(state.table, seat)}</span>${cards.map((c) => html`<span class="sum-card">${tableCard(s.view.options, c, cardName(c))}</span>`)}</div>`,
  );
  const calls = (s.history ?? []).filter(([, a]) => !/^(play|tapada|discard|quiero|no-quiero|mazo|desce|corre|joga|cega)\b/.test(a)).map(([, a]) => a);
  const scored = s.scored.map(
    (x) => html`<li>${scorerLabel(x.team, viewer, s.view, state.table)}: +${x.points} ${scoredReason(x.reason, calls)}</li>`,
  );
  const who = (seat: number) => seatName(state.table, seat);
  const passed = s.passed.map(
    (x) =>
      html`<li class="passed">${x.to >= 0 ? t("passes", { from: who(x.seat), n: x.points, to: who(x.to) }) : t("passes_pot", { from: who(x.seat), n: x.points })} (${scoredReason(x.reason, calls)})</li>`,
  );
  const why = handWhy(s.story, viewer, s.view, state.table);
  const line = (values: number[]) => join(values.map((p, i) => `${scorerLabel(i, viewer, s.view, state.table)} ${p}`), " · ");
  // A panel beside the table, never over it: the next hand goes on while it is open.
  return html`<section class="summary-panel"><div class="modal summary" role="region" aria-label="${t("summary", { n: s.hand })}">
    <h2>${t("summary", { n: s.hand })}</h2>
    ${why && html`<p class="sum-why">${why.who !== null && html`<b>${why.who}</b>: `}${why.text}</p>`}
    ${tricks.length > 0 && html`<h3>${t("tricks")}</h3>${tricks}`}
    ${declared.length > 0 && html`<h3>${t("declared")}</h3><ul>${declared}</ul>`}
    ${shown.length > 0 && html`<h3>${t("shown")}</h3>${shown}`}
    <h3>${t("hand_points")}</h3><ul>${scored}${passed}</ul>
    <p class="sum-total"><span class="sum-tag">${t("this_hand")}:</span> ${line(s.points)}</p>
    <p class="sum-score"><span class="sum-tag">${t("score_now")}:</span> ${line(s.score ?? [])}</p>
    <div class="modal-buttons"><a class="button ghost" href="${handHref}" download>${t("download_hand", { n: s.hand })}</a>
    ${viewer !== null && state.table && analyseLink(state.table.table, s.hand)}
    <button data-cmd="close-summary">${t("close")}</button></div>
    </div></section>`;
}

export function matchOverModal(state: GameState, matchHref: string, rematchAsked: boolean): Html {
  const over = state.matchOver;
  const view = state.view;
  if (!over || !view) return NOTHING;
  const viewer = state.seat;
  // 1 vs 1 is a duel: "¡Ganaste!" or the rival's name, as where scores are individual.
  const duel = view.options.players === 2;
  const title = view.individual || duel
    ? over.winner === (viewer !== null && duel ? teamOf(viewer) : viewer)
      ? t("winner_you")
      : t("winner_name", { name: seatName(state.table, over.winner) })
    : viewer === null
      ? t("winner_name", { name: teamLabel(over.winner, null, view, state.table) })
      : over.winner === teamOf(viewer)
        ? t("winner_us")
        : t("winner_them");
  return html`<div class="modal-back"><div class="modal match-over" role="dialog" aria-label="${t("match_over")}">
    <h2>${t("match_over")}</h2><p class="big">${title}</p>
    ${scoreboard({ ...view, score: over.score, winner: over.winner }, viewer, state.table)}
    ${ratedLines(state)}
    ${rematchLine(state.table)}
    <div class="modal-buttons"><a class="button ghost" href="${matchHref}" download>${t("download_match")}</a>
    ${viewer !== null && state.table && view.hand > 0 && analyseLink(state.table.table, view.hand)}
    ${state.table && html`<a class="button ghost replay-link" href="/r/${encodeURIComponent(state.table.table)}">${t("replay_open")}</a>`}
    ${viewer !== null && html`<button data-cmd="rematch" class="primary"${rematchAsked && " disabled"}>${rematchAsked ? t("rematch_asked") : t("rematch")}</button>`}
    </div></div></div>`;
}

function rematchLine(table: TableInfo | null): Html {
  const asked = (table?.seats ?? []).filter((s) => s.rematch && s.kind === "human");
  if (!asked.length) return NOTHING;
  return html`<p class="muted">${t("rematch")}: ${asked.map((s) => s.name ?? "").join(", ")} ✓</p>`;
}

/** A rated match's rating changes: "Ana +12 → 1534" (a person who left: a loss, said so). */
export function ratedLines(state: GameState): Html {
  const rated = state.rated;
  if (!rated || rated.changes.length === 0) return NOTHING;
  const rows = rated.changes.map((c) => {
    const delta = c.after - c.before;
    const sign = delta > 0 ? "+" : delta < 0 ? "−" : "±";
    return html`<li class="${c.seat === state.seat ? "mine" : ""}"><a href="/jugador/${encodeURIComponent(c.name)}">${c.name}</a>
      <b class="delta ${delta >= 0 ? "up" : "down"}">${sign}${Math.abs(delta)}</b> → <span class="rating-after">${c.after}${c.provisional && "?"}</span>
      ${c.left && html` <small class="muted">(${t("rating_left")})</small>`}</li>`;
  });
  return html`<div class="rated-changes"><h3>${t("rating_changes", { mode: rated.mode })}</h3><ul>${rows}</ul>
    <p><a href="${`/ranking?mode=${encodeURIComponent(rated.mode)}`}">${t("ranking")}</a></p></div>`;
}
