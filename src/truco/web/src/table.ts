// The table controller: the state of the table on screen, its socket, what the player does
// (act, join, fill a seat with a bot) and drawing it all into place.

import { ApiError, addBot, getTable, handUrl, joinTable, matchUrl, removeSeat, wsProtocols, wsUrl } from "./api";
import { type Html, html, mount, NOTHING } from "./html";
import { actionLabel, activeLang, callLabel, htmlLang, setTableLang, t, tr } from "./i18n";
import { $, errorText, guestName, header, renderToast, root, showToast } from "./page";
import {
  type Effect,
  type GameState,
  initialState,
  nextActionId,
  reduce,
  resendPending,
  startAction,
} from "./protocol";
import {
  board,
  chatLines,
  downloadsMenu,
  handAndActions,
  joinPanel,
  logLines,
  matchOverModal,
  scoreboard,
  seatName,
  senasPanel,
  summaryModal,
} from "./render";
import { type SocketStatus, TableSocket } from "./socket";
import { isPaulista } from "./paulista";
import { closeMenu, loadModeration, modDialog, onModerationChange, seatsChanged } from "./moderation";
import { play } from "./sound";
import { store } from "./storage";
import type { BotLevel, ClientMessage, GameEvent, Sena, ServerMessage, TableInfo } from "./types";

interface App {
  game: GameState;
  tableId: string | null;
  info: TableInfo | null;
  conn: SocketStatus | "idle";
  tapada: boolean;
  summaryClosedFor: number | null;
  rematchAsked: boolean;
  notFound: boolean;
  turnSince: { key: string; at: number };
  unread: number;
  /** Another tab of this browser holds the seat (the last one opened plays). */
  elsewhere: boolean;
  /** Why the table expired (the server's last `table` message), once it did. */
  expired: string | null;
  /** The caretaker spell last told (its hands), so that it is told once. */
  spellTold: string;
  /** Every event of the match this page has seen, for the log (the state keeps the last few). */
  log: GameEvent[];
  /** The newest call, shown large on the board for a moment. */
  announce: { text: string; at: number } | null;
}

/** The log keeps every hand of a match: at most this many events (a long match has ~1000). */
const KEEP_MATCH_LOG = 5000;
/** How long a call stays announced on the board, in ms. */
export const ANNOUNCE_MS = 2200;

export const app: App = {
  game: initialState(),
  tableId: null,
  info: null,
  conn: "idle",
  tapada: false,
  summaryClosedFor: null,
  rematchAsked: false,
  notFound: false,
  turnSince: { key: "", at: Date.now() },
  unread: 0,
  elsewhere: false,
  expired: null,
  spellTold: "",
  log: [],
  announce: null,
};

let socket: TableSocket | null = null;
// The seat token is kept per browser (storage.ts), so two tabs may open one seat; the server
// keeps only the newest connection and each tab's socket would take it back from the other
// forever. The tab opened last plays; the others stop and say so.
let seatChannel: BroadcastChannel | null = null;

function claimSeat(id: string): void {
  seatChannel?.close();
  seatChannel = null;
  app.elsewhere = false;
  if (!store.seat(id) || typeof BroadcastChannel === "undefined") return;
  seatChannel = new BroadcastChannel(`truco:seat:${id}`);
  seatChannel.onmessage = () => {
    socket?.close();
    socket = null;
    app.elsewhere = true;
    renderTable();
  };
  seatChannel.postMessage("taken");
}

/** Play in this tab again (the seat was open in another one). */
export function playHere(): void {
  if (app.tableId) connect(app.tableId);
}

/** Close the table's connection (the visitor goes to another page). */
export function leaveTable(): void {
  setTableLang(null);
  document.documentElement.lang = htmlLang();
  seatChannel?.close();
  seatChannel = null;
  socket?.close();
  socket = null;
  app.tableId = null;
  void loadModeration(null);
}

/** Send on the table's connection; false if it is not open. */
export function send(msg: ClientMessage): boolean {
  return socket?.send(msg) ?? false;
}

