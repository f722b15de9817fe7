// HTTP side of docs/protocol.md.

import type { BotLevel, Options, TableInfo } from "./types";

export class ApiError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface Created {
  table: string;
  seat: number;
  token: string;
  invite: string;
}

export interface Joined {
  seat: number;
  token: string;
}

export interface CreateRequest {
  name: string;
  options: Partial<Options>;
  bots: Record<string, BotLevel>;
  turn_seconds: number | null;
}

async function call<T>(method: string, path: string, body?: unknown, token?: string): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let res: Response;
  try {
    const init: RequestInit = { method, headers };
    if (body !== undefined) init.body = JSON.stringify(body);
    res = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, "network", String(e));
  }
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    const obj = (data ?? {}) as { code?: unknown; message?: unknown; detail?: unknown };
    const code = typeof obj.code === "string" ? obj.code : `http_${res.status}`;
    const message = typeof obj.message === "string" ? obj.message : text.slice(0, 200);
    throw new ApiError(res.status, code, message);
  }
  return data as T;
}

export function createTable(req: CreateRequest): Promise<Created> {
  return call<Created>("POST", "/api/tables", req);
}

export function listTables(): Promise<TableInfo[]> {
  return call<TableInfo[]>("GET", "/api/tables");
}

export function getTable(id: string): Promise<TableInfo> {
  return call<TableInfo>("GET", `/api/tables/${encodeURIComponent(id)}`);
}

export function joinTable(id: string, name: string, seat?: number): Promise<Joined> {
  const body: { name: string; seat?: number } = { name };
  if (seat !== undefined) body.seat = seat;
  return call<Joined>("POST", `/api/tables/${encodeURIComponent(id)}/seats`, body);
}

export function addBot(id: string, seat: number, level: BotLevel, token: string): Promise<unknown> {
  return call<unknown>("POST", `/api/tables/${encodeURIComponent(id)}/bots`, { seat, level }, token);
}

export function handUrl(id: string, n: number): string {
  return `/api/tables/${encodeURIComponent(id)}/hands/${n}.toml`;
}

export function matchUrl(id: string): string {
  return `/api/tables/${encodeURIComponent(id)}/match.toml`;
}

export function wsUrl(loc: { protocol: string; host: string }, id: string, v: number): string {
  const scheme = loc.protocol === "https:" ? "wss:" : "ws:";
  const qs = v > 0 ? `?v=${v}` : "";
  return `${scheme}//${loc.host}/ws/tables/${encodeURIComponent(id)}${qs}`;
}

/** The subprotocols offered on connect: the seat token travels there, never in the URL (a URL
 * ends up in access logs); the server answers with "truco" only. */
export function wsProtocols(token: string | null): string[] {
  return token ? ["truco", `token.${token}`] : ["truco"];
}

/** A finished hand's analysis (docs/coach.md): one seat's decisions, each with its label and
 * alternatives. During a match only a player's own, with his seat token. */
export function analyseHand<T>(id: string, hand: number, seat: number, token: string | null): Promise<T> {
  return call<T>("POST", `/api/tables/${encodeURIComponent(id)}/hands/${hand}/analysis`, { seat }, token ?? undefined);
}

/** The replay of a match (docs/protocol.md, "Replay"): its hands, and one hand's frames. During
 * a match only its players may ask, with their seat token. */
export function getReplay<T>(id: string, token: string | null): Promise<T> {
  return call<T>("GET", `/api/tables/${encodeURIComponent(id)}/replay`, undefined, token ?? undefined);
}

export function getReplayHand<T>(id: string, hand: number, token: string | null): Promise<T> {
  return call<T>("GET", `/api/tables/${encodeURIComponent(id)}/replay/${hand}`, undefined, token ?? undefined);
}
