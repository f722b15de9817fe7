// The coach in the browser: a finished hand's analysis (docs/coach.md) drawn over the replay.
// "Analizar" (the hand's summary, the end of the match) opens the hand's replay with `?analizar`;
// each of the viewer's decisions is marked beside its play with its label (la mejor,
// imprecisión, error, error grave), and the step of a decision shows what was played, the
// expert's choice and a bar chart of the alternatives' match-win equity (SVG: the page's
// policy allows no inline styles). The markup functions are pure, for the tests.

import { ApiError, analyseHand } from "./api";
import { type Html, html, NOTHING } from "./html";
import { actionLabel, cardName, t } from "./i18n";
import { errorText } from "./page";

export type Label = "best" | "imprecisión" | "error" | "error grave";

export interface OptionValue {
  action: string;
  equity: number;
}

/** One decision as the server (and `truco analizar --json`) gives it. */
export interface Decision {
  hand: number;
  /** The action's index in the hand (from 0): the replay's step `index + 1`. */
  index: number;
  seat: number;
  played: string;
  best: string;
  label: Label;
  loss: number;
  /** Every legal action, best first. */
  options: OptionValue[];
  /** Absent during the match (it would tell hidden cards); null past the search's budget. */
  face_up?: { best: string; equity: number; played_equity: number } | null;
}

export interface Analysis {
  table: string;
  hand: number;
  seat: number;
  seed: number;
  worlds: number;
  face_up: boolean;
  decisions: Decision[];
}

const SLUG: Record<Label, string> = { best: "best", imprecisión: "imprecision", error: "error", "error grave": "blunder" };
const WORD = {
  best: "an_best_label",
  imprecisión: "an_imprecision",
  error: "an_error",
  "error grave": "an_blunder",
} as const;
/** Alternatives drawn per decision (the rest are worse still). */
const SHOWN = 6;

function pct(x: number): string {
  return `${(100 * x).toFixed(1)}%`;
}

/** The label's word ("la mejor", "error grave"; in English "best", "blunder"). */
export function labelWord(label: Label): string {
  return t(WORD[label] ?? "an_error");
}

/** The mark beside a decision's play in the list of plays. */
export function decisionMark(d: Decision): Html {
  const slug = SLUG[d.label] ?? "error";
  return html`<span class="an-mark an-${slug}" data-label="${d.label}" title="${t("an_loss", { pct: pct(d.loss) })}">${labelWord(d.label)}</span>`;
}

/** The alternatives as bars: each one's match-win equity, the worst shown at a tenth of the
 * width so that differences of a few points stand out; the played one and the best marked. */
export function optionBars(d: Decision): Html {
  const options = d.options.slice(0, SHOWN);
  if (!options.some((o) => o.action === d.played)) {
    const played = d.options.find((o) => o.action === d.played);
    if (played) options[options.length - 1] = played;
  }
  const values = d.options.map((o) => o.equity);
  const top = Math.max(...values);
  const low = Math.min(...values);
  const width = (x: number) => (top > low ? 10 + (90 * (x - low)) / (top - low) : 100);
  const rows = options.map((o) => {
    const cls = ["an-bar"];
    if (o.action === d.best) cls.push("best");
    if (o.action === d.played) cls.push("played");
    return html`<li class="${cls.join(" ")}" data-action="${o.action}"><span class="an-action">${actionLabel(o.action)}</span>
      <svg class="an-svg" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true"><rect x="0" y="0" width="${width(o.equity).toFixed(1)}" height="10"></rect></svg>
      <span class="an-equity">${pct(o.equity)}</span></li>`;
  });
  return html`<ol class="an-bars" aria-label="${t("an_bars")}">${rows}</ol>`;
}

/** What the face-up line says, or why it is not there. */
function faceUpLine(d: Decision): Html {
  const f = d.face_up;
  if (f === undefined) return html`<p class="an-face-up muted">${t("an_face_up_hidden")}</p>`;
  if (f === null) return html`<p class="an-face-up muted">${t("an_face_up_unknown")}</p>`;
  const text =
    f.best === d.played
      ? t("an_face_up_same", { pct: pct(f.equity) })
      : t("an_face_up", { action: actionLabel(f.best), pct: pct(f.equity), played: pct(f.played_equity) });
  return html`<p class="an-face-up">${text}</p>`;
}