/** Make a seña to the partners. The server echoes none to its sender, so the sender sees it
 *  here: a bubble on her own seat, as her partners see it on theirs, and a toast in words. */
export function sendSena(sena: Sena): void {
  if (!send({ t: "sena", d: { sena } }) || app.game.seat === null) return;
  app.game = { ...app.game, senas: [...app.game.senas, { seat: app.game.seat, sena, at: Date.now() }] };
  showToast(t("sena_sent", { sena: tr(`sena_${sena}`, sena) }));
  renderTable();
}

/** Draw the table again from scratch (the language changed); the connection stays. */
export function redrawTable(): void {
  mount(root(), tableShell());
  renderTable();
}

export function openTable(id: string): void {
  socket?.close();
  app.game = initialState();
  app.tableId = id;
  app.info = null;
  app.tapada = false;
  app.rematchAsked = false;
  app.summaryClosedFor = null;
  app.notFound = false;
  app.unread = 0;
  app.log = [];
  app.announce = null;
  document.title = `${t("title")} · ${id}`;
  onModerationChange(renderTable);
  void loadModeration(id);
  setTableLang(null);
  mountShell();
  void getTable(id)
    .then((info) => {
      app.info = info;
      renderTable();
    })
    .catch((e: unknown) => {
      if (e instanceof ApiError && e.status === 404) {
        app.notFound = true;
        renderTable();
      }
    });
  connect(id);
  renderTable();
}

function connect(id: string): void {
  socket?.close();
  claimSeat(id);
  const seat = store.seat(id);
  socket = new TableSocket({
    url: (v) => wsUrl(location, id, v),
    protocols: () => wsProtocols(seat?.token ?? null),
    getV: () => app.game.v,
    onMessage: onServerMessage,
    onReplaced: () => {
      app.elsewhere = true;
      renderTable();
    },
    onStatus: (s) => {
      app.conn = s;
      // After a reconnect at the current version the server sends nothing: resend what waits.
      const again = s === "open" ? resendPending(app.game) : null;
      if (again) socket?.send(again);
      renderConn();
    },
  });
  socket.connect();
}

function onServerMessage(msg: ServerMessage): void {
  const before = app.game;
  const { state, effects } = reduce(app.game, msg, Date.now());
  app.game = state;
  if (msg.t === "err") {
    showToast(errorText(msg.d.code, msg.d.message));
    if (msg.d.code === "bad_token" && app.tableId) {
      // The seat is gone (replaced, or a stale token): watch instead.
      store.setSeat(app.tableId, null);
      connect(app.tableId);
    }
    if (msg.d.code === "removed" && app.tableId) {
      // The creator removed this person: her seat is gone, and she watches from now on.
      store.setSeat(app.tableId, null);
      connect(app.tableId);
    }
    if (msg.d.code === "table_not_found") {
      app.notFound = true;
      socket?.close();
    }
  }
  if (msg.t === "full" || msg.t === "table") {
    app.info = state.table ?? app.info;
    seatsChanged(app.info);
    const info = msg.t === "table" ? msg.d : msg.d.table;
    if (info?.status === "expired") {
      app.expired = info.expired ?? "nobody";
      socket?.close();
    }
    // Back after the caretaker played for her: what it played (the server says it in the one
    // table message of her return; the words are truco.protocol.told's, through generated.ts).
    const mine = state.seat !== null ? info?.seats[state.seat]?.caretaker : null;
    const key = mine ? `${state.seat}:${mine.hands.join(",")}:${mine.score.join("-")}` : "";
    if (mine && mine.hands.length > 0 && key !== app.spellTold) {
      app.spellTold = key;
      const first = mine.hands[0] ?? 0;
      const last = mine.hands[mine.hands.length - 1] ?? 0;
      const words = mine.hands.length === 1 ? "caretaker_played_one" : "caretaker_played";
      showToast(t(words, { n: mine.hands.length, score: mine.score.join("-"), first, last }));
    }
    if (msg.t === "full" && before.matchOver && !state.matchOver) app.rematchAsked = false;
  }
  if (msg.t === "ev" && before.matchOver && !state.matchOver) app.rematchAsked = false;
  if (msg.t === "ev" && state.v > before.v) heard(msg.d.events, before, state);
  if (msg.t === "chat" && !($("#chat-box") as HTMLDetailsElement | null)?.open) app.unread++;
  const v = state.view;
  if (v) {
    const key = `${v.hand}:${v.to_act}:${state.v}`;
    if (key !== app.turnSince.key) app.turnSince = { key, at: Date.now() };
    if (!v.legal.some((a) => a.startsWith("tapada "))) app.tapada = false;
  }
  runEffects(effects);
  renderTable();
}

