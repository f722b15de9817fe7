// Routes: "/" the lobby, "/t/ID" (or "/?t=ID") a table, "/anotador" the anotador, "/r/ID" a replay, "/torneo/ID" a tournament, "/ejercicios" the exercises.

import { renderAccount } from "./account";
import { openAnotador } from "./anotadorPage";
import { openEjercicios } from "./ejercicios";
import { openHome } from "./home";
import { header, root } from "./page";
import { openRatingPage } from "./ranking";
import { openReplayAt } from "./replay";
import { leaveTable, openTable } from "./table";
import { openTournamentPage } from "./tournaments";

export function isAnotador(): boolean {
  return /^\/anotador\/?$/.test(location.pathname);
}

/** Draw the page of the current address. */
export function route(): void {
  if (openReplayAt(location.pathname, location.search)) return;
  const m = /^\/t\/([^/]+)\/?$/.exec(location.pathname);
  const q = new URLSearchParams(location.search).get("t");
  const id = isAnotador() ? null : m?.[1] ? decodeURIComponent(m[1]) : q;
  if (id) {
    openTable(id);
    renderAccount();
    return;
  }
  leaveTable();
  if (openRatingPage(location.pathname, location.search)) return;
  if (openTournamentPage(location.pathname) || openEjercicios(location.pathname)) {
    renderAccount();
    return;
  }
  // The anotador is a page of its own: it needs no server.
  if (isAnotador()) openAnotador(root(), header());
  else openHome();
  renderAccount();
}
