// The lobby: the form that creates a table (a variant, its options, a bot or a person per seat)
// and the list of open tables.

import { ApiError, createTable, listTables } from "./api";
import { FALTA_MODES, TARGET_CHOICES } from "./generated";
import { type Html, html, mount } from "./html";
import { t, tr } from "./i18n";
import { $, errorText, guestName, header, navigate, root, showToast } from "./page";
import { playNowSection } from "./playnow";
import { lobbyList } from "./render";
import { store } from "./storage";
import { loadTournaments, tournamentsSection } from "./tournaments";
import { type BotLevel, BOT_LEVELS, VARIANTS, type Variant } from "./types";
import { createOptions, type CreateForm } from "./variants";

export function openHome(): void {
  document.title = t("title");
  mount(root(), homeShell(store.name()));
  const form = root().querySelector<HTMLFormElement>("#create");
  if (form) syncSeatRows(form);
  void refreshLobby();
  void loadTournaments();
}

/** The lobby: the create form (with `name`, the one the visitor used last) and the open tables. */
export function homeShell(name: string): Html {
  const opt = (v: string | number, label: string, sel = false) => html`<option value="${v}"${sel && " selected"}>${label}</option>`;
  const seatsRows = [1, 2, 3, 4, 5].map(
    (s) =>
      html`<div class="bot-row" data-row="${s}"><span>${t("seat_n", { n: s + 1 })}</span>
        <select name="seat${s}">${opt("human", t("human"))}${BOT_LEVELS.map((l) => opt(l, `${t("bot")}: ${tr(`level_${l}`, l)}`, l === "normal"))}</select></div>`,
  );
  return html`${header()}
    <main class="home">${playNowSection()}
    <section class="card-panel create-panel"><h2>${t("new_table")}</h2><form id="create">
    <label>${t("your_name")}<input name="name" maxlength="24" autocomplete="nickname" placeholder="${t("name_placeholder")}" value="${name}"></label>
    <label>${t("variant")}<select name="variant">${VARIANTS.map((v) => opt(v, t(`variant_${v}`), v === "standard"))}</select></label>
    <div class="grid2">
    <label data-for="standard paulista">${t("players")}<select name="players">${opt(2, "2 (1 vs 1)")}${opt(4, "4 (2 vs 2)", true)}${opt(6, "6 (3 vs 3)")}</select></label>
    <label data-for="destantado">${t("porotos")}<select name="porotos">${[3, 5, 10, 15].map((n) => opt(n, String(n), n === 10))}</select></label>
    <label data-for="pica_pica">${t("pica_from")}<select name="pica_from">${[1, 3, 5].map((n) => opt(n, String(n), n === 5))}</select></label>
    <label data-for="paulista">${t("manilhas")}<select name="manilhas">${opt("vira", t("manilhas_vira"), true)}${opt("velha", t("manilhas_velha"))}</select></label>
    <label data-for="paulista">${t("mao_de_ferro")}<select name="mao_de_ferro">${opt("cega", t("ferro_cega"), true)}${opt("aberta", t("ferro_aberta"))}</select></label>
    <label data-not="destantado paulista">${t("target")}<select name="target">${TARGET_CHOICES.map((n) => opt(n, String(n), n === 30))}</select></label>
    <label class="full" data-not="destantado paulista">${t("falta")}<select name="falta">${FALTA_MODES.map((f) => opt(f, tr(`falta_${f}`, f)))}</select></label>
    <label class="full">${t("tapada")}<select name="tapada">${["from_second", "off", "always"].map((f) => opt(f, tr(`tapada_${f}`, f)))}</select></label>
    <label>${t("turn_time")}<select name="turn">${opt(0, t("no_limit"))}${[30, 60, 90, 120].map((n) => opt(n, t("seconds", { n })))}</select></label>
    <label class="check" data-not="destantado paulista"><input type="checkbox" name="flor"> ${t("flor")}</label>
    <label class="check full" data-for="standard" title="${t("rated_hint")}"><input type="checkbox" name="rated"> ${t("rated")}</label>
    </div>
    <fieldset><legend>${t("seats")}</legend><div class="bot-row"><span>${t("seat_n", { n: 1 })}</span><span class="muted">${t("you")}</span></div>${seatsRows}</fieldset>
    <button class="primary wide" type="submit">${t("create")}</button></form></section>
    <section class="card-panel" id="my-tables" hidden></section>
    <section class="card-panel"><h2>${t("open_tables")} <button class="small ghost" data-cmd="refresh">${t("refresh")}</button></h2><div id="lobby"></div></section>
    ${tournamentsSection()}
    <section class="card-panel ejercicios-link"><h2>${t("ej_title")}</h2><p>${t("ej_intro")}</p>
    <a class="button" href="/ejercicios">${t("ej_open")}</a></section>
    <section class="card-panel anotador-link"><h2>${t("anotador")}</h2><p>${t("anotador_intro")}</p>
    <a class="button" href="/anotador" data-cmd="anotador">${t("anotador_open")}</a></section>
    </main>`;
}

