import { afterEach, describe, expect, it } from "vitest";
import { account, accountArea, accountCommand } from "../src/account";
import type { Friends } from "../src/api";
import { followButton, friendsButton, friendsDialog, friendsState, tableOfPath } from "../src/friends";
import { setLang } from "../src/i18n";

afterEach(() => {
  setLang("es");
  account.me = null;
  account.dialog = null;
  friendsState.data = null;
  friendsState.note = "";
});

const data: Friends = {
  friends: [
    { name: "Beto <b>", online: true, tables: [{ table: "abc123", invite: "/t/abc123" }] },
    { name: "Caro", online: false, tables: [] },
  ],
  invites: [{ name: "Dani & Co", table: "t9", invite: "/t/t9", at: "2026-12-03T12:00:00Z" }],
  most: 200,
};

describe("Tus amigos", () => {
  it("lists each friend online or not, at his tables, and the invitations, with names as text", () => {
    const markup = String(friendsDialog({ data, note: "" }, null));
    expect(markup).toContain("<h2>Tus amigos</h2>");
    expect(markup).toContain('<li class="friend online"><a href="/jugador/Beto%20%3Cb%3E">Beto &lt;b&gt;</a>');
    expect(markup).toContain('<span class="presence">en línea</span>');
    expect(markup).toContain('<a class="friend-table" href="/t/abc123">en la mesa abc123</a>');
    expect(markup).toContain('<li class="friend offline"><a href="/jugador/Caro">Caro</a> · <span class="presence">desconectado</span></li>');
    expect(markup).toContain("Dani &amp; Co te invita a su mesa · <a href=\"/t/t9\">Ir a la mesa</a>");
    expect(markup).not.toContain("<b>");
    expect(markup).not.toContain("friend-invite"); // not on a table's page
    setLang("en");
    const english = String(friendsDialog({ data, note: "" }, null));
    expect(english).toContain("Your friends");
    expect(english).toContain(">online<");
    expect(english).toContain("at table abc123");
  });

  it("offers to invite each friend from a table's page", () => {
    const markup = String(friendsDialog({ data, note: "Invitaste a Caro." }, "abc123"));
    expect(markup).toContain('data-cmd="friend-invite" data-name="Beto &lt;b&gt;">Invitar a esta mesa</button>');
    expect(markup).toContain('data-cmd="friend-invite" data-name="Caro"');
    expect(markup).toContain("Invitaste a Caro.");
    expect(tableOfPath("/t/abc123")).toBe("abc123");
    expect(tableOfPath("/t/a%20b/")).toBe("a b");
    expect(tableOfPath("/jugador/Ana")).toBeNull();
  });

  it("says how to start, and counts the invitations on the account's button", () => {
    expect(String(friendsDialog({ data: { friends: [], invites: [], most: 200 }, note: "" }, null))).toContain("Todavía no seguís a nadie");
    expect(String(friendsButton(data))).toContain('Amigos <span class="badge" title="Te invitaron">1</span>');
    expect(String(friendsButton(null))).not.toContain("badge");
  });

  it("is in the account area of a named player, and opens there", () => {
    account.me = { id: "b".repeat(32), name: "Ana", seats: [] };
    expect(String(accountArea())).toContain('data-cmd="account-friends">Amigos</button>');
    expect(accountCommand("account-friends")).toBe(true);
    expect(account.dialog).toBe("friends");
    expect(String(accountArea())).toContain('role="dialog" aria-label="Tus amigos"');
    account.me = { id: "a".repeat(32), name: null, seats: [] };
    account.dialog = null;
    expect(String(accountArea())).not.toContain("account-friends");
  });

  it("follows and unfollows from a player's page", () => {
    expect(String(followButton("Beto", false))).toContain('data-cmd="follow" data-name="Beto">Seguir</button>');
    expect(String(followButton("Beto", true, "Seguís a Beto."))).toContain('data-cmd="unfollow" data-name="Beto">Dejar de seguir</button>');
    expect(String(followButton("Beto", true, "Seguís a Beto."))).toContain("Seguís a Beto.");
    expect(String(followButton("Beto", null))).not.toContain("<button");
    setLang("en");
    expect(String(followButton("Beto", true))).toContain(">Unfollow<");
  });
});
