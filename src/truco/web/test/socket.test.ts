import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { wsProtocols, wsUrl } from "../src/api";
import { TableSocket, backoffDelay } from "../src/socket";

class FakeWS {
  static OPEN = 1;
  static all: FakeWS[] = [];
  readyState = 0;
  sent: string[] = [];
  onopen: ((e: unknown) => void) | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onclose: ((e: unknown) => void) | null = null;
  onerror: ((e: unknown) => void) | null = null;
  constructor(
    public url: string,
    public protocols?: string | string[],
  ) {
    FakeWS.all.push(this);
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  drop() {
    this.readyState = 3;
    this.onclose?.({});
  }
  send(s: string) {
    this.sent.push(s);
  }
  close() {
    this.readyState = 3;
  }
}

beforeEach(() => {
  vi.useFakeTimers();
  FakeWS.all = [];
});
afterEach(() => vi.useRealTimers());

describe("socket", () => {
  it("backs off from 0.3 s to at most 8 s", () => {
    expect([0, 1, 2, 3, 4, 5, 9].map(backoffDelay)).toEqual([300, 600, 1200, 2400, 4800, 8000, 8000]);
  });

  it("builds the WebSocket URL with the last v, and offers the token as a subprotocol", () => {
    expect(wsUrl({ protocol: "https:", host: "x.org" }, "ab c", 7)).toBe("wss://x.org/ws/tables/ab%20c?v=7");
    expect(wsUrl({ protocol: "http:", host: "h:1" }, "id", 0)).toBe("ws://h:1/ws/tables/id");
    expect(wsProtocols("tk-_9")).toEqual(["truco", "token.tk-_9"]);
    // Without a token the client asks for its player's seat there, if it holds one (docs/players.md).
    expect(wsProtocols(null)).toEqual(["truco", "player"]);
  });

  it("opens the socket with the offered subprotocols, never the token in the URL", () => {
    const s = new TableSocket({
      url: (last) => `ws://h/ws/tables/t?v=${last}`,
      protocols: () => wsProtocols("secret"),
      getV: () => 3,
      onMessage: () => {},
      onStatus: () => {},
      WebSocketImpl: FakeWS as unknown as typeof WebSocket,
    });
    s.connect();
    expect(FakeWS.all[0]?.url).toBe("ws://h/ws/tables/t?v=3");
    expect(FakeWS.all[0]?.protocols).toEqual(["truco", "token.secret"]);
    s.close();
  });

  it("reconnects with the last v after a drop, and delivers parsed messages", () => {
    let v = 0;
    const got: string[] = [];
    const statuses: string[] = [];
    const s = new TableSocket({
      url: (last) => `ws://h/ws/tables/t?v=${last}`,
      getV: () => v,
      onMessage: (m) => got.push(m.t),
      onStatus: (st) => statuses.push(st),
      WebSocketImpl: FakeWS as unknown as typeof WebSocket,
    });
    s.connect();
    const first = FakeWS.all[0]!;
    first.open();
    first.onmessage?.({ data: '{"t":"pong","d":{}}' });
    first.onmessage?.({ data: "not json" });
    expect(got).toEqual(["pong"]);
    expect(s.send({ t: "ping", d: {} })).toBe(true);
    v = 42;
    first.drop();
    expect(statuses.at(-1)).toBe("reconnecting");
    expect(s.send({ t: "ping", d: {} })).toBe(false);
    vi.advanceTimersByTime(300);
    expect(FakeWS.all).toHaveLength(2);
    expect(FakeWS.all[1]!.url).toBe("ws://h/ws/tables/t?v=42");
    FakeWS.all[1]!.open();
    expect(statuses.at(-1)).toBe("open");
    s.resync();
    expect(FakeWS.all).toHaveLength(3);
    s.close();
    expect(statuses.at(-1)).toBe("closed");
    vi.advanceTimersByTime(60_000);
    expect(FakeWS.all).toHaveLength(3);
  });
});

describe("a seat taken by another connection", () => {
  it("stops instead of taking the seat back when the server says it was replaced (4001)", () => {
    const statuses: string[] = [];
    let replaced = 0;
    const socket = new TableSocket({
      url: () => "ws://x/ws/tables/t",
      getV: () => 0,
      onMessage: () => undefined,
      onStatus: (s) => statuses.push(s),
      onReplaced: () => replaced++,
      WebSocketImpl: FakeWS as unknown as typeof WebSocket,
    });
    socket.connect();
    FakeWS.all[0]!.open();
    FakeWS.all[0]!.readyState = 3;
    FakeWS.all[0]!.onclose?.({ code: 4001 });
    vi.advanceTimersByTime(60_000);
    expect(FakeWS.all.length).toBe(1);
    expect(replaced).toBe(1);
    expect(statuses.at(-1)).toBe("closed");
    // Any other close is a dropped line: it reconnects.
    socket.connect();
    FakeWS.all[1]!.open();
    FakeWS.all[1]!.drop();
    vi.advanceTimersByTime(1000);
    expect(FakeWS.all.length).toBe(3);
    socket.close();
  });
});