function readForm(form: HTMLFormElement): CreateForm {
  const get = (n: string) => (form.elements.namedItem(n) as HTMLInputElement | HTMLSelectElement).value;
  return {
    variant: get("variant") as Variant,
    players: Number(get("players")),
    target: Number(get("target")),
    flor: (form.elements.namedItem("flor") as HTMLInputElement).checked,
    falta: get("falta") as CreateForm["falta"],
    tapada: get("tapada") as CreateForm["tapada"],
    porotos: Number(get("porotos")),
    pica_from: Number(get("pica_from")),
    manilhas: get("manilhas") === "velha" ? "velha" : "vira",
    mao_de_ferro: get("mao_de_ferro") === "aberta" ? "aberta" : "cega",
  };
}

/** Show the seats of the chosen variant, and only the options that apply to it. */
export function syncSeatRows(form: HTMLFormElement): void {
  const fields = readForm(form);
  const players = createOptions(fields).seats;
  form.querySelectorAll<HTMLElement>(".bot-row[data-row]").forEach((row) => {
    row.hidden = Number(row.dataset.row) >= players;
  });
  // data-for and data-not name variants, separated by spaces.
  const names = (list: string | undefined) => (list ?? "").split(" ");
  form.querySelectorAll<HTMLElement>("[data-for]").forEach((el) => {
    el.hidden = !names(el.dataset.for).includes(fields.variant);
  });
  form.querySelectorAll<HTMLElement>("[data-not]").forEach((el) => {
    el.hidden = names(el.dataset.not).includes(fields.variant);
  });
  // A person alone with bots keeps the time she wants: no turn clock unless she sets one. With
  // other people at the table a clock keeps an idle player from holding them up.
  const turn = form.elements.namedItem("turn") as HTMLSelectElement | null;
  if (turn && turn.dataset.chosen === undefined) {
    const get = (n: string) => (form.elements.namedItem(n) as HTMLSelectElement | null)?.value;
    const people = Array.from({ length: players - 1 }, (_, i) => get(`seat${i + 1}`)).some((v) => v === "human");
    turn.value = people ? String(DEFAULT_TURN_SECONDS) : "0";
  }
}

/** The turn clock a table with other people starts with (the creator may choose another). */
export const DEFAULT_TURN_SECONDS = 60;

export async function refreshLobby(): Promise<void> {
  const el = $("#lobby");
  if (!el) return;
  mount(el, lobbyList(null));
  try {
    const tables = await listTables();
    mount(el, lobbyList(Array.isArray(tables) ? tables : []));
  } catch {
    mount(el, html`<p class="muted">${t("err_network")}</p>`);
  }
}

export async function submitCreate(form: HTMLFormElement): Promise<void> {
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
  // Only the standard game is rated: the box is hidden for the variants, and ignored then.
  const ratedBox = form.elements.namedItem("rated") as HTMLInputElement | null;
  const rated = Boolean(ratedBox?.checked) && readForm(form).variant === "standard";
  try {
    const res = await createTable({
      name,
      options,
      bots,
      turn_seconds: turn > 0 ? turn : null,
      ...(rated ? { rated: true } : {}),
    });
    store.setSeat(res.table, { seat: res.seat, token: res.token });
    navigate(res.invite || `/t/${encodeURIComponent(res.table)}`);
  } catch (e) {
    showToast(e instanceof ApiError ? errorText(e.code, e.message) : t("err_network"));
  }
}
