// The analysis drawn over the replay (replay.ts's overlays): "Analizar" opens
// `/r/ID/HAND/0?analizar` in a tab of its own (the table plays on in the first one); there each
// hand's analysis of the viewer's seat is asked for when the hand's frames arrive, every one of
// the viewer's decisions is marked beside its play, and the step of a decision shows it in full.
// A replay opened without `?analizar` asks for nothing: an analysis is a search on the server.

import { analysisOf, analysisPanel, decisionMark, fetchAnalysis } from "./analysis";
import { NOTHING } from "./html";
import { addReplayOverlay, go, type ReplayContext, type ReplayOverlay } from "./replay";
import { parseReplayPath } from "./replayView";
import { store } from "./storage";

/** Tables whose replay shows the analysis in this tab. */
const wanted = new Set<string>();
/** The hand the tab was opened at, whose replay goes to the first decision once it is known. */
let opening: { table: string; hand: number } | null = null;

function seatOf(table: string): number | null {
  return store.seat(table)?.seat ?? null;
}

function decisionAt(ctx: ReplayContext, step: number) {
  const seat = seatOf(ctx.match.table);
  if (seat === null || !wanted.has(ctx.match.table)) return undefined;
  return analysisOf(ctx.match.table, ctx.hand.hand, seat)?.analysis?.decisions.find((d) => d.index + 1 === step);
}

const overlay: ReplayOverlay = {
  load(match, hand) {
    const seat = seatOf(match.table);
    if (seat === null || !wanted.has(match.table)) return;
    return fetchAnalysis(match.table, hand.hand, seat, store.seat(match.table)?.token ?? null).then(() => {
      const first = analysisOf(match.table, hand.hand, seat)?.analysis?.decisions[0];
      if (opening?.table === match.table && opening.hand === hand.hand && first) {
        opening = null;
        go({ hand: hand.hand, step: first.index + 1 });
      }
    });
  },
  mark(ctx, step) {
    const d = decisionAt(ctx, step);
    return d ? decisionMark(d) : NOTHING;
  },
  panel(ctx) {
    const seat = seatOf(ctx.match.table);
    if (seat === null || !wanted.has(ctx.match.table)) return NOTHING;
    return analysisPanel(analysisOf(ctx.match.table, ctx.hand.hand, seat), ctx.pos.step);
  },
};

/** Register the overlay (main.ts, before the first route: the replay drops `?analizar` from the
 * address as soon as it shows a step). */
export function installAnalysis(loc: { pathname: string; search: string } = location): void {
  const found = parseReplayPath(loc.pathname);
  if (found && new URLSearchParams(loc.search).has("analizar")) {
    wanted.add(found.id);
    opening = { table: found.id, hand: found.pos?.hand ?? 1 };
  }
  addReplayOverlay(overlay);
}
