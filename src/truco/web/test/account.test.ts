import { afterEach, describe, expect, it } from "vitest";
import { account, accountArea, accountCommand, errorWords } from "../src/account";
import { forgetMyTables, knowTable, myTables } from "../src/mytables";
import { ApiError, wsProtocols } from "../src/api";
import { setLang } from "../src/i18n";

afterEach(() => {
  setLang("es");
  account.me = null;
  account.dialog = null;
  account.note = "";
});

const anon = { id: "a".repeat(32), name: null, seats: [] };
const ana = { id: "b".repeat(32), name: "Ana Laura", seats: [{ table: "t1", seat: 0 }] };

describe("the account area", () => {
  it("shows an anonymous player the way to a name of her own", () => {
    const markup = String(accountArea({ me: anon, dialog: null, note: "", busy: false }));
    expect(markup).toContain("Anónimo");
    expect(markup).toContain('data-cmd="account-claim">Elegí tu nombre<');
    expect(markup).toContain('data-cmd="account-login">Entrar<');
    expect(markup).not.toContain("account-logout");
  });

  it("shows a named player her name, Salir and Cambiar contraseña, in English too", () => {
    const state = { me: ana, dialog: null, note: "", busy: false };
    const markup = String(accountArea(state));
    expect(markup).toContain("<b class=\"account-name\">Ana Laura</b>");
    expect(markup).toContain('data-cmd="account-logout">Salir<');
    expect(markup).toContain('data-cmd="account-password">Cambiar contraseña<');
    expect(markup).not.toContain("account-claim");
    setLang("en");
    expect(String(accountArea(state))).toContain('data-cmd="account-logout">Log out<');
  });

  it("draws nothing but the name until the server said who the player is", () => {
    expect(String(accountArea({ me: null, dialog: null, note: "", busy: false }))).not.toContain("<button");
  });

  it("asks for a new name and password with the server's limits, and for the old password to change it", () => {
    const claim = String(accountArea({ me: anon, dialog: "claim", note: "", busy: false }));
    expect(claim).toContain('id="account-form" data-kind="claim"');
    expect(claim).toContain('name="name" type="text" autocomplete="username" minlength="3" maxlength="20"');
    expect(claim).toContain('name="password" type="password" autocomplete="new-password" minlength="8" maxlength="128"');
    const login = String(accountArea({ me: anon, dialog: "login", note: "Nombre o contraseña incorrectos.", busy: false }));
    expect(login).toContain('autocomplete="current-password"');
    expect(login).toContain("Nombre o contraseña incorrectos.");
    const change = String(accountArea({ me: ana, dialog: "password", note: "", busy: true }));
    expect(change).toContain('name="password" type="password" autocomplete="current-password"');
    expect(change).toContain('name="new_password" type="password" autocomplete="new-password" minlength="8"');
    expect(change).toContain('type="submit" class="primary" disabled');
    // Cerrar las otras sesiones, beside the password that also closes them.
    expect(change).toContain('data-cmd="account-close-others" disabled>Cerrar las otras sesiones<');
  });

  it("opens and closes its dialogs, and leaves other commands alone", () => {
    account.me = anon;
    expect(accountCommand("account-claim")).toBe(true);
    // A claim refused: a bot's name says it is a bot's, a length the dialog's 3 to 20.
    const refused = new ApiError(422, "bad_name", "that name is a bot's, or looks like one");
    expect(errorWords(refused, "Tito")).toBe("Ese es el nombre de un bot (o se le parece): elegí otro.");
    expect(errorWords(refused, "x".repeat(21))).toBe("Un nombre reclamado tiene de 3 a 20 caracteres.");
    expect(errorWords(refused, "Al")).not.toContain("24");
    expect(errorWords(refused, "Ana\u0000x")).toContain("sin caracteres de control");
    expect(errorWords(refused, "\u3164\u3164\u3164")).toContain("invisibles");
    expect(errorWords(refused, "a\u0301\u0301\u0301\u0301\u0301")).toContain("marcas apiladas");
    // A look-alike of another player's claimed name says so, in its own words.
    const alike = new ApiError(422, "name_lookalike", "that name looks like 'Ana'");
    expect(errorWords(alike, "\u0410na")).toContain("se parece demasiado");
    expect(account.dialog).toBe("claim");
    expect(accountCommand("account-cancel")).toBe(true);
    expect(account.dialog).toBe(null);
    expect(accountCommand("account-login")).toBe(true);
    expect(account.dialog).toBe("login");
    expect(accountCommand("rematch")).toBe(false);
    expect(account.dialog).toBe("login");
  });

  it("lists the tables where the player sits, as links to them", () => {
    expect(String(myTables(anon))).toBe("");
    const markup = String(myTables({ ...ana, seats: [{ table: "a b", seat: 2 }] }));
    expect(markup).toContain("Tus mesas");
    expect(markup).toContain('<a href="/t/a%20b">Mesa a b, asiento 3</a>');
  });

  it("asks the server for the player's own seat when the tab has no token", () => {
    expect(wsProtocols(null)).toEqual(["truco", "player"]);
  });
});

describe("Tus mesas", () => {
  const seat = (n: number, name: string, kind: "human" | "bot" | "empty" = "human") => ({ seat: n, name, kind, level: null });
  const info = (over: Record<string, unknown>) =>
    ({ table: "t1", options: { players: 2 }, seats: [], status: "playing", v: 1, match: 1, turn_seconds: null, ...over }) as never;

  afterEach(() => forgetMyTables());

  it("names a table by its rivals and its score, hers first", () => {
    knowTable(info({ seats: [seat(0, "Ana Laura"), seat(1, "Beto")], score: [12, 9] }));
    expect(String(myTables(ana))).toContain('<a href="/t/t1">Contra Beto · 12 a 9</a>');
    knowTable(info({ options: { players: 4 }, seats: [seat(0, "Ana Laura"), seat(1, "Beto"), seat(2, "Caro"), seat(3, "Don Ramón", "bot")], score: [3, 7] }));
    expect(String(myTables(ana))).toContain("Contra Beto y Don Ramón · 3 a 7");
    setLang("en");
    expect(String(myTables(ana))).toContain("Against Beto and Don Ramón · 3 to 7");
  });

  it("says when the table waits, and where each plays alone gives every score", () => {
    knowTable(info({ status: "waiting", seats: [seat(0, "Ana Laura"), seat(1, "", "empty")], score: [0, 0] }));
    expect(String(myTables(ana))).toContain("Mesa esperando rivales");
    knowTable(info({ status: "waiting", seats: [seat(0, "Ana Laura"), seat(1, "Beto")], score: [0, 0] }));
    expect(String(myTables(ana))).toContain("Contra Beto · por empezar");
    const gallo = { options: { players: 3, variant: "pata_de_gallo" }, seats: [seat(0, "Ana Laura"), seat(1, "Beto"), seat(2, "Caro")], score: [4, 6, 2] };
    knowTable(info(gallo));
    expect(String(myTables(ana))).toContain("Contra Beto y Caro · 4 a 6 · 2");
  });

  it("keeps the plain name of a table that did not answer", () => {
    expect(String(myTables(ana))).toContain("Mesa t1, asiento 1");
  });
});
