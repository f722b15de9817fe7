// The account area of the header: the player's name (or "Anónimo"), and the dialogs that claim a
// name, log in, log out and change the password (docs/players.md). The page asks /api/me who
// the player is and where she sits, and lists those tables in the lobby. A named player has
// "Amigos" here too (friends.ts), asked for every 20 s while the page is open.

import { ApiError, changePassword, claimName, closeOtherSessions, getMe, logIn, logOut, type Me } from "./api";
import { friendsButton, friendsDialog, friendsState, loadFriends, onFriendsChange, POLL_MS, tableOfPath } from "./friends";
import { type Html, html, mount, NOTHING } from "./html";
import { t, tr } from "./i18n";
import { loadMyTables, myTables } from "./mytables";

export type AccountDialog = "claim" | "login" | "password" | "friends";

export interface AccountState {
  me: Me | null;
  dialog: AccountDialog | null;
  /** What the last request of the dialog answered, as words (empty: nothing to say). */
  note: string;
  busy: boolean;
}

export const account: AccountState = { me: null, dialog: null, note: "", busy: false };

/** Called after the player changed (logged in or out): the table reconnects as the new one. */
let onChange: (me: Me) => void = () => undefined;

export function onAccountChange(fn: (me: Me) => void): void {
  onChange = fn;
}

/** A claimed name's length, as the dialog's field and the server's rule (accounts.MIN_NAME,
 *  MAX_NAME) have it. */
const CLAIM_MIN = 3;
const CLAIM_MAX = 20;

/** What the name rule refuses besides a bot's name (names.py): controls and invisible
 *  characters, the letters that draw nothing (BLANKS) and a stack of more than 3 marks. */
const HIDDEN = /[\p{C}\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5\u034f\u180e]|\p{M}{4}/u;

/** The words of a refusal; `claimed`: the name a claim asked for. A claimed name refused for
 *  neither its length nor a character the name rule forbids was refused for being (or looking
 *  like) a bot's: say so, not the table name's rule of 24 characters. */
export function errorWords(e: unknown, claimed: string | null = null): string {
  if (!(e instanceof ApiError)) return t("err_network");
  if (claimed !== null && e.code === "bad_name") {
    const length = [...claimed.normalize("NFKC").trim()].length;
    if (length < CLAIM_MIN || length > CLAIM_MAX) return t("err_claim_length", { min: CLAIM_MIN, max: CLAIM_MAX });
    if (!HIDDEN.test(claimed)) return t("err_claim_bot");
  }
  return tr(`err_${e.code}`, "") || e.message;
}

/** The inside of the header's account area. */
export function accountArea(state: AccountState = account): Html {
  const name = state.me?.name ?? null;
  const who = name !== null ? html`<b class="account-name">${name}</b>` : html`<span class="account-name muted">${t("anonymous")}</span>`;
  const buttons =
    name !== null
      ? html`${friendsButton(friendsState.data)}<button class="small ghost" data-cmd="account-password">${t("change_password")}</button>
        <button class="small ghost" data-cmd="account-logout">${t("logout")}</button>`
      : html`<button class="small ghost" data-cmd="account-claim">${t("claim_name")}</button>
        <button class="small ghost" data-cmd="account-login">${t("login")}</button>`;
  return html`${who}${state.me !== null && buttons}${state.dialog !== null && accountDialog(state)}`;
}

/** The slot the header keeps for the account area. */
export function accountSlot(): Html {
  return html`<span class="account" id="account">${accountArea()}</span>`;
}

function field(name: string, label: string, type: string, autocomplete: string, min: number, max: number): Html {
  return html`<label>${label}<input name="${name}" type="${type}" autocomplete="${autocomplete}" minlength="${min}" maxlength="${max}" required></label>`;
}

export function accountDialog(state: AccountState): Html {
  const kind = state.dialog;
  if (kind === null) return NOTHING;
  if (kind === "friends") return friendsDialog(friendsState, tableOfPath(globalThis.location?.pathname ?? "/"));
  const title = kind === "claim" ? t("claim_name") : kind === "login" ? t("login") : t("change_password");
  const body =
    kind === "claim"
      ? html`<p>${t("claim_intro")}</p>${field("name", t("account_name"), "text", "username", 3, 20)}
        <p class="muted">${t("name_rule")}</p>${field("password", t("password"), "password", "new-password", 8, 128)}
        <p class="muted">${t("password_rule")}</p>`
      : kind === "login"
        ? html`<p>${t("login_intro")}</p>${field("name", t("account_name"), "text", "username", 1, 64)}
          ${field("password", t("password"), "password", "current-password", 1, 128)}`
        : html`${field("password", t("current_password"), "password", "current-password", 1, 128)}
          ${field("new_password", t("new_password"), "password", "new-password", 8, 128)}
          <p class="muted">${t("password_rule")}</p>
          <p class="muted">${t("sessions_intro")}</p>
          <p><button type="button" class="small ghost" data-cmd="account-close-others"${state.busy && " disabled"}>${t("close_other_sessions")}</button></p>`;
  return html`<div class="modal-back"><div class="modal account-dialog" role="dialog" aria-label="${title}">
    <h2>${title}</h2><form id="account-form" data-kind="${kind}">${body}
    <p class="account-note" role="status">${state.note}</p>
    <div class="modal-buttons"><button type="button" class="ghost" data-cmd="account-cancel">${t("cancel")}</button>
    <button type="submit" class="primary"${state.busy && " disabled"}>${kind === "login" ? t("login") : t("save")}</button></div>
    </form></div></div>`;
}

