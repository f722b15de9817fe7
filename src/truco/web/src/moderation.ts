// Moderation at the table (docs/players.md, "Silenciar, bloquear y denunciar"): each other
// person's plate has a "⋯" menu to mute or block him (his chat and señas are then left out by
// the server) and to report him; the creator's seat list has "Sacar" while the table waits.
// Everything belongs to the player's identity (her cookie), named or not. Names are text: all
// of it is built with the `html` tag.

import { ApiError, call } from "./api";
import { type Html, html, NOTHING } from "./html";
import { t, tr } from "./i18n";
import { showToast } from "./page";

export const REASONS = ["acoso", "trampa", "nombre", "spam", "otro"] as const;

export interface SeatEntry {
  seat: number;
  kind: "mute" | "block";
  key: string;
}

export interface ModerationState {
  table: string | null;
  keys: SeatEntry[];
  /** The seat whose menu is open, and the seat being reported. */
  menu: number | null;
  report: number | null;
}

export const modState: ModerationState = { table: null, keys: [], menu: null, report: null };

let redraw: () => void = () => undefined;

export function onModerationChange(fn: () => void): void {
  redraw = fn;
}

interface Listed {
  table: { keys: SeatEntry[] } | null;
}

/** What the player mutes and blocks at `table` (asked when its page opens). */
export async function loadModeration(table: string): Promise<void> {
  modState.table = table;
  try {
    const got = await call<Listed>("GET", `/api/me/moderation?table=${encodeURIComponent(table)}`);
    if (modState.table === table) modState.keys = got.table?.keys ?? [];
  } catch {
    modState.keys = [];
  }
  redraw();
}

function entry(seat: number, kind: "mute" | "block"): SeatEntry | undefined {
  return modState.keys.find((k) => k.seat === seat && k.kind === kind);
}

function words(e: unknown): string {
  if (!(e instanceof ApiError)) return t("err_network");
  return tr(`err_${e.code}`, "") || e.message;
}

/** The badges and the "⋯" menu of another person's plate. */
export function plateModeration(seat: number, mine: boolean, human: boolean): Html {
  if (mine || !human || modState.table === null) return NOTHING;
  const muted = entry(seat, "mute") !== undefined;
  const blocked = entry(seat, "block") !== undefined;
  const badges = html`${blocked ? html`<span class="badge muted-badge">${t("mod_blocked")}</span>` : muted ? html`<span class="badge muted-badge">${t("mod_muted")}</span>` : NOTHING}`;
  const button = html`<button class="small ghost plate-menu" data-cmd="mod-menu" data-seat="${seat}" aria-label="${t("mod_menu")}" title="${t("mod_menu")}">⋯</button>`;
  if (modState.menu !== seat) return html`${badges}${button}`;
  const menu = html`<div class="mod-menu" role="menu">
    <button data-cmd="${muted ? "mod-unmute" : "mod-mute"}" data-seat="${seat}">${muted ? t("mod_unmute") : t("mod_mute")}</button>
    <button data-cmd="${blocked ? "mod-unblock" : "mod-block"}" data-seat="${seat}">${blocked ? t("mod_unblock") : t("mod_block")}</button>
    <button data-cmd="mod-report" data-seat="${seat}">${t("mod_report")}</button>
    ${modState.report === seat && html`<form id="report-form" data-seat="${seat}">
      <select name="reason" aria-label="${t("mod_reason")}">${REASONS.map((r) => html`<option value="${r}">${tr(`reason_${r}`, r)}</option>`)}</select>
      <input name="text" maxlength="500" autocomplete="off" placeholder="${t("mod_report_text")}">
      <button class="primary">${t("mod_send_report")}</button></form>`}
    </div>`;
  return html`${badges}${button}${menu}`;
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
  modState.menu = null;
  await loadModeration(table);
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
  modState.menu = null;
  await loadModeration(table);
}

/** The report form's answer. */
export async function submitReport(form: HTMLFormElement): Promise<void> {
  const table = modState.table;
  const seat = Number(form.dataset.seat);
  if (table === null) return;
  const reason = (form.elements.namedItem("reason") as HTMLSelectElement).value;
  const text = (form.elements.namedItem("text") as HTMLInputElement).value;
  try {
    await call("POST", "/api/reports", { table, seat, reason, text });
    showToast(t("mod_reported"));
  } catch (e) {
    showToast(words(e));
  }
  modState.menu = null;
  modState.report = null;
  redraw();
}

/** A click on one of moderation's buttons; false when `cmd` is not theirs. */
export function moderationCommand(cmd: string, el: HTMLElement): boolean {
  const seat = Number(el.dataset.seat);
  switch (cmd) {
    case "mod-menu":
      modState.menu = modState.menu === seat ? null : seat;
      modState.report = null;
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
      modState.report = seat;
      redraw();
      return true;
    default:
      return false;
  }
}
