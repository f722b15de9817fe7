// Input: clicks, forms, keys. One listener of each kind on the page's root, dispatching on the
// data-act (a game action), data-sena and data-cmd attributes the views carry.

import { accountCommand, submitAccount } from "./account";
import { friendsCommand } from "./friends";
import { closeMenu, moderationCommand, modState, submitReport } from "./moderation";
import { getLang, htmlLang, t, toggleLang } from "./i18n";
import { refreshLobby, submitCreate, syncSeatRows } from "./home";
import { $, navigate, root, showToast, toggleMenu } from "./page";
import { playNowCommand } from "./playnow";
import { askPista, chatMessage } from "./protocol";
import { route } from "./router";
import { store } from "./storage";
import { act, app, fillBot, join, kickSeat, playHere, redrawTable, renderTable, send, sendSena } from "./table";
import { type Sena, SENAS } from "./types";

/** Listen to the player: called once, when the app starts. */
export function listen(): void {
  root().addEventListener("click", (ev) => {
    const target = ev.target as HTMLElement;
    const actEl = target.closest<HTMLElement>("[data-act]");
    if (actEl && !(actEl as HTMLButtonElement).disabled) {
      act(actEl.dataset.act ?? "");
      return;
    }
    const senaEl = target.closest<HTMLElement>("[data-sena]");
    if (senaEl) {
      const sena = senaEl.dataset.sena as Sena;
      if ((SENAS as readonly string[]).includes(sena)) sendSena(sena);
      senaEl.closest("details")?.removeAttribute("open");
      return;
    }
    const cmdEl = target.closest<HTMLElement>("[data-cmd]");
    if (!cmdEl) return;
    const cmd = cmdEl.dataset.cmd;
    if (cmd && accountCommand(cmd)) return;
    if (cmd && friendsCommand(cmd, cmdEl)) return;
    if (cmd && moderationCommand(cmd, cmdEl, app.game.chat)) return;
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
        toggleLang();
        store.setLang(getLang());
        document.documentElement.lang = htmlLang();
        // Redraw the page in the new language; a table's connection stays as it is.
        if (app.tableId) redrawTable();
        else route();
        break;
      case "menu":
        toggleMenu(cmdEl);
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
      case "pista": {
        const asked = askPista(app.game);
        if (asked && send(asked.msg)) {
          app.game = asked.state;
          renderTable();
        }
        break;
      }
      case "rematch":
        if (send({ t: "rematch", d: {} })) {
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
      case "mute":
        store.setMuted(!store.muted());
        renderTable();
        break;
      case "play-here":
        playHere();
        break;
      case "bot":
        void fillBot(Number(cmdEl.dataset.seat));
        break;
      case "kick":
        void kickSeat(Number(cmdEl.dataset.seat));
        break;
      case "playnow":
        playNowCommand(cmdEl);
        break;
    }
  });

  root().addEventListener("submit", (ev) => {
    const form = ev.target as HTMLFormElement;
    ev.preventDefault();
    if (form.id === "create") void submitCreate(form);
    if (form.id === "account-form") submitAccount(form);
    if (form.id === "report-form") void submitReport(form);
    if (form.id === "chat-form") {
      const input = form.elements.namedItem("text") as HTMLInputElement;
      const msg = chatMessage(input.value);
      if (msg && send(msg)) input.value = "";
    }
  });

  root().addEventListener("change", (ev) => {
    const el = ev.target as HTMLElement;
    const form = el.closest("form");
    if (form?.id !== "create") return;
    // Once the creator picks a turn clock herself, the seats no longer choose it for her.
    if (el instanceof HTMLSelectElement && el.name === "turn") el.dataset.chosen = "";
    syncSeatRows(form);
  });

  root().addEventListener(
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

  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && modState.menu !== null) {
      closeMenu();
      renderTable();
      return;
    }
    // Keys 1-3 play the cards in hand (desktop convenience); 1-4 pick the pie's discard.
    const tag = (ev.target as HTMLElement).tagName;
    if (tag === "INPUT" || tag === "SELECT" || !app.game.view) return;
    const i = Number(ev.key) - 1;
    const card = app.game.view.cards[i];
    if (!card || i < 0 || i > 3) return;
    if (app.game.view.legal.includes(`discard ${card}`)) act(`discard ${card}`);
    else if (i < 3) act(`${app.tapada ? "tapada" : "play"} ${card}`);
  });
}