/** Draw the account area (and the lobby's list of the player's tables) where the page has them. */
export function renderAccount(doc: Document | undefined = globalThis.document): void {
  if (!doc) return;
  const slot = doc.getElementById("account");
  const form = slot?.querySelector<HTMLFormElement>("#account-form");
  if (slot && form && form.dataset.kind === account.dialog) {
    // The open dialog is drawn once: drawing it again would wipe what is being typed.
    const note = form.querySelector(".account-note");
    if (note) note.textContent = account.note;
    const submit = form.querySelector<HTMLButtonElement>("button[type=submit]");
    if (submit) submit.disabled = account.busy;
  } else if (slot) mount(slot, accountArea());
  const mine = doc.getElementById("my-tables");
  if (mine) {
    mount(mine, myTables(account.me));
    mine.hidden = !account.me || account.me.seats.length === 0;
  }
}

let polling: ReturnType<typeof setInterval> | null = null;

/** Ask for a named player's friends now and every `POLL_MS` (the server's presence). */
function pollFriends(): void {
  if (account.me?.name) void loadFriends();
  polling ??= setInterval(() => {
    if (account.me?.name) void loadFriends();
  }, POLL_MS);
}

/** Ask the server who this browser's player is. */
export async function loadAccount(): Promise<void> {
  onFriendsChange(() => renderAccount());
  try {
    account.me = await getMe();
  } catch {
    return; // offline: the area stays as it was
  }
  renderAccount();
  void loadMyTables(account.me, () => renderAccount());
  pollFriends();
}

/** A click on one of the area's buttons; false when `cmd` is not the account's. */
export function accountCommand(cmd: string): boolean {
  switch (cmd) {
    case "account-claim":
    case "account-login":
    case "account-password":
      account.dialog = cmd === "account-claim" ? "claim" : cmd === "account-login" ? "login" : "password";
      account.note = "";
      break;
    case "account-friends":
      account.dialog = "friends";
      friendsState.note = "";
      void loadFriends();
      break;
    case "account-cancel":
      account.dialog = null;
      break;
    case "account-logout":
      void run(() => logOut());
      return true;
    case "account-close-others":
      void closeOthers();
      return true;
    default:
      return false;
  }
  renderAccount();
  globalThis.document?.querySelector<HTMLInputElement>("#account-form input")?.focus();
  return true;
}

/** The dialog's form was sent. */
export function submitAccount(form: HTMLFormElement): void {
  const get = (n: string) => (form.elements.namedItem(n) as HTMLInputElement | null)?.value ?? "";
  const kind = form.dataset.kind as AccountDialog;
  if (kind === "claim") void run(() => claimName(get("name"), get("password")), "", get("name"));
  else if (kind === "login") void run(() => logIn(get("name"), get("password")));
  else if (kind === "password") void run(() => changePassword(get("password"), get("new_password")), t("password_changed"));
}

/** Cerrar las otras sesiones: every other device of the player is logged out. */
async function closeOthers(): Promise<void> {
  account.busy = true;
  account.note = "";
  renderAccount();
  try {
    const { ended } = await closeOtherSessions();
    account.note = t("sessions_closed", { n: ended });
  } catch (e) {
    account.note = errorWords(e, null);
  }
  account.busy = false;
  renderAccount();
}

async function run(request: () => Promise<Me>, done = "", claimed: string | null = null): Promise<void> {
  account.busy = true;
  account.note = "";
  renderAccount();
  const before = account.me?.id;
  try {
    account.me = await request();
    account.dialog = done ? account.dialog : null;
    account.note = done;
  } catch (e) {
    account.note = errorWords(e, claimed);
  }
  account.busy = false;
  if (account.me && account.me.id !== before) friendsState.data = null;
  renderAccount();
  if (account.me?.name) void loadFriends();
  void loadMyTables(account.me, () => renderAccount());
  if (account.me && account.me.id !== before) onChange(account.me);
}
