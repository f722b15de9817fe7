// The app: routes ("/" the lobby, "/t/ID" a table), wires the HTTP API, the socket and the
// protocol state to the screen.

import "./styles.css";
import { openAnotador } from "./anotadorPage";
import { ApiError, addBot, createTable, getTable, handUrl, joinTable, listTables, matchUrl, wsUrl } from "./api";
import { type Lang, getLang, setLang, t, tr } from "./i18n";
import {
  type Effect,
  type GameState,
  chatMessage,
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
  esc,
  handAndActions,
  lobbyList,
  logLines,
  matchOverModal,
  scoreboard,
  seatsPanel,
  senasPanel,
  summaryModal,
} from "./render";
import { type SocketStatus, TableSocket } from "./socket";
import { createOptions, type CreateForm } from "./variants";
import {
  type BotLevel,
  BOT_LEVELS,
  type Sena,
  SENAS,
  type ServerMessage,
  type TableInfo,
  VARIANTS,
  type Variant,
} from "./types";

// ---- storage: the seat token lives in sessionStorage (per tab), the name and language persist.

interface SeatToken {
  seat: number;
  token: string;
}

const store = {
  seat(id: string): SeatToken | null {
    try {
      const raw = sessionStorage.getItem(`truco:seat:${id}`);
      const v = raw ? (JSON.parse(raw) as unknown) : null;
      if (v && typeof v === "object" && "token" in v && "seat" in v) return v as SeatToken;
    } catch {
      /* unavailable */
    }
    return null;
  },
  setSeat(id: string, s: SeatToken | null): void {
    try {
      if (s) sessionStorage.setItem(`truco:seat:${id}`, JSON.stringify(s));
      else sessionStorage.removeItem(`truco:seat:${id}`);
    } catch {
      /* unavailable */
    }
  },
  lastA(id: string): number {
    return Number(sessionStorage.getItem(`truco:a:${id}`) ?? "0") || 0;
  },
  setLastA(id: string, a: number): void {
    sessionStorage.setItem(`truco:a:${id}`, String(a));
  },
  name(): string {
    return localStorage.getItem("truco:name") ?? "";
  },
  setName(name: string): void {
    localStorage.setItem("truco:name", name);
  },
  lang(): Lang {
    return localStorage.getItem("truco:lang") === "en" ? "en" : "es";
  },
  setLang(lang: Lang): void {
    localStorage.setItem("truco:lang", lang);
  },
};

// ---- app state

interface App {
  game: GameState;
  tableId: string | null;
  info: TableInfo | null;
  conn: SocketStatus | "idle";
  tapada: boolean;
  summaryClosedFor: number | null;
  rematchAsked: boolean;
  toast: { text: string; at: number } | null;
  notFound: boolean;
  turnSince: { key: string; at: number };
  unread: number;
}

const app: App = {
  game: initialState(),
  tableId: null,
  info: null,
  conn: "idle",
  tapada: false,
  summaryClosedFor: null,
  rematchAsked: false,
  toast: null,
  notFound: false,
  turnSince: { key: "", at: Date.now() },
  unread: 0,
};

let socket: TableSocket | null = null;
const root = document.getElementById("app") as HTMLElement;

function $(sel: string): HTMLElement | null {
  return root.querySelector(sel);
}

function guestName(): string {
  return store.name().trim() || `${t("name_placeholder")} ${Math.floor(100 + Math.random() * 900)}`;
}

function showToast(text: string): void {
  app.toast = { text, at: Date.now() };
  renderToast();
  setTimeout(renderToast, 4100);
}

function errorText(code: string, message?: string): string {
  const known = tr(`err_${code}`, "");
  if (known && code === "illegal_action" && message) return `${known} ${message}`;
  return known || message || code;
}

// ---- routing

function isAnotador(): boolean {
  return /^\/anotador\/?$/.test(location.pathname);
}

