// The players' pages (docs/players.md): the ranking of each mode (/ranking?mode=1v1) and a
// player's page (/jugador/NAME) with his ratings, the history of each drawn as an SVG line, and
// the rated matches he played, each linking to its replay (/r/TABLE, the replay viewer's page).

import { ApiError, getLeaderboard, getPlayer, type HistoryPoint, type LeaderboardRow, PERIODS, type Period, type PlayerInfo, type Someone } from "./api";
import { loadFollow } from "./friends";
import { type Html, html, mount, NOTHING } from "./html";
import { getLang, t } from "./i18n";
import { header, root } from "./page";

export const MODES = ["1v1", "2v2", "3v3"] as const;
export type Mode = (typeof MODES)[number];

export type { HistoryPoint, Leaderboard, LeaderboardRow, ModeRating, PlayedMatch, PlayerInfo, Someone } from "./api";

export const PAGE = 50;

function modeOf(search: string): Mode {
  const m = new URLSearchParams(search).get("mode");
  return (MODES as readonly string[]).includes(m ?? "") ? (m as Mode) : "1v1";
}

export function periodOf(search: string): Period {
  const p = new URLSearchParams(search).get("period");
  return (PERIODS as readonly string[]).includes(p ?? "") ? (p as Period) : "all";
}

function rankingHref(mode: Mode, period: Period): string {
  return `/ranking?mode=${mode}${period === "all" ? "" : `&period=${period}`}`;
}

/** Draw the page of `path` if it is one of these; returns whether it was (router.ts). */
export function openRatingPage(path: string, search: string): boolean {
  if (/^\/ranking\/?$/.test(path)) {
    void openRanking(modeOf(search), periodOf(search));
    return true;
  }
  const m = /^\/jugador\/([^/]+)\/?$/.exec(path);
  if (m?.[1]) {
    let name = m[1];
    try {
      name = decodeURIComponent(name);
    } catch {
      /* a malformed address: looked up as it is */
    }
    void openPlayer(name);
    return true;
  }
  return false;
}

async function openRanking(mode: Mode, period: Period): Promise<void> {
  document.title = `${t("ranking")} · ${t("title")}`;
  mount(root(), rankingPage(mode, null, "", period));
  try {
    const board = await getLeaderboard(mode, 0, PAGE, period);
    mount(root(), rankingPage(mode, board.players, "", period));
  } catch {
    mount(root(), rankingPage(mode, null, t("err_network"), period));
  }
}

async function openPlayer(name: string): Promise<void> {
  document.title = `${name} · ${t("title")}`;
  mount(root(), playerPage(name, null));
  try {
    const info = await getPlayer(name);
    mount(root(), playerPage(info.name, info));
    void loadFollow(info.name);
  } catch (e) {
    const why = e instanceof ApiError && e.status === 404 ? t("player_not_found") : t("err_network");
    mount(root(), playerPage(name, null, why));
  }
}

function shownRating(rating: number, provisional: boolean): string {
  return `${rating}${provisional ? "?" : ""}`;
}

/** The ranking of `mode` in `period`: tabs for the modes and the periods, then its players (null:
 * still loading). All-time the players go by rating; in a week or a month by the points won in it. */
export function rankingPage(mode: Mode, players: LeaderboardRow[] | null, problem = "", period: Period = "all"): Html {
  const tabs = MODES.map(
    (m) => html`<a class="tab${m === mode ? " on" : ""}" href="${rankingHref(m, period)}"${m === mode && html` aria-current="page"`}>${m}</a>`,
  );
  const periods = PERIODS.map(
    (p) => html`<a class="tab period${p === period ? " on" : ""}" href="${rankingHref(mode, p)}"${p === period && html` aria-current="page"`}>${t(`period_${p}`)}</a>`,
  );
  let body: Html;
  if (problem) body = html`<p class="muted">${problem}</p>`;
  else if (players === null) body = html`<p class="muted">${t("connecting")}</p>`;
  else if (players.length === 0) body = html`<p class="muted">${t(period === "all" ? "ranking_empty" : "ranking_period_empty")}</p>`;
  else if (period === "all") {
    const rows = players.map(
      (p, i) => html`<tr><td>${i + 1}</td><td><a href="/jugador/${encodeURIComponent(p.name)}">${p.name}</a></td>
        <td class="num"${p.provisional && html` title="${t("provisional")}"`}>${shownRating(p.rating, p.provisional)}</td><td class="num">${p.matches}</td></tr>`,
    );
    body = html`<table class="ranking"><thead><tr><th>${t("rank_pos")}</th><th>${t("rank_name")}</th><th>${t("rank_rating")}</th><th>${t("rank_matches")}</th></tr></thead>
      <tbody>${rows}</tbody></table>`;
  } else {
    const rows = players.map(
      (p, i) => html`<tr><td>${i + 1}</td><td><a href="/jugador/${encodeURIComponent(p.name)}">${p.name}</a></td>
        <td class="num">${signed(p.gained ?? 0)}</td><td class="num">${p.won ?? 0}/${p.matches}</td>
        <td class="num"${p.provisional && html` title="${t("provisional")}"`}>${shownRating(p.rating, p.provisional)}</td></tr>`,
    );
    body = html`<table class="ranking"><thead><tr><th>${t("rank_pos")}</th><th>${t("rank_name")}</th><th>${t("rank_gained")}</th><th>${t("rank_won")}</th><th>${t("rank_rating")}</th></tr></thead>
      <tbody>${rows}</tbody></table>`;
  }
  return html`${header()}<main class="players-page"><section class="card-panel"><h2>${t("ranking")}</h2>
    <nav class="tabs">${tabs}</nav><nav class="tabs periods">${periods}</nav>${body}</section></main>`;
}