/** New events: keep them for the log, announce a call, and sound a call, the viewer's turn and
 * the end of a hand. */
function heard(events: GameEvent[], before: GameState, after: GameState): void {
  if (app.log.length === 0) app.log = before.log.slice();
  app.log = [...app.log, ...events.filter((e) => e.type !== "CardsDealt")].slice(-KEEP_MATCH_LOG);
  const call = events.filter((e) => e.type === "Called").at(-1);
  const paulista = isPaulista(after.view?.options);
  // At Truco Paulista the answers are shouted too ("Desce", "Corre"), and so is the zap.
  const said = paulista ? events.filter((e) => e.type === "Called" || e.type === "Answered").at(-1) : call;
  const zap = paulista ? events.find((e) => e.type === "CardPlayed" && e.card !== null && e.card === after.view?.manilhas[0]) : undefined;
  if (said && (said.type === "Called" || said.type === "Answered")) {
    const words = paulista ? actionLabel(said.verb) : callLabel(said.verb);
    app.announce = { text: `${seatName(after.table, said.seat)}: ${words}`, at: Date.now() };
    play("call");
  } else if (zap && zap.type === "CardPlayed") {
    app.announce = { text: `${seatName(after.table, zap.seat)}: ${t("zap")}`, at: Date.now() };
  } else if (events.some((e) => e.type === "HandEnded")) play("hand");
  const mine = after.seat !== null && after.view?.to_act === after.seat && after.view.phase === "play";
  if (mine && !call && before.view?.to_act !== after.seat) play("turn");
}

function runEffects(effects: Effect[]): void {
  for (const e of effects) {
    if (e.kind === "resync") socket?.resync();
    else socket?.send(e.msg);
  }
}

export function act(action: string): void {
  const id = app.tableId;
  if (!id) return;
  const a = nextActionId(store.lastA(id), Date.now());
  const started = startAction(app.game, action, a);
  if (!started) return;
  store.setLastA(id, a);
  app.game = started.state;
  app.tapada = false;
  // If the socket is down the action stays pending and is resent after the next `full`.
  socket?.send(started.msg);
  renderTable();
}

export async function join(seat?: number): Promise<void> {
  const id = app.tableId;
  if (!id) return;
  const input = $("#join-name") as HTMLInputElement | null;
  const name = input?.value.trim() || guestName();
  store.setName(name);
  try {
    const res = await joinTable(id, name, seat);
    store.setSeat(id, { seat: res.seat, token: res.token });
    app.game = initialState();
    connect(id);
    renderTable();
  } catch (e) {
    showToast(e instanceof ApiError ? errorText(e.code, e.message) : t("err_network"));
  }
}

export async function kickSeat(seat: number): Promise<void> {
  const id = app.tableId;
  const mine = id ? store.seat(id) : null;
  if (!id || !mine) return;
  try {
    await removeSeat(id, seat, mine.token);
    closeMenu();
    app.info = await getTable(id);
    renderTable();
  } catch (e) {
    showToast(e instanceof ApiError ? errorText(e.code, e.message) : t("err_network"));
  }
}