function route(): void {
  if (isAnotador()) {
    openAnotadorPage();
    return;
  }
  const m = /^\/t\/([^/]+)\/?$/.exec(location.pathname);
  const q = new URLSearchParams(location.search).get("t");
  const id = m?.[1] ? decodeURIComponent(m[1]) : q;
  if (id) openTable(id);
  else openHome();
}

// ---- the anotador (its own page, no server needed)

function openAnotadorPage(): void {
  socket?.close();
  socket = null;
  app.tableId = null;
  openAnotador(root, header());
}

// ---- the lobby

function openHome(): void {
  socket?.close();
  socket = null;
  app.tableId = null;
  document.title = t("title");
  root.innerHTML = homeShell();
  const form = root.querySelector<HTMLFormElement>("#create");
  if (form) syncSeatRows(form);
  void refreshLobby();
}

function homeShell(): string {
  const opt = (v: string | number, label: string, sel = false) =>
    `<option value="${esc(v)}"${sel ? " selected" : ""}>${esc(label)}</option>`;
  const seatsRows = [1, 2, 3, 4, 5]
    .map(
      (s) =>
        `<div class="bot-row" data-row="${s}"><span>${esc(t("seat_n", { n: s + 1 }))}</span>` +
        `<select name="seat${s}">${opt("human", t("human"))}${BOT_LEVELS.map((l) => opt(l, `${t("bot")}: ${tr(`level_${l}`, l)}`, l === "normal")).join("")}</select></div>`,
    )
    .join("");
  return (
    header() +
    `<main class="home">` +
    `<section class="card-panel"><h2>${esc(t("new_table"))}</h2><form id="create">` +
    `<label>${esc(t("your_name"))}<input name="name" maxlength="24" autocomplete="nickname" placeholder="${esc(t("name_placeholder"))}" value="${esc(store.name())}"></label>` +
    `<label>${esc(t("variant"))}<select name="variant">${VARIANTS.map((v) => opt(v, t(`variant_${v}`), v === "standard")).join("")}</select></label>` +
    `<div class="grid2">` +
    `<label data-for="standard">${esc(t("players"))}<select name="players">${opt(2, "2 (1 vs 1)")}${opt(4, "4 (2 vs 2)", true)}${opt(6, "6 (3 vs 3)")}</select></label>` +
    `<label data-for="destantado">${esc(t("porotos"))}<select name="porotos">${[3, 5, 10, 15].map((n) => opt(n, String(n), n === 10)).join("")}</select></label>` +
    `<label data-for="pica_pica">${esc(t("pica_from"))}<select name="pica_from">${[1, 3, 5].map((n) => opt(n, String(n), n === 5)).join("")}</select></label>` +
    `<label data-not="destantado">${esc(t("target"))}<select name="target">${[15, 30, 10, 20, 24, 40].map((n) => opt(n, String(n), n === 30)).join("")}</select></label>` +
    `<label data-not="destantado">${esc(t("falta"))}<select name="falta">${["match_if_malas", "leader", "litoral", "doble", "loser", "diferencia"].map((f) => opt(f, tr(`falta_${f}`, f))).join("")}</select></label>` +
    `<label>${esc(t("tapada"))}<select name="tapada">${["from_second", "off", "always"].map((f) => opt(f, tr(`tapada_${f}`, f))).join("")}</select></label>` +
    `<label>${esc(t("turn_time"))}<select name="turn">${opt(0, t("no_limit"))}${[30, 60, 90, 120].map((n) => opt(n, t("seconds", { n }), n === 60)).join("")}</select></label>` +
    `<label class="check" data-not="destantado"><input type="checkbox" name="flor"> ${esc(t("flor"))}</label>` +
    `</div>` +
    `<fieldset><legend>${esc(t("seats"))}</legend><div class="bot-row"><span>${esc(t("seat_n", { n: 1 }))}</span><span class="muted">${esc(t("you"))}</span></div>${seatsRows}</fieldset>` +
    `<button class="primary wide" type="submit">${esc(t("create"))}</button></form></section>` +
    `<section class="card-panel"><h2>${esc(t("open_tables"))} <button class="small ghost" data-cmd="refresh">${esc(t("refresh"))}</button></h2><div id="lobby"></div></section>` +
    `<section class="card-panel anotador-link"><h2>${esc(t("anotador"))}</h2><p>${esc(t("anotador_intro"))}</p>` +
    `<a class="button" href="/anotador" data-cmd="anotador">${esc(t("anotador_open"))}</a></section>` +
    `</main>`
  );
}

