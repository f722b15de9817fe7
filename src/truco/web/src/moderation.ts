// Moderation at the table (docs/players.md, "Silenciar, bloquear y denunciar"): each other
// person's plate has a "⋯" button that opens his options, a small dialog over the page (a menu
// inside the board would be cut at its edge on a phone): mute or block him (his chat and señas
// are then left out by the server), report him or one of his chat lines, and, for the table's
// creator while it waits, remove him (or a bot) from the table. Everything belongs to the
// player's identity (her cookie), named or not. Names and chat lines are text: all of it is
// built with the `html` tag.

import { ApiError, call } from "./api";
import { type Html, html, NOTHING } from "./html";
import { t, tr } from "./i18n";
import { errorText, showToast } from "./page";
import type { ChatLine, TableInfo } from "./types";

export const REASONS = ["acoso", "trampa", "nombre", "spam", "otro"] as const;
/** The most of his chat lines the report form offers to quote, the newest first. */
const QUOTES_MOST = 5;
/** A report's own words: the server's default `report_text_most` (a longer one answers 422). */
const REPORT_TEXT_MOST = 500;

export interface SeatEntry {
  seat: number;
  kind: "mute" | "block";
  key: string;
}

export interface ModerationState {
  table: string | null;
  keys: SeatEntry[];
  /** The seat whose options are open. */
  menu: number | null;
  /** His chat lines when the report form opened (null: it is closed); kept so that a line he
   * says meanwhile does not redraw the form under the reporter's fingers. */
  quotes: string[] | null;
  /** Who sat where when the keys were read: a change reads them again. */
  seen: string;
}

export const modState: ModerationState = { table: null, keys: [], menu: null, quotes: null, seen: "" };

let redraw: () => void = () => undefined;

export function onModerationChange(fn: () => void): void {
  redraw = fn;
}

interface Listed {
  table: { keys: SeatEntry[] } | null;
}

/** What the player mutes and blocks at `table` (asked when its page opens; null: no table). */
export async function loadModeration(table: string | null): Promise<void> {
  modState.table = table;
  modState.menu = null;
  modState.quotes = null;
  modState.keys = [];
  modState.seen = "";
  if (table === null) return;
  await reload(table);
}

async function reload(table: string): Promise<void> {
  try {
    const got = await call<Listed>("GET", `/api/me/moderation?table=${encodeURIComponent(table)}`);
    if (modState.table === table) modState.keys = got.table?.keys ?? [];
  } catch {
    // Without the list the plates show no badge; the server leaves the lines out all the same.
  }
  redraw();
}

/** The table's seats changed hands: read the keys again (a muted player sat down, or left). */
export function seatsChanged(info: TableInfo | null): void {
  if (!info || info.table !== modState.table) return;
  const seen = info.seats.map((s) => (s.kind === "human" ? `${s.seat}:${s.name ?? ""}` : "")).join("|");
  if (seen === modState.seen) return;
  const first = modState.seen === "";
  modState.seen = seen;
  if (!first) void reload(info.table);
}

function entry(seat: number, kind: "mute" | "block"): SeatEntry | undefined {
  return modState.keys.find((k) => k.seat === seat && k.kind === kind);
}

/** Whether the player mutes or blocks whoever sits in `seat` (his lines on screen are hidden
 * too: the server only stops sending new ones). */
export function hides(seat: number | null): boolean {
  return seat !== null && modState.keys.some((k) => k.seat === seat);
}

/** The creator (seat 0) may remove someone from a casual table while it waits. */
function canKick(table: TableInfo | null, mySeat: number | null, seat: number): boolean {
  const info = table?.seats.find((s) => s.seat === seat);
  return mySeat === 0 && seat !== 0 && !!table && !table.rated && table.status === "waiting" && !!info && info.kind !== "empty";
}

/** The "⋯" button of a plate, and its badge when the player mutes or blocks that seat. */
export function plateModeration(seat: number, mySeat: number | null, table: TableInfo | null): Html {
  const info = table?.seats.find((s) => s.seat === seat);
  if (seat === mySeat || modState.table === null || !info) return NOTHING;
  if (info.kind !== "human" && !canKick(table, mySeat, seat)) return NOTHING;
  const name = info.name ?? "";
  return html`<button class="plate-menu" data-cmd="mod-menu" data-seat="${seat}" aria-haspopup="dialog" aria-label="${t("mod_menu", { name })}" title="${t("mod_menu", { name })}">⋯</button>`;
}

export function modBadge(seat: number): Html {
  if (entry(seat, "block")) return html`<span class="badge muted-badge">${t("mod_blocked")}</span>`;
  if (entry(seat, "mute")) return html`<span class="badge muted-badge">${t("mod_muted")}</span>`;
  return NOTHING;
}