export async function fillBot(seat: number): Promise<void> {
  const id = app.tableId;
  const mine = id ? store.seat(id) : null;
  if (!id || !mine) return;
  const sel = root().querySelector<HTMLSelectElement>(`select[data-bot-level="${seat}"]`);
  const level = (sel?.value ?? "normal") as BotLevel;
  try {
    await addBot(id, seat, level, mine.token);
    app.info = await getTable(id);
    renderTable();
  } catch (e) {
    showToast(e instanceof ApiError ? errorText(e.code, e.message) : t("err_network"));
  }
}

function renderConn(): void {
  const el = $("#conn");
  if (!el) return;
  const text =
    app.conn === "open" || app.conn === "idle"
      ? ""
      : app.conn === "connecting"
        ? t("connecting")
        : app.conn === "reconnecting"
          ? t("reconnecting")
          : t("offline");
  el.textContent = text;
  el.className = `conn ${app.conn}`;
  root().querySelector(".table-screen")?.classList.toggle("offline", app.conn === "reconnecting" || app.conn === "closed");
}

export function turnLeft(): number | null {
  const secs = app.game.table?.turn_seconds ?? app.info?.turn_seconds ?? null;
  const v = app.game.view;
  if (!secs || !v || v.phase !== "play" || v.to_act === null) return null;
  if (app.game.deadline !== null) return Math.max(0, Math.ceil((app.game.deadline - Date.now()) / 1000));
  return Math.max(0, Math.ceil(secs - (Date.now() - app.turnSince.at) / 1000));
}

/** A Truco Paulista table speaks pt-BR: once its options are known, the page (shell and all)
 * is drawn again in its language. */
function syncTableLang(table: TableInfo | null): void {
  const options = app.game.view?.options ?? table?.options;
  if (!options) return;
  const before = activeLang();
  setTableLang(isPaulista(options) ? "pt" : null);
  if (activeLang() === before) return;
  document.documentElement.lang = htmlLang();
  mountShell();
}

function mountShell(): void {
  mount(root(), tableShell());
  if (window.matchMedia("(max-width: 720px)").matches) ($("#chat-box") as HTMLDetailsElement).open = false;
  // The log of plays is open where there is room for it.
  else ($("#log-box") as HTMLDetailsElement).open = true;
}