function header(extra = ""): string {
  return (
    `<header class="top"><a class="brand" href="/" data-cmd="home">🂡 ${esc(t("title"))}</a>` +
    `<span class="conn" id="conn"></span>${extra}` +
    `<button class="small ghost" data-cmd="lang">${esc(t("language"))}</button></header>` +
    `<div id="toast" class="toast" hidden></div>`
  );
}

function readForm(form: HTMLFormElement): CreateForm {
  const get = (n: string) => (form.elements.namedItem(n) as HTMLInputElement | HTMLSelectElement).value;
  return {
    variant: get("variant") as Variant,
    players: Number(get("players")),
    target: Number(get("target")),
    flor: (form.elements.namedItem("flor") as HTMLInputElement).checked,
    falta: get("falta"),
    tapada: get("tapada"),
    porotos: Number(get("porotos")),
    pica_from: Number(get("pica_from")),
  };
}

/** Show the seats of the chosen variant, and only the options that apply to it. */
function syncSeatRows(form: HTMLFormElement): void {
  const fields = readForm(form);
  const players = createOptions(fields).seats;
  form.querySelectorAll<HTMLElement>(".bot-row[data-row]").forEach((row) => {
    row.hidden = Number(row.dataset.row) >= players;
  });
  form.querySelectorAll<HTMLElement>("[data-for]").forEach((el) => {
    el.hidden = el.dataset.for !== fields.variant;
  });
  form.querySelectorAll<HTMLElement>("[data-not]").forEach((el) => {
    el.hidden = el.dataset.not === fields.variant;
  });
}

async function refreshLobby(): Promise<void> {
  const el = $("#lobby");
  if (!el) return;
  el.innerHTML = lobbyList(null);
  try {
    const tables = await listTables();
    el.innerHTML = lobbyList(Array.isArray(tables) ? tables : []);
  } catch {
    el.innerHTML = `<p class="muted">${esc(t("err_network"))}</p>`;
  }
}

async function submitCreate(form: HTMLFormElement): Promise<void> {
  const get = (n: string) => (form.elements.namedItem(n) as HTMLInputElement | HTMLSelectElement).value;
  const name = get("name").trim() || guestName();
  store.setName(name);
  const { options, seats } = createOptions(readForm(form));
  const bots: Record<string, BotLevel> = {};
  for (let s = 1; s < seats; s++) {
    const v = get(`seat${s}`);
    if ((BOT_LEVELS as readonly string[]).includes(v)) bots[String(s)] = v as BotLevel;
  }
  const turn = Number(get("turn"));
  try {
    const res = await createTable({
      name,
      options,
      bots,
      turn_seconds: turn > 0 ? turn : null,
    });
    store.setSeat(res.table, { seat: res.seat, token: res.token });
    navigate(res.invite || `/t/${encodeURIComponent(res.table)}`);
  } catch (e) {
    showToast(e instanceof ApiError ? errorText(e.code, e.message) : t("err_network"));
  }
}

function navigate(path: string): void {
  history.pushState(null, "", path);
  route();
}

// ---- a table

