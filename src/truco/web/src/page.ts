// The page around every screen: where it is drawn, the header, the toast, the words for an
// error, a guest's name, and moving to another address.

import { accountSlot } from "./account";
import { type Html, html, NOTHING } from "./html";
import { langButtonLabel, t, tr } from "./i18n";
import { store } from "./storage";

/** The element every screen is drawn into (looked up when needed: tests import without a page). */
export function root(): HTMLElement {
  return document.getElementById("app") as HTMLElement;
}

export function $(sel: string): HTMLElement | null {
  return root().querySelector(sel);
}

export function guestName(): string {
  return store.name().trim() || `${t("name_placeholder")} ${Math.floor(100 + Math.random() * 900)}`;
}

let toast: { text: string; at: number } | null = null;

export function showToast(text: string): void {
  toast = { text, at: Date.now() };
  renderToast();
  setTimeout(renderToast, 4100);
}

export function renderToast(): void {
  const el = $("#toast");
  if (!el) return;
  const on = toast !== null && Date.now() - toast.at < 4000;
  el.hidden = !on;
  el.textContent = on && toast ? toast.text : "";
}

export function errorText(code: string, message?: string): string {
  const known = tr(`err_${code}`, "");
  if (known && code === "illegal_action" && message) return `${known} ${message}`;
  return known || message || code;
}

/** The header's buttons fold into one menu on a phone (styles.css): open or close it. */
export function toggleMenu(button: HTMLElement): void {
  const top = button.closest("header.top");
  const open = !top?.classList.contains("menu-open");
  top?.classList.toggle("menu-open", open);
  button.setAttribute("aria-expanded", String(open));
}

export function header(extra: Html = NOTHING): Html {
  return html`<header class="top"><a class="brand" href="/" data-cmd="home">🂡 ${t("title")}</a>
    <span class="conn" id="conn"></span>
    <button class="small ghost menu-toggle" data-cmd="menu" aria-expanded="false" aria-controls="header-items">☰ ${t("menu")}</button>
    <div class="header-items" id="header-items">${extra}${accountSlot()}
    <a class="small ghost button" href="/ranking">${t("ranking")}</a>
    <button class="small ghost" data-cmd="lang">${langButtonLabel()}</button></div></header>
    <div id="toast" class="toast" hidden></div>`;
}

/** Go to `path` in this tab: the router (main.ts) draws it, as after the browser's Back. */
export function navigate(path: string): void {
  history.pushState(null, "", path);
  window.dispatchEvent(new PopStateEvent("popstate"));
}
