// Jugar ahora: a button per mode on the home page; while the server looks for rivals, the time
// waited and "Cancelar"; the server's offer of bots when nobody comes; then the table
// (docs/players.md, "Jugar ahora"; the API is in docs/protocol.md).
//
// The ticket's answer comes by long poll: each GET waits up to POLL_SECONDS for news (a match,
// the bot offer) and is asked again at once, so a match shows as soon as it is made.

import { ApiError, joinQueue, leaveQueue, queueStatus, takeBots, type QueueStatus } from "./api";
import { type Html, html, mount, NOTHING } from "./html";
import { t } from "./i18n";
import { $, errorText, guestName, navigate, showToast } from "./page";
import { store } from "./storage";

export const MODES = ["1v1", "2v2", "3v3"] as const;
export type Mode = (typeof MODES)[number];

/** Seconds one poll waits for news on the server. */
export const POLL_SECONDS = 15;

export interface Waiting {
  ticket: string;
  token: string;
  mode: Mode;
  /** When the ticket joined the queue, by this browser's clock (ms). */
  since: number;
  offer: boolean;
}

let waiting: Waiting | null = null;
let ticker: ReturnType<typeof setInterval> | undefined;
let hooked = false;

/** The home page's section: the buttons, or the wait (drawn again every second meanwhile). */
export function playNowSection(): Html {
  return html`<section class="card-panel playnow" id="playnow">${playNowBody(waiting, Date.now())}</section>`;
}

export function playNowBody(w: Waiting | null, now: number): Html {
  if (!w) {
    const button = (m: Mode) =>
      html`<button class="primary" data-cmd="playnow" data-do="join" data-mode="${m}" aria-label="${t("playnow_mode", { mode: m })}">${m}</button>`;
    return html`<h2>${t("playnow")}</h2><p>${t("playnow_intro")}</p><div class="playnow-modes">${MODES.map(button)}</div>`;
  }
  const secs = Math.max(0, Math.floor((now - w.since) / 1000));
  const clock = `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}`;
  const offer = w.offer
    ? html`<p class="playnow-offer">${t("playnow_offer")}</p>
      <button class="primary" data-cmd="playnow" data-do="bots">${t("playnow_bots")}</button>`
    : NOTHING;
  return html`<h2>${t("playnow")} ${w.mode}</h2>
    <p class="playnow-wait" role="status">${t("playnow_waiting", { time: clock })}</p>${offer}
    <button class="ghost" data-cmd="playnow" data-do="cancel">${t("playnow_cancel")}</button>`;
}

function draw(): void {
  const el = $("#playnow");
  if (el) mount(el, playNowBody(waiting, Date.now()));
}

function stop(): void {
  waiting = null;
  if (ticker !== undefined) clearInterval(ticker);
  ticker = undefined;
  draw();
}

/** A click on one of the section's buttons (input.ts: data-cmd="playnow"). */
export function playNowCommand(el: HTMLElement): void {
  const what = el.dataset.do;
  if (what === "join" && !waiting) void join(el.dataset.mode as Mode);
  else if (what === "cancel") void cancel();
  else if (what === "bots") void bots();
}

function fail(e: unknown): void {
  showToast(e instanceof ApiError ? errorText(e.code, e.message) : t("err_network"));
}

async function join(mode: Mode): Promise<void> {
  if (!(MODES as readonly string[]).includes(mode)) return;
  const field = document.querySelector<HTMLInputElement>('#create input[name="name"]');
  const name = field?.value.trim() || store.name().trim() || guestName();
  store.setName(name);
  try {
    const res = await joinQueue(mode, name);
    waiting = { ticket: res.ticket, token: res.token, mode, since: Date.now() - res.waited * 1000, offer: false };
  } catch (e) {
    fail(e);
    return;
  }
  if (!hooked) {
    hooked = true;
    // A closed tab leaves the queue at once (otherwise its ticket idles out on the server).
    window.addEventListener("pagehide", () => {
      if (waiting) void leaveQueue(waiting.ticket, true).catch(() => undefined);
    });
  }
  ticker = setInterval(draw, 1000);
  draw();
  void poll(waiting.ticket);
}

/** Ask about `ticket` until it has a table, or is cancelled, or the player left the home page. */
async function poll(ticket: string): Promise<void> {
  while (waiting?.ticket === ticket) {
    if (!$("#playnow")) {
      // She went elsewhere (the anotador, a table): she no longer waits for a match here.
      void leaveQueue(ticket).catch(() => undefined);
      stop();
      return;
    }
    let res: QueueStatus;
    try {
      res = await queueStatus(ticket, POLL_SECONDS);
    } catch (e) {
      if (waiting?.ticket !== ticket) return;
      if (e instanceof ApiError && e.status === 404) {
        showToast(t("playnow_lost"));
        stop();
        return;
      }
      await new Promise((r) => setTimeout(r, 2000)); // the network: try again shortly
      continue;
    }
    if (waiting?.ticket !== ticket) return;
    if (res.status === "matched") {
      sit(res);
      return;
    }
    waiting.offer = res.offer === "bots";
    draw();
  }
}

function sit(res: QueueStatus): void {
  const w = waiting;
  if (!w || res.table === null || res.seat === null) return;
  store.setSeat(res.table, { seat: res.seat, token: w.token });
  stop();
  navigate(res.invite ?? `/t/${encodeURIComponent(res.table)}`);
}

async function cancel(): Promise<void> {
  const w = waiting;
  if (!w) return;
  try {
    const res = await leaveQueue(w.ticket);
    if (res.status === "matched") {
      sit(res); // too late to leave: the table is made, and her seat waits for her
      return;
    }
  } catch (e) {
    if (!(e instanceof ApiError && e.status === 404)) {
      fail(e);
      return;
    }
  }
  stop();
}

async function bots(): Promise<void> {
  const w = waiting;
  if (!w) return;
  try {
    const res = await takeBots(w.ticket);
    if (res.status === "matched") sit(res);
  } catch (e) {
    fail(e);
  }
}