function openTable(id: string): void {
  socket?.close();
  app.game = initialState();
  app.tableId = id;
  app.info = null;
  app.tapada = false;
  app.rematchAsked = false;
  app.summaryClosedFor = null;
  app.notFound = false;
  app.unread = 0;
  document.title = `${t("title")} · ${id}`;
  root.innerHTML = tableShell();
  if (window.matchMedia("(max-width: 720px)").matches) ($("#chat-box") as HTMLDetailsElement).open = false;
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
  const seat = store.seat(id);
  socket = new TableSocket({
    url: (v) => wsUrl(location, id, seat?.token ?? null, v),
    getV: () => app.game.v,
    onMessage: onServerMessage,
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
    if (msg.d.code === "table_not_found") {
      app.notFound = true;
      socket?.close();
    }
  }
  if (msg.t === "full" || msg.t === "table") {
    app.info = state.table ?? app.info;
    if (msg.t === "full" && before.matchOver && !state.matchOver) app.rematchAsked = false;
  }
  if (msg.t === "ev" && before.matchOver && !state.matchOver) app.rematchAsked = false;
  if (msg.t === "chat" && !($("#chat-box") as HTMLDetailsElement | null)?.open) app.unread++;
  const v = state.view;
  if (v) {
    const key = `${v.hand}:${v.to_act}:${state.v}`;
    if (key !== app.turnSince.key) app.turnSince = { key, at: Date.now() };
    if (!v.legal.some((a) => a.startsWith("tapada "))) app.tapada = false;
  }
  if (state.summary && state.summary !== before.summary) {
    // The game goes on behind the summary: close it by itself after a while.
    const hand = state.summary.hand;
    setTimeout(() => {
      if (app.game.summary?.hand === hand && app.summaryClosedFor !== hand) {
        app.summaryClosedFor = hand;
        renderTable();
      }
    }, 15000);
  }
  runEffects(effects);
  renderTable();
}

function runEffects(effects: Effect[]): void {
  for (const e of effects) {
    if (e.kind === "resync") socket?.resync();
    else socket?.send(e.msg);
  }
}

function act(action: string): void {
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

async function join(seat?: number): Promise<void> {
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

async function fillBot(seat: number): Promise<void> {
  const id = app.tableId;
  const mine = id ? store.seat(id) : null;
  if (!id || !mine) return;
  const sel = root.querySelector<HTMLSelectElement>(`select[data-bot-level="${seat}"]`);
  const level = (sel?.value ?? "random") as BotLevel;
  try {
    await addBot(id, seat, level, mine.token);
    app.info = await getTable(id);
    renderTable();
  } catch (e) {
    showToast(e instanceof ApiError ? errorText(e.code, e.message) : t("err_network"));
  }
}

// ---- drawing

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
  root.querySelector(".table-screen")?.classList.toggle("offline", app.conn === "reconnecting" || app.conn === "closed");
}

function renderToast(): void {
  const el = $("#toast");
  if (!el) return;
  const on = app.toast !== null && Date.now() - app.toast.at < 4000;
  el.hidden = !on;
  el.textContent = on && app.toast ? app.toast.text : "";
}

function turnLeft(): number | null {
  const secs = app.game.table?.turn_seconds ?? app.info?.turn_seconds ?? null;
  const v = app.game.view;
  if (!secs || !v || v.phase !== "play" || v.to_act === null) return null;
  if (app.game.deadline !== null) return Math.max(0, Math.ceil((app.game.deadline - Date.now()) / 1000));
  return Math.max(0, Math.ceil(secs - (Date.now() - app.turnSince.at) / 1000));
}

function renderTable(): void {
  const id = app.tableId;
  if (!id || !$("#board")) return;
  const g = app.game;
  const table = g.table ?? app.info;
  const set = (sel: string, html: string) => {
    const el = $(sel);
    if (el && el.innerHTML !== html) el.innerHTML = html;
  };
  if (app.notFound) {
    set("#board", `<div class="board empty"><p>${esc(t("not_found"))}</p><a class="button" href="/" data-cmd="home">${esc(t("back_home"))}</a></div>`);
    return;
  }
  set("#score", g.view ? scoreboard(g.view, g.seat, table) : "");
  // Waiting for players, or a visitor without a seat: the seats and the invitation.
  const waiting = table?.status === "waiting" || (g.view === null && table !== null && table?.status !== "over");
  const hasEmpty = table?.seats.some((s) => s.kind === "empty") ?? false;
  const mine = store.seat(id);
  let joinHtml = "";
  if (table && (waiting || (!mine && hasEmpty))) {
    const invite = `${location.origin}/t/${encodeURIComponent(id)}`;
    joinHtml =
      `<section class="join-panel">` +
      `<p class="muted">${esc(t("waiting_seats"))}</p>` +
      `<div class="invite"><span>${esc(t("share"))}</span><input readonly id="invite" value="${esc(invite)}"><button data-cmd="copy">${esc(t("copy"))}</button></div>` +
      (!mine && hasEmpty
        ? `<label class="inline">${esc(t("your_name"))} <input id="join-name" maxlength="24" value="${esc(store.name())}" placeholder="${esc(t("name_placeholder"))}"></label>`
        : "") +
      seatsPanel(table, mine?.seat ?? null, !mine) +
      (!mine ? `<p class="muted">${esc(t("watching"))}</p>` : "") +
      `</section>`;
  }
  const joinEl = $("#join");
  // Keep what the visitor is typing in the name field.
  const typing = document.activeElement?.id === "join-name";
  if (!typing) set("#join", joinHtml);
  else if (joinEl && !joinHtml) joinEl.innerHTML = "";
  set("#board", board(g, { senas: g.senas, now: Date.now(), turnLeft: turnLeft() }));
  set("#me", handAndActions(g, app.tapada));
  const senasEl = $("#senas");
  if (senasEl) {
    const html = senasPanel(g);
    if (!html) senasEl.innerHTML = "";
    else if (!senasEl.firstElementChild) senasEl.innerHTML = html;
  }
  const chatForm = $("#chat-form");
  if (chatForm) chatForm.hidden = g.view !== null && g.seat === null;
  set("#chat-lines", chatLines(g));
  const lines = $("#chat-lines");
  if (lines) lines.scrollTop = lines.scrollHeight;
  set("#log-lines", logLines(g));
  const unread = $("#unread");
  if (unread) unread.textContent = app.unread > 0 ? String(app.unread) : "";
  const dl = $("#dl");
  if (dl && !dl.querySelector("details[open]")) dl.innerHTML = downloadsMenu(id, g.view, (n) => handUrl(id, n), matchUrl(id));
  // Modals: the end of the match first, else the last hand's summary until closed.
  let modal = "";
  if (g.matchOver) modal = matchOverModal(g, matchUrl(id), app.rematchAsked);
  else if (g.summary && g.summary.hand !== app.summaryClosedFor) modal = summaryModal(g.summary, g, handUrl(id, g.summary.hand));
  set("#modal", modal);
  renderConn();
  renderToast();
}

// ---- input

root.addEventListener("click", (ev) => {
  const target = ev.target as HTMLElement;
  const actEl = target.closest<HTMLElement>("[data-act]");
  if (actEl && !(actEl as HTMLButtonElement).disabled) {
    act(actEl.dataset.act ?? "");
    return;
  }
  const senaEl = target.closest<HTMLElement>("[data-sena]");
  if (senaEl) {
    const sena = senaEl.dataset.sena as Sena;
    if ((SENAS as readonly string[]).includes(sena)) socket?.send({ t: "sena", d: { sena } });
    senaEl.closest("details")?.removeAttribute("open");
    return;
  }
  const cmdEl = target.closest<HTMLElement>("[data-cmd]");
  if (!cmdEl) return;
  const cmd = cmdEl.dataset.cmd;
  switch (cmd) {
    case "home":
      ev.preventDefault();
      navigate("/");
      break;
    case "anotador":
      ev.preventDefault();
      navigate("/anotador");
      break;
    case "lang":
      setLang(getLang() === "es" ? "en" : "es");
      store.setLang(getLang());
      document.documentElement.lang = getLang();
      if (app.tableId) {
        // Redraw the shell in the new language; the connection stays as it is.
        root.innerHTML = tableShell();
        renderTable();
      } else if (isAnotador()) openAnotadorPage();
      else openHome();
      break;
    case "refresh":
      void refreshLobby();
      break;
    case "tapada":
      app.tapada = !app.tapada;
      renderTable();
      break;
    case "close-summary":
      app.summaryClosedFor = app.game.summary?.hand ?? null;
      renderTable();
      break;
    case "rematch":
      if (socket?.send({ t: "rematch", d: {} })) {
        app.rematchAsked = true;
        renderTable();
      }
      break;
    case "copy": {
      const input = $("#invite") as HTMLInputElement | null;
      if (input) {
        input.select();
        void navigator.clipboard?.writeText(input.value).then(() => showToast(t("copied")), () => undefined);
      }
      break;
    }
    case "join":
      void join(cmdEl.dataset.seat !== undefined ? Number(cmdEl.dataset.seat) : undefined);
      break;
    case "bot":
      void fillBot(Number(cmdEl.dataset.seat));
      break;
  }
});

function tableShell(): string {
  return (
    header(`<span id="dl"></span>`) +
    `<main class="table-screen">` +
    `<div class="play-col"><div id="score"></div><div id="join"></div><div id="board"></div><div id="me"></div><div id="senas"></div></div>` +
    `<aside class="side-col"><details class="chat" id="chat-box" open><summary>${esc(t("chat"))} <span id="unread" class="unread"></span></summary>` +
    `<div id="chat-lines" class="chat-lines" aria-live="polite"></div>` +
    `<form id="chat-form"><input name="text" maxlength="300" autocomplete="off" placeholder="${esc(t("say"))}"><button>${esc(t("send"))}</button></form></details>` +
    `<details class="log"><summary>${esc(t("log"))}</summary><div id="log-lines" class="log-lines"></div></details></aside>` +
    `</main><div id="modal"></div>`
  );
}

root.addEventListener("submit", (ev) => {
  const form = ev.target as HTMLFormElement;
  ev.preventDefault();
  if (form.id === "create") void submitCreate(form);
  if (form.id === "chat-form") {
    const input = form.elements.namedItem("text") as HTMLInputElement;
    const msg = chatMessage(input.value);
    if (msg && socket?.send(msg)) input.value = "";
  }
});

root.addEventListener("change", (ev) => {
  const el = ev.target as HTMLElement;
  const form = el.closest("form");
  if (form?.id === "create") syncSeatRows(form);
});

root.addEventListener(
  "toggle",
  (ev) => {
    const el = ev.target as HTMLElement;
    if (el.id === "chat-box" && (el as HTMLDetailsElement).open) {
      app.unread = 0;
      renderTable();
    }
  },
  true,
);

window.addEventListener("popstate", route);
document.addEventListener("keydown", (ev) => {
  // Keys 1-3 play the cards in hand (desktop convenience); 1-4 pick the pie's discard.
  const tag = (ev.target as HTMLElement).tagName;
  if (tag === "INPUT" || tag === "SELECT" || !app.game.view) return;
  const i = Number(ev.key) - 1;
  const card = app.game.view.cards[i];
  if (!card || i < 0 || i > 3) return;
  if (app.game.view.legal.includes(`discard ${card}`)) act(`discard ${card}`);
  else if (i < 3) act(`${app.tapada ? "tapada" : "play"} ${card}`);
});

// A turn timer and fading bubbles need a tick, but only while a table is open.
setInterval(() => {
  if (!app.tableId) return;
  const now = Date.now();
  const senas = app.game.senas.filter((s) => now - s.at < 9000);
  const faded = senas.length !== app.game.senas.length;
  if (faded) app.game = { ...app.game, senas };
  if (faded || turnLeft() !== null) renderTable();
}, 1000);

setLang(store.lang());
document.documentElement.lang = getLang();
route();