/** The open options of a seat: a dialog over the page, or nothing. */
export function modDialog(table: TableInfo | null, mySeat: number | null): Html {
  const seat = modState.menu;
  const info = seat === null ? undefined : table?.seats.find((s) => s.seat === seat);
  if (seat === null || !info || info.kind === "empty" || seat === mySeat) return NOTHING;
  const name = info.name ?? "";
  const person = info.kind === "human";
  const muted = entry(seat, "mute") !== undefined;
  const blocked = entry(seat, "block") !== undefined;
  const quotes = modState.quotes;
  const form =
    person &&
    quotes !== null &&
    html`<form id="report-form" class="report-form" data-seat="${seat}">
      <label>${t("mod_reason")} <select name="reason">${REASONS.map((r) => html`<option value="${r}">${tr(`reason_${r}`, r)}</option>`)}</select></label>
      ${quotes.length > 0 &&
      html`<label>${t("mod_quote")} <select name="quoted"><option value="">${t("mod_no_quote")}</option>${quotes.map((q) => html`<option value="${q}">${q}</option>`)}</select></label>`}
      <input name="text" maxlength="${REPORT_TEXT_MOST}" autocomplete="off" placeholder="${t("mod_report_text")}" aria-label="${t("mod_report_text")}">
      <button class="primary">${t("mod_send_report")}</button></form>`;
  return html`<div class="modal-back"><div class="modal mod-menu" role="dialog" aria-label="${t("mod_menu", { name })}">
    <h2>${name}</h2>
    <div class="mod-buttons">
    ${person && html`<button data-cmd="${muted ? "mod-unmute" : "mod-mute"}" data-seat="${seat}">${muted ? t("mod_unmute") : t("mod_mute")}</button>`}
    ${person && html`<button data-cmd="${blocked ? "mod-unblock" : "mod-block"}" data-seat="${seat}">${blocked ? t("mod_unblock") : t("mod_block")}</button>`}
    ${person && quotes === null && html`<button data-cmd="mod-report" data-seat="${seat}">${t("mod_report")}</button>`}
    ${canKick(table, mySeat, seat) && html`<button class="danger" data-cmd="kick" data-seat="${seat}">${t("mod_kick")}</button>`}
    </div>
    ${form}
    <div class="modal-buttons"><button class="ghost" data-cmd="mod-close">${t("close")}</button></div>
    </div></div>`;
}

async function add(seat: number, kind: "mute" | "block"): Promise<void> {
  const table = modState.table;
  if (table === null) return;
  try {
    await call("POST", kind === "mute" ? "/api/me/mutes" : "/api/me/blocks", { table, seat });
    showToast(kind === "mute" ? t("mod_muted_now") : t("mod_blocked_now"));
  } catch (e) {
    showToast(words(e));
  }
  closeMenu();
  await reload(table);
}

async function remove(seat: number, kind: "mute" | "block"): Promise<void> {
  const table = modState.table;
  const found = entry(seat, kind);
  if (table === null || !found) return;
  try {
    await call("DELETE", `${kind === "mute" ? "/api/me/mutes" : "/api/me/blocks"}/${found.key}`);
  } catch (e) {
    showToast(words(e));
  }
  closeMenu();
  await reload(table);
}

function words(e: unknown): string {
  return e instanceof ApiError ? errorText(e.code, e.message) : t("err_network");
}

export function closeMenu(): void {
  modState.menu = null;
  modState.quotes = null;
}

/** The report form's answer. */
export async function submitReport(form: HTMLFormElement): Promise<void> {
  const table = modState.table;
  const seat = Number(form.dataset.seat);
  if (table === null) return;
  const field = (name: string) => (form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement | null)?.value ?? "";
  const quoted = field("quoted") || null;
  try {
    await call("POST", "/api/reports", { table, seat, reason: field("reason"), text: field("text"), quoted });
    showToast(t("mod_reported"));
    closeMenu();
  } catch (e) {
    showToast(words(e));
  }
  redraw();
}

/** A click on one of moderation's buttons; false when `cmd` is not theirs. `chat`: the lines on
 * screen (the report form offers the seat's own). */
export function moderationCommand(cmd: string, el: HTMLElement, chat: readonly ChatLine[]): boolean {
  const seat = Number(el.dataset.seat);
  switch (cmd) {
    case "mod-menu":
      modState.menu = modState.menu === seat ? null : seat;
      modState.quotes = null;
      redraw();
      return true;
    case "mod-close":
      closeMenu();
      redraw();
      return true;
    case "mod-mute":
    case "mod-block":
      void add(seat, cmd === "mod-mute" ? "mute" : "block");
      return true;
    case "mod-unmute":
    case "mod-unblock":
      void remove(seat, cmd === "mod-unmute" ? "mute" : "block");
      return true;
    case "mod-report":
      modState.quotes = [...new Set(chat.filter((c) => c.seat === seat).map((c) => c.text))].reverse().slice(0, QUOTES_MOST);
      redraw();
      return true;
    default:
      return false;
  }
}