/** What the player did, said to him: "Jugaste 3 de oro", a card played face down by its name
 *  ("Jugaste tapada: 3 de oro": it is his own), a call by its words ("Jugaste Truco"). */
export function playedWords(action: string): string {
  const [verb, card] = action.split(" ");
  if (verb === "play" && card) return t("an_played", { action: cardName(card) });
  if (verb === "tapada" && card && card !== "??") return t("an_played_tapada", { card: cardName(card) });
  return t("an_played", { action: actionLabel(action) });
}

/** One decision in full: its label, what was played, the expert's choice, the bars. */
export function decisionPanel(d: Decision): Html {
  const best = d.best === d.played ? NOTHING : html` · ${t("an_expert", { action: actionLabel(d.best) })}`;
  return html`<section class="an-decision an-${SLUG[d.label] ?? "error"}" aria-label="${t("an_title")}">
    <p class="an-head">${decisionMark(d)} <span>${playedWords(d.played)}${best}</span>
    ${d.loss > 0 && html` <span class="an-loss">${t("an_loss", { pct: pct(d.loss) })}</span>`}</p>
    ${optionBars(d)}${faceUpLine(d)}</section>`;
}

/** The hand's decisions at a glance, each a link to its step of the replay. */
export function decisionsList(a: Analysis, step: number | null): Html {
  if (a.decisions.length === 0) return html`<p class="muted">${t("an_none")}</p>`;
  const items = a.decisions.map(
    (d) =>
      html`<li><a href="#" data-replay-step="${d.index + 1}" class="${d.index + 1 === step ? "current" : ""}">${actionLabel(d.played)}</a> ${decisionMark(d)}</li>`,
  );
  return html`<ol class="an-list">${items}</ol>`;
}

/** Under the board at replay step `step`: that step's decision in full (if it is one of the
 * viewer's), and the list of the hand's decisions. */
export function analysisPanel(state: AnalysisState | undefined, step: number): Html {
  if (!state) return NOTHING;
  const title = html`<h2>${t("an_title")}</h2>`;
  if (state.error !== null) return html`<section class="analysis">${title}<p class="an-problem">${state.error}</p></section>`;
  const a = state.analysis;
  if (!a) return html`<section class="analysis">${title}<p class="muted an-loading">${t("an_loading")}</p></section>`;
  const here = a.decisions.find((d) => d.index + 1 === step);
  return html`<section class="analysis">${title}${here ? decisionPanel(here) : html`<p class="muted">${t("an_pick")}</p>`}
    ${decisionsList(a, step)}</section>`;
}

/** A hand's analysis as the page holds it: asked for, arrived, or refused. */
export interface AnalysisState {
  analysis: Analysis | null;
  error: string | null;
}

const analyses = new Map<string, AnalysisState>();

function key(table: string, hand: number, seat: number): string {
  return `${table}/${hand}/${seat}`;
}

/** The analysis of `seat`'s decisions in hand `hand`, as far as it has come. */
export function analysisOf(table: string, hand: number, seat: number): AnalysisState | undefined {
  return analyses.get(key(table, hand, seat));
}

/** Ask for an analysis once (a refused one may be asked again); resolves when it settles. */
export async function fetchAnalysis(table: string, hand: number, seat: number, token: string | null): Promise<void> {
  const k = key(table, hand, seat);
  const known = analyses.get(k);
  if (known && known.error === null) return;
  analyses.set(k, { analysis: null, error: null });
  try {
    const a = await analyseHand<Analysis>(table, hand, seat, token);
    analyses.set(k, { analysis: a, error: null });
  } catch (e) {
    analyses.set(k, { analysis: null, error: e instanceof ApiError ? errorText(e.code, e.message) : t("err_network") });
  }
}

/** The address that opens hand `hand` of a table's replay with the analysis on. */
export function analysisHref(table: string, hand: number): string {
  return `/r/${encodeURIComponent(table)}/${hand}/0?analizar`;
}

/** The "Analizar" link of a finished hand (it opens another tab: the table plays on here). */
export function analyseLink(table: string, hand: number): Html {
  return html`<a class="button ghost analyse-link" href="${analysisHref(table, hand)}" target="_blank" rel="noopener" title="${t("an_link_title")}">${t("analizar")}</a>`;
}
