// The table's WebSocket: connect with the last v, reconnect with backoff, keep alive with ping,
// and resync (reconnect from the last v) when the protocol state asks for it.

import { encodeClientMessage, parseServerMessage } from "./protocol";
import type { ClientMessage, ServerMessage } from "./types";

export type SocketStatus = "connecting" | "open" | "reconnecting" | "closed";

export interface SocketOptions {
  /** The URL to open, given the last version the client saw. */
  url: (v: number) => string;
  /** The subprotocols to offer (the seat token rides there: docs/protocol.md). */
  protocols?: () => string[];
  getV: () => number;
  onMessage: (msg: ServerMessage) => void;
  onStatus: (status: SocketStatus) => void;
  /** The server closed the socket because another connection took the seat (close 4001, e.g.
   * the same player on another device): the socket stops instead of taking it back. */
  onReplaced?: () => void;
  pingMs?: number;
  /** Reconnect when nothing at all was heard for this long. */
  silenceMs?: number;
  WebSocketImpl?: typeof WebSocket;
}

/** Close code: a newer connection took this one's seat (protocol.CLOSE_REPLACED). */
export const REPLACED = 4001;

/** Delay before reconnect attempt `n` (0-based): 0.3 s, doubling, at most 8 s. */
export function backoffDelay(n: number): number {
  return Math.min(8000, 300 * 2 ** Math.max(0, n));
}

export class TableSocket {
  private ws: WebSocket | null = null;
  private attempts = 0;
  private stopped = false;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private pingTimer: ReturnType<typeof setInterval> | null = null;
  private lastHeard = 0;
  private readonly Impl: typeof WebSocket;

  constructor(private readonly opts: SocketOptions) {
    this.Impl = opts.WebSocketImpl ?? WebSocket;
  }

  connect(): void {
    this.stopped = false;
    this.open();
  }

  private open(): void {
    this.teardown();
    this.opts.onStatus(this.attempts === 0 ? "connecting" : "reconnecting");
    const ws = new this.Impl(this.opts.url(this.opts.getV()), this.opts.protocols?.());
    this.ws = ws;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.attempts = 0;
      this.lastHeard = Date.now();
      this.opts.onStatus("open");
      this.startPing();
    };
    ws.onmessage = (ev: MessageEvent) => {
      if (this.ws !== ws) return;
      this.lastHeard = Date.now();
      if (typeof ev.data !== "string") return;
      const msg = parseServerMessage(ev.data);
      if (msg) this.opts.onMessage(msg);
    };
    ws.onclose = (ev: CloseEvent) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (ev?.code === REPLACED && this.opts.onReplaced) {
        // Reconnecting would take the seat back from the other device, which would do the same.
        this.clearTimers();
        this.stopped = true;
        this.opts.onStatus("closed");
        this.opts.onReplaced();
        return;
      }
      this.scheduleRetry();
    };
    ws.onerror = () => {
      // onclose follows and schedules the retry
    };
  }

  private startPing(): void {
    const every = this.opts.pingMs ?? 15000;
    const silence = this.opts.silenceMs ?? 40000;
    this.pingTimer = setInterval(() => {
      if (Date.now() - this.lastHeard > silence) {
        this.resync();
        return;
      }
      this.send({ t: "ping", d: {} });
    }, every);
  }

  private scheduleRetry(): void {
    this.clearTimers();
    if (this.stopped) {
      this.opts.onStatus("closed");
      return;
    }
    this.opts.onStatus("reconnecting");
    const delay = backoffDelay(this.attempts++);
    this.retryTimer = setTimeout(() => this.open(), delay);
  }

  /** Send a message now; false if the socket is not open (the caller keeps it pending). */
  send(msg: ClientMessage): boolean {
    const raw = encodeClientMessage(msg);
    if (!raw || !this.ws || this.ws.readyState !== this.Impl.OPEN) return false;
    this.ws.send(raw);
    return true;
  }

  get isOpen(): boolean {
    return this.ws !== null && this.ws.readyState === this.Impl.OPEN;
  }

  /** Drop the connection and open a new one from the last v (missed `ev`s, or a `full`). */
  resync(): void {
    if (this.stopped) return;
    this.attempts = 0;
    this.open();
  }

  close(): void {
    this.stopped = true;
    this.teardown();
    this.opts.onStatus("closed");
  }

  private clearTimers(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.retryTimer = null;
    this.pingTimer = null;
  }

  private teardown(): void {
    this.clearTimers();
    const ws = this.ws;
    this.ws = null;
    if (ws) {
      ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
      try {
        ws.close();
      } catch {
        /* already closed */
      }
    }
  }
}
