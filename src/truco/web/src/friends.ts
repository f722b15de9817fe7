// Amigos (docs/players.md): "Seguir" / "Dejar de seguir" on a player's page, and "Tus amigos" in
// the account area: each friend en línea or desconectado, the tables where he sits (links to
// their invite address), the invitations received, and on a table's page "Invitar a esta mesa".
// The list is asked for every 20 s while a page is open: that is also how the server knows the
// player is online. Names are text: everything here is built with the `html` tag.

import { ApiError, follow, type Friends, getFollowing, getFriends, inviteFriend, unfollow } from "./api";
import { type Html, html, mount, NOTHING } from "./html";
import { t, tr } from "./i18n";

export interface FriendsState {
  data: Friends | null;
  /** What the last request of the list answered, as words (empty: nothing to say). */
  note: string;
}

export const friendsState: FriendsState = { data: null, note: "" };

/** How often an open page asks for the friends (the server's presence lasts 60 s). */
export const POLL_MS = 20_000;

/** Called when the list changed (account.ts draws the account area again). */
let redraw: () => void = () => undefined;

export function onFriendsChange(fn: () => void): void {
  redraw = fn;
}

/** The table of a table page's address (/t/ID), or null. */
export function tableOfPath(path: string): string | null {
  const m = /^\/t\/([^/]+)\/?$/.exec(path);
  if (!m?.[1]) return null;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return null;
  }
}

function words(e: unknown): string {
  if (!(e instanceof ApiError)) return t("err_network");
  if (e.code === "name_required") return t("friends_need_name");
  return tr(`err_${e.code}`, "") || e.message;
}

function tableHref(table: string): string {
  return `/t/${encodeURIComponent(table)}`;
}

/** The account area's button, with the number of invitations received. */
export function friendsButton(data: Friends | null): Html {
  const n = data?.invites.length ?? 0;
  return html`<button class="small ghost friends-button" data-cmd="account-friends">${t("friends")}${n > 0 && html` <span class="badge" title="${t("invites_title")}">${n}</span>`}</button>`;
}

/** "Tus amigos": the friends and the invitations; `table`: the table on screen, where the player
 * may invite them. */
export function friendsDialog(state: FriendsState, table: string | null): Html {
  const data = state.data;
  let body: Html;
  if (data === null) body = html`<p class="muted">${t("connecting")}</p>`;
  else {
    const invites =
      data.invites.length === 0
        ? NOTHING
        : html`<h3>${t("invites_title")}</h3><ul class="invites">${data.invites.map(
            (i) => html`<li class="invite">${t("invite_from", { name: i.name })} · <a href="${tableHref(i.table)}">${t("invite_go")}</a></li>`,
          )}</ul>`;
    const friends =
      data.friends.length === 0
        ? html`<p class="muted">${t("friends_empty")}</p>`
        : html`<ul class="friends">${data.friends.map(
            (f) => html`<li class="friend ${f.online ? "online" : "offline"}"><a href="/jugador/${encodeURIComponent(f.name)}">${f.name}</a> · <span class="presence">${t(f.online ? "friend_online" : "friend_offline")}</span>${f.tables.map(
                (s) => html` · <a class="friend-table" href="${tableHref(s.table)}">${t("friend_at_table", { table: s.table })}</a>`,
              )}${table !== null && html` <button class="small" data-cmd="friend-invite" data-name="${f.name}">${t("friend_invite")}</button>`}</li>`,
          )}</ul>`;
    body = html`${invites}${friends}`;
  }
  return html`<div class="modal-back"><div class="modal account-dialog friends-dialog" role="dialog" aria-label="${t("friends_title")}">
    <h2>${t("friends_title")}</h2>${body}<p class="friends-note" role="status">${state.note}</p>
    <div class="modal-buttons"><button type="button" class="ghost" data-cmd="account-cancel">${t("close")}</button></div></div></div>`;
}

/** Ask the server for the friends (and be online meanwhile). */
export async function loadFriends(): Promise<void> {
  try {
    friendsState.data = await getFriends();
  } catch {
    return; // offline, or asked too often: the list stays as it was
  }
  redraw();
}

/** The button of a player's page: "Seguir" or "Dejar de seguir" (`following` null: not known). */
export function followButton(name: string, following: boolean | null, note = ""): Html {
  const button =
    following === null
      ? NOTHING
      : html`<button class="small${following ? " ghost" : " primary"}" data-cmd="${following ? "unfollow" : "follow"}" data-name="${name}">${t(following ? "unfollow" : "follow")}</button>`;
  return html`${button} <span class="follow-note muted" role="status">${note}</span>`;
}

function drawFollow(name: string, following: boolean | null, note = ""): void {
  const el = globalThis.document?.getElementById("follow");
  if (el) mount(el, followButton(name, following, note));
}

/** Draw the player page's button (in its `#follow` slot) once the server says. */
export async function loadFollow(name: string): Promise<void> {
  try {
    const f = await getFollowing(name);
    if (!f.yourself) drawFollow(f.name, f.following); // nobody follows himself
  } catch {
    /* an unknown name: the page says so */
  }
}

async function setFollow(name: string, on: boolean): Promise<void> {
  try {
    const f = on ? await follow(name) : await unfollow(name);
    drawFollow(f.name, f.following, f.following ? t("following_now", { name: f.name }) : "");
    void loadFriends();
  } catch (e) {
    drawFollow(name, !on, words(e));
  }
}

async function invite(name: string, table: string): Promise<void> {
  try {
    await inviteFriend(name, table);
    friendsState.note = t("friend_invited", { name });
  } catch (e) {
    friendsState.note = words(e);
  }
  redraw();
}

/** A click on one of Amigos' buttons; false when `cmd` is not theirs. */
export function friendsCommand(cmd: string, el: HTMLElement): boolean {
  const name = el.dataset.name ?? "";
  switch (cmd) {
    case "follow":
    case "unfollow":
      void setFollow(name, cmd === "follow");
      return true;
    case "friend-invite": {
      const table = tableOfPath(globalThis.location?.pathname ?? "/");
      if (table !== null) void invite(name, table);
      return true;
    }
    default:
      return false;
  }
}
