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
  /** A rated table (docs/players.md): every person needs a claimed name. */
  rated?: boolean;
}

export async function call<T>(method: string, path: string, body?: unknown, token?: string, keepalive = false): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let res: Response;
  try {
    const init: RequestInit = { method, headers };
    if (keepalive) init.keepalive = true;
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

/** The creator removes a seat's person (or bot) before the match starts (docs/players.md). */
export function removeSeat(id: string, seat: number, token: string): Promise<unknown> {
  return call<unknown>("DELETE", `/api/tables/${encodeURIComponent(id)}/seats/${seat}`, undefined, token);
}

export function addBot(id: string, seat: number, level: BotLevel, token: string): Promise<unknown> {
  return call<unknown>("POST", `/api/tables/${encodeURIComponent(id)}/bots`, { seat, level }, token);
}

/** A ticket of "Jugar ahora" as the server answers it (docs/protocol.md, "Jugar ahora"). */
export interface QueueStatus {
  ticket: string;
  mode: string;
  status: "waiting" | "matched" | "left";
  waited: number;
  offer: "bots" | null;
  table: string | null;
  seat: number | null;
  invite: string | null;
}

/** A new ticket comes with the seat token its seat will take. */
export interface QueueTicket extends QueueStatus {
  token: string;
}

export function joinQueue(mode: string, name: string): Promise<QueueTicket> {
  return call<QueueTicket>("POST", "/api/queue", { mode, name });
}

export function queueStatus(ticket: string, wait: number): Promise<QueueStatus> {
  return call<QueueStatus>("GET", `/api/queue/${encodeURIComponent(ticket)}?wait=${wait}`);
}

/** Leave the queue; `keepalive`: the request outlives the page (sent as the tab closes). */
export function leaveQueue(ticket: string, keepalive = false): Promise<QueueStatus> {
  return call<QueueStatus>("DELETE", `/api/queue/${encodeURIComponent(ticket)}`, undefined, undefined, keepalive);
}

export function takeBots(ticket: string): Promise<QueueStatus> {
  return call<QueueStatus>("POST", `/api/queue/${encodeURIComponent(ticket)}/bots`);
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
 * ends up in access logs); the server answers with "truco" only. Without a token, "player" asks
 * for the seat the player of this browser's identity cookie holds there (docs/players.md). */
export function wsProtocols(token: string | null): string[] {
  return token ? ["truco", `token.${token}`] : ["truco", "player"];
}

/** A finished hand's analysis (docs/coach.md): one seat's decisions, each with its label and
 * alternatives. During a match only a player's own, with his seat token. */
export function analyseHand<T>(id: string, hand: number, seat: number, token: string | null): Promise<T> {
  return call<T>("POST", `/api/tables/${encodeURIComponent(id)}/hands/${hand}/analysis`, { seat }, token ?? undefined);
}

/** The player behind this browser (docs/players.md). */
export interface Me {
  id: string;
  name: string | null;
  seats: { table: string; seat: number }[];
}

export function getMe(): Promise<Me> {
  return call<Me>("GET", "/api/me");
}

export function claimName(name: string, password: string): Promise<Me> {
  return call<Me>("POST", "/api/me/name", { name, password });
}

export function logIn(name: string, password: string): Promise<Me> {
  return call<Me>("POST", "/api/login", { name, password });
}

export function logOut(): Promise<Me> {
  return call<Me>("POST", "/api/logout");
}

/** Cerrar las otras sesiones: how many of the player's other sessions were ended. */
export function closeOtherSessions(): Promise<{ ended: number }> {
  return call<{ ended: number }>("POST", "/api/me/sessions/close-others");
}

export function changePassword(password: string, newPassword: string): Promise<Me> {
  return call<Me>("POST", "/api/me/password", { password, new_password: newPassword });
}

/** Amigos (docs/players.md): the players one follows, who of them is online and at which
 * tables, and the invitations received. */
export interface Friend {
  name: string;
  online: boolean;
  tables: { table: string; invite: string }[];
}

export interface Invitation {
  name: string;
  table: string;
  invite: string;
  at: string;
}

export interface Friends {
  friends: Friend[];
  invites: Invitation[];
  most: number;
}

export interface Following {
  name: string;
  following: boolean;
  /** The name is the asker's own. */
  yourself?: boolean;
}

export function getFriends(): Promise<Friends> {
  return call<Friends>("GET", "/api/me/friends");
}

export function getFollowing(name: string): Promise<Following> {
  return call<Following>("GET", `/api/me/friends/${encodeURIComponent(name)}`);
}

export function follow(name: string): Promise<Following> {
  return call<Following>("POST", "/api/me/friends", { name });
}

export function unfollow(name: string): Promise<Following> {
  return call<Following>("DELETE", `/api/me/friends/${encodeURIComponent(name)}`);
}

export function inviteFriend(name: string, table: string): Promise<{ name: string; table: string; invite: string }> {
  return call("POST", "/api/me/invites", { name, table });
}

/** One page of a mode's ranking (docs/players.md): all-time (by rating), or the week's or the
 * month's (by the rating points won in it). */
export function getLeaderboard(mode: string, offset: number, limit: number, period: Period = "all"): Promise<Leaderboard> {
  const q = new URLSearchParams({ mode, offset: String(offset), limit: String(limit), period });
  return call<Leaderboard>("GET", `/api/leaderboard?${q.toString()}`);
}

/** A player's ratings, rating history and rated matches (docs/players.md). */
export function getPlayer(name: string): Promise<PlayerInfo> {
  return call<PlayerInfo>("GET", `/api/players/${encodeURIComponent(name)}`);
}

/** The replay of a match (docs/protocol.md, "Replay"): its hands, and one hand's frames; `match`
 * one of the table's matches (null: its current one). During a match only its players may ask,
 * with their seat token. */
export function getReplay<T>(id: string, match: number | null, token: string | null): Promise<T> {
  const qs = match === null ? "" : `?match=${match}`;
  return call<T>("GET", `/api/tables/${encodeURIComponent(id)}/replay${qs}`, undefined, token ?? undefined);
}

export function getReplayHand<T>(id: string, match: number | null, hand: number, token: string | null): Promise<T> {
  const qs = match === null ? "" : `?match=${match}`;
  return call<T>("GET", `/api/tables/${encodeURIComponent(id)}/replay/${hand}${qs}`, undefined, token ?? undefined);
}

// The players' pages' answers (docs/players.md), drawn by ranking.ts.

export const PERIODS = ["all", "week", "month"] as const;
export type Period = (typeof PERIODS)[number];

export interface LeaderboardRow {
  name: string;
  rating: number;
  /** All-time: his rated matches in the mode; a period's: those he finished in it. */
  matches: number;
  provisional: boolean;
  /** A period's ranking: the rating points he won in it; null all-time. */
  gained?: number | null;
  /** A period's ranking: the matches of it he won; null all-time. */
  won?: number | null;
}

export interface Leaderboard {
  mode: string;
  period?: Period;
  /** When the period began (ISO 8601); null all-time. */
  since?: string | null;
  players: LeaderboardRow[];
}

export interface ModeRating {
  rating: number;
  matches: number;
  provisional: boolean;
}

export interface HistoryPoint {
  at: string;
  rating: number;
}

export interface Someone {
  name: string;
  /** A bot's level (its name is its persona); null for a person. */
  level: string | null;
}

export interface PlayedMatch {
  table: string;
  match: number;
  mode: string;
  at: string;
  result: "won" | "lost" | "left";
  before: number;
  after: number;
  partners: Someone[];
  rivals: Someone[];
  replay: string;
}

export interface PlayerInfo {
  name: string;
  ratings: Partial<Record<string, ModeRating>>;
  history: Partial<Record<string, HistoryPoint[]>>;
  matches: PlayedMatch[];
}