export function renderTable(): void {
  const id = app.tableId;
  if (!id || !$("#board")) return;
  const g = app.game;
  const table = g.table ?? app.info;
  syncTableLang(table);
  const set = (sel: string, markup: Html) => {
    const el = $(sel);
    if (el) mount(el, markup);
  };
  if (app.expired) {
    set("#board", html`<div class="board empty"><p>${tr(`expired_${app.expired}`, t("expired_nobody"))}</p><a class="button" href="/" data-cmd="home">${t("back_home")}</a></div>`);
    return;
  }
  if (app.notFound) {
    set("#board", html`<div class="board empty"><p>${t("not_found")}</p><a class="button" href="/" data-cmd="home">${t("back_home")}</a></div>`);
    return;
  }
  if (app.elsewhere) {
    set("#board", html`<div class="board empty"><p>${t("seat_elsewhere")}</p><button class="primary" data-cmd="play-here">${t("play_here")}</button></div>`);
    set("#me", NOTHING);
    return;
  }
  set("#score", g.view ? scoreboard(g.view, g.seat, table) : NOTHING);
  // Waiting for players, or a visitor without a seat: the seats and the invitation.
  const waiting = table?.status === "waiting" || (g.view === null && table !== null && table?.status !== "over");
  const hasEmpty = table?.seats.some((s) => s.kind === "empty") ?? false;
  // A seat of this tab's token, or the one the player's identity took back (docs/players.md).
  const mySeat = store.seat(id)?.seat ?? g.seat;
  const joinHtml =
    table && (waiting || (mySeat === null && hasEmpty))
      ? joinPanel(table, `${location.origin}/t/${encodeURIComponent(id)}`, mySeat, store.name())
      : NOTHING;
  const joinEl = $("#join");
  // Keep what the visitor is typing in the name field.
  const typing = document.activeElement?.id === "join-name";
  if (!typing) set("#join", joinHtml);
  else if (joinEl && joinHtml.empty) joinEl.replaceChildren();
  const now = Date.now();
  const announce = app.announce && now - app.announce.at < ANNOUNCE_MS ? app.announce.text : null;
  set("#board", board(g, { senas: g.senas, now, turnLeft: turnLeft(), announce }));
  set("#me", handAndActions(g, app.tapada));
  const senasEl = $("#senas");
  if (senasEl) {
    const panel = senasPanel(g);
    if (panel.empty) senasEl.replaceChildren();
    else if (!senasEl.firstElementChild) mount(senasEl, panel);
  }
  const chatForm = $("#chat-form");
  if (chatForm) chatForm.hidden = g.view !== null && g.seat === null;
  set("#chat-lines", chatLines(g));
  const lines = $("#chat-lines");
  if (lines) lines.scrollTop = lines.scrollHeight;
  const logEl = $("#log-lines");
  const atEnd = !logEl || logEl.scrollHeight - logEl.scrollTop - logEl.clientHeight < 40;
  set("#log-lines", logLines(g, app.log.length ? app.log : g.log));
  // Scrolled to the newest line, unless the player scrolled up to read.
  if (logEl && atEnd) logEl.scrollTop = logEl.scrollHeight;
  const mute = $("#mute");
  if (mute) {
    mute.textContent = store.muted() ? t("sound_off") : t("sound_on");
    mute.setAttribute("aria-pressed", String(store.muted()));
  }
  const unread = $("#unread");
  if (unread) unread.textContent = app.unread > 0 ? String(app.unread) : "";
  const dl = $("#dl");
  if (dl && !dl.querySelector("details[open]")) mount(dl, downloadsMenu(id, g.view, (n) => handUrl(id, n), matchUrl(id)));
  // The end of the match is a modal; the last hand's summary a panel beside the table (it never
  // covers the game) until closed or the next hand ends.
  set("#modal", g.matchOver ? matchOverModal(g, matchUrl(id), app.rematchAsked) : NOTHING);
  set("#mod", modDialog(table, mySeat));
  const showSummary = g.summary && !g.matchOver && g.summary.hand !== app.summaryClosedFor;
  set("#summary", showSummary && g.summary ? summaryModal(g.summary, g, handUrl(id, g.summary.hand)) : NOTHING);
  renderConn();
  renderToast();
}

export function tableShell(): Html {
  const mute = html`<button id="mute" class="small ghost" data-cmd="mute" aria-label="${t("mute")}" title="${t("mute")}"></button>`;
  return html`${header(html`<span id="dl"></span>${mute}`)}
    <main class="table-screen">
    <div class="play-col"><div id="score"></div><div id="join"></div><div id="board"></div><div id="me"></div><div id="summary"></div><div id="senas"></div></div>
    <aside class="side-col"><details class="chat" id="chat-box" open><summary>${t("chat")} <span id="unread" class="unread"></span></summary>
    <div id="chat-lines" class="chat-lines" aria-live="polite"></div>
    <form id="chat-form"><input name="text" maxlength="300" autocomplete="off" placeholder="${t("say")}"><button>${t("send")}</button></form></details>
    <details class="log" id="log-box"><summary>${t("log")}</summary><div id="log-lines" class="log-lines"></div></details></aside>
    </main><div id="modal"></div><div id="mod"></div>`;
}

/** A turn timer and fading bubbles need a tick, but only while a table is open. */
export function tick(): void {
  if (!app.tableId) return;
  const now = Date.now();
  const senas = app.game.senas.filter((s) => now - s.at < 9000);
  let faded = senas.length !== app.game.senas.length;
  if (app.announce && now - app.announce.at >= ANNOUNCE_MS) {
    app.announce = null;
    faded = true;
  }
  if (faded) app.game = { ...app.game, senas };
  if (faded || turnLeft() !== null) renderTable();
}
