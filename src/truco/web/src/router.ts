// Routes: "/" the lobby, "/t/ID" (or "/?t=ID") a table, "/anotador" the anotador, "/r/ID" a replay.

import { openAnotador } from "./anotadorPage";
import { openHome } from "./home";
import { header, root } from "./page";
import { openReplayAt } from "./replay";
import { leaveTable, openTable } from "./table";

export function isAnotador(): boolean {
  return /^\/anotador\/?$/.test(location.pathname);
}

/** Draw the page of the current address. */
export function route(): void {
  if (openReplayAt(location.pathname)) return;
  const m = /^\/t\/([^/]+)\/?$/.exec(location.pathname);
  const q = new URLSearchParams(location.search).get("t");
  const id = isAnotador() ? null : m?.[1] ? decodeURIComponent(m[1]) : q;
  if (id) {
    openTable(id);
    return;
  }
  leaveTable();
  // The anotador is a page of its own: it needs no server.
  if (isAnotador()) openAnotador(root(), header());
  else openHome();
}
