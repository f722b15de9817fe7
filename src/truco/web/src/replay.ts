// The replay page: `/r/ID` and `/r/ID/HAND/STEP`. A finished match hand by hand and action by
// action, forward and back, every card face up; during the match, to its players, the finished
// hands as each saw them. The address follows every step, so a moment can be shared.
//
// Other modules add to it per step through `addReplayOverlay` (the analysis' decision marks):
// a panel under the board, a mark beside each play, and a `load` called when a hand is shown.

import { ApiError, getReplay, getReplayHand } from "./api";
import { mount } from "./html";
import { t } from "./i18n";
import { errorText, root } from "./page";
import {
  type Position,
  type ReplayHand,
  type ReplayMatch,
  type ReplayOverlay,
  clampPosition,
  keyMove,
  move,
  parseReplayPath,
  replayBody,
  replayPath,
} from "./replayView";
import { store } from "./storage";
import { leaveTable } from "./table";

export type { Position, ReplayContext, ReplayFrame, ReplayHand, ReplayMatch, ReplayOverlay } from "./replayView";

interface Replay {
  id: string | null;
  match: ReplayMatch | null;
  /** Each hand's frames once fetched (a finished hand never changes). */
  hands: Map<number, ReplayHand>;
  pos: Position;
  problem: string | null;
}

const rs: Replay = { id: null, match: null, hands: new Map(), pos: { hand: 1, step: 0 }, problem: null };
const overlays: ReplayOverlay[] = [];
let listening = false;

/** Add an overlay to every replay (returns what removes it). The page is drawn again at once. */
export function addReplayOverlay(overlay: ReplayOverlay): () => void {
  overlays.push(overlay);
  redrawReplay();
  return () => {
    const i = overlays.indexOf(overlay);
    if (i >= 0) overlays.splice(i, 1);
    redrawReplay();
  };
}

function onReplay(): boolean {
  return rs.id !== null && parseReplayPath(location.pathname)?.id === rs.id;
}

/** Draw the replay again (an overlay's data arrived); nothing if the replay is not on screen. */
export function redrawReplay(): void {
  if (!onReplay()) return;
  const hand = rs.hands.get(rs.pos.hand) ?? null;
  mount(root(), replayBody(rs.match, hand, rs.pos, location.origin, overlays, rs.problem));
  root().querySelector(".replay-step.current")?.scrollIntoView?.({ block: "nearest" });
}

/** Open the replay if `path` is one of its addresses; false otherwise (router.ts). */
export function openReplayAt(path: string): boolean {
  const found = parseReplayPath(path);
  if (!found) return false;
  leaveTable();
  listen();
  document.title = `${t("replay")} · ${found.id}`;
  if (rs.id !== found.id) {
    rs.id = found.id;
    rs.match = null;
    rs.hands = new Map();
    rs.problem = null;
  }
  rs.pos = found.pos ?? { hand: 1, step: 0 };
  redrawReplay();
  if (rs.match) go(rs.pos);
  else void load(found.id, found.pos);
  return true;
}

function token(id: string): string | null {
  return store.seat(id)?.token ?? null;
}

function problemText(e: unknown): string {
  if (e instanceof ApiError && e.code === "bad_token") return t("replay_players_only");
  if (e instanceof ApiError && e.status === 404) return t("not_found");
  return e instanceof ApiError ? errorText(e.code, e.message) : t("err_network");
}

async function load(id: string, pos: Position | null): Promise<void> {
  try {
    const match = await getReplay<ReplayMatch>(id, token(id));
    if (rs.id !== id) return;
    rs.match = match;
    go(pos ?? { hand: 1, step: 0 });
  } catch (e) {
    if (rs.id !== id) return;
    rs.problem = problemText(e);
    redrawReplay();
  }
}

/** Show the moment `pos` (fetching its hand if needed); the address follows. */
export function go(pos: Position): void {
  const match = rs.match;
  const id = rs.id;
  if (!match || !id) return;
  rs.pos = clampPosition(match.hands, pos);
  if (match.hands.length > 0) history.replaceState(null, "", replayPath(id, rs.pos));
  redrawReplay();
  const n = rs.pos.hand;
  if (match.hands.length > 0 && !rs.hands.has(n)) void fetchHand(id, match, n);
}

async function fetchHand(id: string, match: ReplayMatch, n: number): Promise<void> {
  try {
    const hand = await getReplayHand<ReplayHand>(id, n, token(id));
    if (rs.id !== id) return;
    rs.hands.set(n, hand);
    redrawReplay();
    for (const o of overlays) {
      const done = o.load?.(match, hand);
      if (done) void done.then(redrawReplay, redrawReplay);
    }
  } catch (e) {
    if (rs.id !== id) return;
    rs.problem = problemText(e);
    redrawReplay();
  }
}

function listen(): void {
  if (listening) return;
  listening = true;
  root().addEventListener("click", (ev) => {
    if (!onReplay() || !rs.match) return;
    const el = (ev.target as HTMLElement).closest<HTMLElement>("[data-replay],[data-replay-hand],[data-replay-step]");
    if (!el) return;
    ev.preventDefault();
    const { replay, replayHand, replayStep } = el.dataset;
    if (replayHand !== undefined) go({ hand: Number(replayHand), step: 0 });
    else if (replayStep !== undefined) go({ hand: rs.pos.hand, step: Number(replayStep) });
    else if (replay) go(move(rs.match.hands, rs.pos, replay as Parameters<typeof move>[2]));
  });
  document.addEventListener("keydown", (ev) => {
    if (!onReplay() || !rs.match || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const tag = (ev.target as HTMLElement).tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    const how = keyMove(ev.key);
    if (!how) return;
    ev.preventDefault();
    go(move(rs.match.hands, rs.pos, how));
  });
}