function signed(n: number): string {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0";
}

/** The line of a rating's history, drawn in a `width` x `height` box: each match one step to
 * the right, the ratings scaled between the lowest and the highest. */
export function ratingChart(points: readonly HistoryPoint[], width = 320, height = 120): Html {
  if (points.length === 0) return NOTHING;
  const pad = 6;
  const values = points.map((p) => p.rating);
  const low = Math.min(...values);
  const high = Math.max(...values);
  const span = Math.max(high - low, 1);
  const step = points.length > 1 ? (width - 2 * pad) / (points.length - 1) : 0;
  const xy = points.map((p, i) => {
    const x = pad + i * step;
    const y = height - pad - ((p.rating - low) / span) * (height - 2 * pad);
    return [Math.round(x * 10) / 10, Math.round(y * 10) / 10] as const;
  });
  const line = xy.map(([x, y]) => `${x},${y}`).join(" ");
  const last = xy[xy.length - 1] ?? [pad, height / 2];
  return html`<svg class="rating-chart" viewBox="0 0 ${width} ${height}" role="img" aria-label="${t("rating_history")}: ${low}–${high}">
    <line class="axis" x1="${pad}" y1="${height - pad}" x2="${width - pad}" y2="${height - pad}"></line>
    <polyline class="rating-line" points="${line}"></polyline>
    <circle class="rating-now" cx="${last[0]}" cy="${last[1]}" r="3"></circle>
    <text class="chart-label" x="${pad}" y="12">${high}</text><text class="chart-label" x="${pad}" y="${height - pad - 2}">${low}</text></svg>`;
}

function someone(s: Someone): Html {
  if (s.level) return html`<span class="bot-name">${s.name} (${t("bot")})</span>`;
  return html`<a href="/jugador/${encodeURIComponent(s.name)}">${s.name}</a>`;
}

function list(people: readonly Someone[]): Html {
  return html`${people.map((s, i) => html`${i > 0 && ", "}${someone(s)}`)}`;
}

function date(at: string): string {
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? at : d.toLocaleDateString(getLang() === "es" ? "es-AR" : "en-GB");
}

/** A player's page (null: still loading, or `problem` says why not). */
export function playerPage(name: string, info: PlayerInfo | null, problem = ""): Html {
  let body: Html;
  if (problem) body = html`<p class="muted">${problem}</p>`;
  else if (info === null) body = html`<p class="muted">${t("connecting")}</p>`;
  else {
    const modes = MODES.filter((m) => info.ratings[m]);
    const ratings = modes.map((m) => {
      const r = info.ratings[m]!;
      return html`<div class="mode-rating"><span class="mode">${m}</span><b>${shownRating(r.rating, r.provisional)}</b>
        <small class="muted">${r.matches === 1 ? t("one_match") : t("n_matches", { n: r.matches })}${r.provisional && ` · ${t("provisional")}`}</small>
        ${ratingChart(info.history[m] ?? [])}</div>`;
    });
    const rows = info.matches.map((mt) => {
      const delta = mt.after - mt.before;
      return html`<tr class="${mt.result}"><td>${date(mt.at)}</td><td>${mt.mode}</td><td>${t(`result_${mt.result}`)}</td>
        <td class="num">${delta >= 0 ? "+" : "−"}${Math.abs(delta)} → ${mt.after}</td>
        <td>${list(mt.partners)}</td><td>${list(mt.rivals)}</td>
        <td><a href="${mt.replay}">${t("replay_open")}</a></td></tr>`;
    });
    body = html`${modes.length > 0 && html`<div class="mode-ratings">${ratings}</div>`}
      <h3>${t("matches_played")}</h3>
      ${rows.length === 0
        ? html`<p class="muted">${t("no_matches")}</p>`
        : html`<table class="matches"><thead><tr><th>${t("date")}</th><th>${t("mode")}</th><th>${t("result")}</th><th>${t("rank_rating")}</th>
          <th>${t("partners")}</th><th>${t("rivals")}</th><th></th></tr></thead><tbody>${rows}</tbody></table>`}`;
  }
  return html`${header()}<main class="players-page"><section class="card-panel"><h2>${name}</h2>
    ${info !== null && html`<p class="follow" id="follow"></p>`}<p><a href="/ranking">${t("ranking")}</a></p>${body}</section></main>`;
}
