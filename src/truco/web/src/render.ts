// Markup for each part of the screen, built from the state with the html tag (main.ts puts it
// in place). Names, chat and every translated string are text here, never markup.

import { cardSvg } from "./cards";
import { fosforosSvg, halfOf, inBuenas } from "./fosforos";
import { type Html, html, join, NOTHING } from "./html";
import { actionLabel, callLabel, cardName, t, tr } from "./i18n";
import {
  type GameState,
  type HandSummary,
  discards,
  isIndividual,
  lastWords,
  playedBySeat,
  sitsOut,
  stakeOf,
  teamOf,
  variantOf,
} from "./protocol";
import { type GameEvent, SENAS, type SeatInfo, type TableInfo, type View, BOT_LEVELS } from "./types";

/** Where each seat sits on the board, relative to the viewer (rel 0 is at the bottom), in % of
 * the board: styles.css places `.board.players-N .seat.rel-R` there (test/markup.test.ts). */
export function seatPosition(rel: number, players: number): [number, number] {
  const layouts: Record<number, [number, number][]> = {
    2: [
      [50, 90],
      [50, 10],
    ],
    3: [
      [50, 90],
      [84, 28],
      [16, 28],
    ],
    4: [
      [50, 90],
      [88, 50],
      [50, 10],
      [12, 50],
    ],
    6: [
      [50, 90],
      [86, 70],
      [86, 28],
      [50, 10],
      [14, 28],
      [14, 70],
    ],
  };
  const list = layouts[players] ?? layouts[2]!;
  return list[rel % list.length] ?? [50, 50];
}

/** A seat's name; where two seats share it (bots of one kind), with the seat's number. */
export function seatName(table: TableInfo | null, seat: number): string {
  const info = table?.seats.find((s) => s.seat === seat);
  const name = info?.name;
  if (!name) return t("seat_n", { n: seat + 1 });
  const shared = table?.seats.some((s) => s.seat !== seat && s.name === name) ?? false;
  return shared ? `${name} ${seat + 1}` : name;
}

/** A side of the hand: a team, the pie or the pair in pata de gallo, a player in destantado. */
export function teamLabel(team: number, viewer: number | null, view: View | null = null, table: TableInfo | null = null): string {
  const variant = variantOf(view?.options);
  if (view && variant === "destantado") return seatName(table, team);
  if (viewer !== null) return team === teamOf(viewer, view) ? t("team_us") : t("team_them");
  if (view && variant === "pata_de_gallo") {
    const seats = view.teams.map((side, seat) => [side, seat] as const).filter(([side]) => side === team);
    return seats.map(([, seat]) => seatName(table, seat)).join(" · ");
  }
  return t("team_n", { n: team + 1 });
}

/** Whose a score is: a team, or a player where scores are individual. */
export function scorerLabel(index: number, viewer: number | null, view: View | null, table: TableInfo | null = null): string {
  if (view && isIndividual(view.options)) {
    return index === viewer ? `${seatName(table, index)} (${t("you")})` : seatName(table, index);
  }
  return teamLabel(index, viewer, null, table);
}

/** Destantado's pile of porotos, one bean each. */
export function porotosPile(n: number): Html {
  const beans = Array.from({ length: Math.max(0, Math.min(n, 40)) }, () => html`<span class="poroto"></span>`);
  return html`<span class="porotos" data-porotos="${n}" title="${t("porotos_n", { n })}">${beans}</span>`;
}

function playerBoards(view: View, viewer: number | null, table: TableInfo | null): Html {
  const n = view.score.length;
  const target = view.options.target;
  const destantado = variantOf(view.options) === "destantado";
  const order = Array.from({ length: n }, (_, i) => (i + (viewer ?? 0)) % n);
  const boards = order.map((seat) => {
    const score = view.score[seat] ?? 0;
    const label = scorerLabel(seat, viewer, view, table);
    const drawing = destantado ? porotosPile(score) : fosforosSvg(score, target, `${label}: ${score}`);
    const cls = `team player${seat === viewer ? " ours" : ""}${view.pie === seat ? " is-pie" : ""}${view.winner === seat ? " winner" : ""}`;
    return html`<div class="${cls}" data-seat="${seat}">
      <div class="team-head"><span class="team-name">${label}</span>
      <span class="team-score" data-score="${score}">${score}</span></div>${drawing}</div>`;
  });
  return html`<div class="scoreboard players">${boards}
    <div class="target">${destantado ? t("first_to_empty") : `${t("target")}: ${target}`}</div>
    </div>`;
}

export function scoreboard(view: View, viewer: number | null, table: TableInfo | null = null): Html {
  if (isIndividual(view.options)) return playerBoards(view, viewer, table);
  const target = view.options.target;
  const half = halfOf(target);
  const teams = [0, 1];
  // The viewer's team first.
  if (viewer !== null && teamOf(viewer) === 1) teams.reverse();
  const boards = teams.map((team) => {
    const score = view.score[team] ?? 0;
    const label = teamLabel(team, viewer);
    const state = half === null ? "" : inBuenas(score, target) ? t("buenas") : t("malas");
    return html`<div class="team team-${team}${viewer !== null && team === teamOf(viewer) ? " ours" : ""}">
      <div class="team-head"><span class="team-name">${label}</span>
      <span class="team-score" data-score="${score}">${score}</span>
      ${state && html`<span class="team-half">${state}</span>`}
      </div>${fosforosSvg(score, target, `${label}: ${score}`)}</div>`;
  });
  return html`<div class="scoreboard">${boards}<div class="target">${t("target")}: ${target}</div></div>`;
}

function callName(view: View): string | null {
  if (view.flor_call) return view.flor_chain[view.flor_chain.length - 1] ?? "flor";
  if (view.envido_call) return view.chain[view.chain.length - 1] ?? "envido";
  if (view.truco_call) return ["", "", "truco", "retruco", "vale-cuatro"][view.truco_call[0]] ?? "truco";
  return null;
}

function declaredFor(view: View, seat: number): string | null {
  let out: string | null = null;
  for (const [who, points, flor] of view.declared) {
    if (who !== seat) continue;
    if (points === null) out = t("son_buenas");
    else out = flor ? t("flor_declares", { n: points }) : t("declares", { n: points });
  }
  return out;
}

export interface BoardExtras {
  senas: GameState["senas"];
  now: number;
  turnLeft: number | null;
}

export function board(state: GameState, extras: BoardExtras): Html {
  const view = state.view;
  if (!view) {
    const text = state.table?.status === "waiting" ? t("waiting") : t("connecting");
    return html`<div class="board empty"><p class="muted">${text}</p></div>`;
  }
  const n = view.options.players;
  const me = state.seat ?? 0;
  const played = playedBySeat(view);
  const words = lastWords(view);
  const parts: Html[] = [];
  for (let seat = 0; seat < n; seat++) {
    const rel = (seat - me + n) % n;
    const info = state.table?.seats.find((s) => s.seat === seat);
    const out = sitsOut(view, seat);
    const classes = ["seat", `team-${teamOf(seat, view)}`, `rel-${rel}`];
    if (view.to_act === seat) classes.push("to-act");
    if (out) classes.push("sitting-out");
    else if (view.retired.includes(seat)) classes.push("retired");
    if (view.pie === seat) classes.push("pie");
    if (seat === state.seat) classes.push("me");
    if (info && info.kind !== "empty" && !info.connected && info.kind === "human") classes.push("away");
    const badges: Html[] = [];
    if (view.mano === seat) badges.push(html`<span class="badge mano">${t("mano")}</span>`);
    if (info?.kind === "bot")
      badges.push(html`<span class="badge bot" title="${t("bot")}">${tr(`level_${info.level ?? ""}`, info.level ?? "")}</span>`);
    if (view.pie === seat) badges.push(html`<span class="badge pie">${t("pie")}</span>`);
    const destantado = variantOf(view.options) === "destantado";
    if (out) badges.push(html`<span class="badge sits-out">${t("sits_out")}</span>`);
    else if (view.retired.includes(seat))
      badges.push(html`<span class="badge out">${destantado ? t("out_of_bet") : t("retired")}</span>`);
    else if (destantado && stakeOf(view, seat) > 0)
      badges.push(html`<span class="badge bet" data-stake="${stakeOf(view, seat)}">${t("in_bet", { n: stakeOf(view, seat) })}</span>`);
    if (info?.replaced) badges.push(html`<span class="badge away">${t("replaced")}</span>`);
    const backs =
      seat === state.seat
        ? NOTHING
        : html`<div class="backs">${Array.from({ length: view.hand_sizes[seat] ?? 0 }, () => html`<span class="mini-back"></span>`)}</div>`;
    const bubbles: Html[] = [];
    const word = words.get(seat);
    if (word && word !== "mazo" && view.phase === "play") bubbles.push(html`<span class="bubble say">${actionLabel(word)}</span>`);
    const decl = declaredFor(view, seat);
    if (decl) bubbles.push(html`<span class="bubble decl">${decl}</span>`);
    for (const s of extras.senas) {
      if (s.seat === seat && extras.now - s.at < 8000)
        bubbles.push(html`<span class="bubble sena">${t("sena")}: ${tr(`sena_${s.sena}`, s.sena)}</span>`);
    }
    const timer = view.to_act === seat && extras.turnLeft !== null && html`<span class="timer">${extras.turnLeft} s</span>`;
    parts.push(
      html`<div class="${classes.join(" ")}" data-seat="${seat}">
        <div class="plate"><span class="seat-name">${seatName(state.table, seat)}${seat === state.seat && ` (${t("you")})`}</span>${timer}
        <div class="badges">${badges}</div>${backs}</div>
        ${bubbles.length > 0 && html`<div class="bubbles">${bubbles}</div>`}
        </div>`,
    );
    // The cards this seat put on the table, between its plate and the centre.
    const mine = played.get(seat) ?? [];
    if (mine.length) {
      const cards = mine.map(({ card, trick }) => {
        const result = view.results[trick];
        let cls = "played";
        if (result !== undefined) {
          cls += result === -1 ? " parda" : result === teamOf(seat, view) ? " won" : " lost";
        } else cls += " current";
        if (card[2] && card[1]) cls += " face-down"; // the viewer's own tapada
        const label = card[1] ? cardName(card[1]) : t("tapada");
        return html`<div class="${cls}" title="${t("trick_n", { n: trick + 1 })}">${cardSvg(card[1], label)}</div>`;
      });
      parts.push(html`<div class="pile rel-${rel}">${cards}</div>`);
    }
  }
  const call = callName(view);
  const center: Html[] = [];
  if (view.hand > 0) center.push(html`<div class="hand-no">${t("hand_n", { n: view.hand })}</div>`);
  if (view.hand > 0 && variantOf(view.options) === "pica_pica") {
    const pica = view.pica ?? -1;
    center.push(
      html`<div class="pica-label${pica >= 0 ? " pica" : ""}">${pica >= 0 ? t("pica_hand", { n: pica + 1 }) : t("everyone_hand")}</div>`,
    );
  }
  if (view.discard !== null && view.discard !== undefined && view.phase === "play") {
    center.push(html`<div class="waiting-call discarding">${t("discarding", { name: seatName(state.table, view.discard) })}</div>`);
  }
  if (state.table?.status === "waiting") center.push(html`<div class="waiting">${t("waiting")}</div>`);
  if (view.truco >= 2) {
    center.push(html`<div class="truco-level">${callLabel(["", "", "truco", "retruco", "vale-cuatro"][view.truco] ?? "truco")} · ${view.truco}</div>`);
  }
  if (call) {
    const caller = view.flor_call?.[0] ?? view.envido_call?.[0] ?? view.truco_call?.[1] ?? 0;
    center.push(html`<div class="waiting-call">${t("truco_waiting", { name: seatName(state.table, caller), call: callLabel(call) })}</div>`);
  }
  return html`<div class="board players-${n}"><div class="felt"></div><div class="center">${center}</div>${parts}</div>`;
}

/** The viewer's cards, and the buttons for the legal calls. */
export function handAndActions(state: GameState, tapadaMode: boolean): Html {
  const view = state.view;
  if (!view) return NOTHING;
  if (state.seat === null) {
    const turn =
      view.phase === "play" && view.to_act !== null && view.to_act >= 0 && ` · ${t("turn_of", { name: seatName(state.table, view.to_act) })}`;
    return html`<div class="my-area"><div class="status-line"><span class="spectating">${t("spectator")}</span>${turn}</div></div>`;
  }
  const legal = view.legal;
  const toDiscard = new Set(discards(view));
  const plays = new Set(legal.filter((a) => a.startsWith("play ")).map((a) => a.slice(5)));
  const tapadas = new Set(legal.filter((a) => a.startsWith("tapada ")).map((a) => a.slice(7)));
  const busy = state.pending !== null;
  const cards = view.cards.map((c) => {
    if (toDiscard.size > 0) {
      const can = !busy && toDiscard.has(c);
      return html`<button class="my-card${can ? " playable discard-pick" : ""}" 
        ${can ? html`data-act="${`discard ${c}`}"` : "disabled"} aria-label="${cardName(c)}">${cardSvg(c, cardName(c))}</button>`;
    }
    const playable = !busy && (tapadaMode ? tapadas.has(c) : plays.has(c));
    const action = tapadaMode ? `tapada ${c}` : `play ${c}`;
    return html`<button class="my-card${playable ? " playable" : ""}${tapadaMode && playable ? " tapada-pick" : ""}" 
      ${playable ? html`data-act="${action}"` : "disabled"} aria-label="${cardName(c)}">${cardSvg(c, cardName(c))}</button>`;
  });
  const calls = legal.filter((a) => !a.startsWith("play ") && !a.startsWith("tapada ") && !a.startsWith("discard "));
  const envidoPrimero = view.truco_call !== null && view.envido_call === null;
  const buttons = calls.map((a) => {
    const label = actionLabel(a);
    let cls = `act act-${a}`;
    if (envidoPrimero && /envido/.test(a)) cls += " primero";
    return html`<button class="${cls}"${busy ? " disabled" : html` data-act="${a}"`}>${label}</button>`;
  });
  if (tapadas.size > 0) {
    buttons.push(
      html`<button class="act toggle${tapadaMode ? " on" : ""}" data-cmd="tapada"${busy && " disabled"}>${tapadaMode ? t("tapada_on") : t("tapada_mode")}</button>`,
    );
  }
  const info: string[] = [];
  if (view.trick === 0 && view.phase === "play" && view.discard !== state.seat && view.cards.length > 0) {
    if (view.flor !== null) info.push(t("flor_points", { n: view.flor }));
    else if (view.tantos !== null) info.push(t("tantos", { n: view.tantos }));
  }
  const turn =
    view.phase !== "play"
      ? NOTHING
      : view.to_act === state.seat
        ? html`<span class="turn mine">${t("your_turn")}</span>`
        : view.to_act !== null && view.to_act >= 0
          ? html`<span class="turn">${t("turn_of", { name: seatName(state.table, view.to_act) })}</span>`
          : NOTHING;
  return html`<div class="my-area">
    <div class="status-line">${turn}${info.map((s) => html`<span class="tantos">${s}</span>`)}</div>
    ${envidoPrimero && calls.some((a) => /envido/.test(a)) && html`<div class="hint">${t("envido_primero")}</div>`}
    ${toDiscard.size > 0 && html`<div class="hint discard-hint">${t("discard_hint")}</div>`}
    <div class="actions">${buttons}</div>
    <div class="my-cards">${cards}</div>
    </div>`;
}

export function senasPanel(state: GameState): Html {
  const view = state.view;
  if (!view || state.seat === null || view.options.players <= 2 || variantOf(view.options) === "destantado") return NOTHING;
  return html`<details class="senas"><summary>${t("senas")}</summary><div class="sena-buttons">
    ${SENAS.map((s) => html`<button class="sena" data-sena="${s}">${tr(`sena_${s}`, s)}</button>`)}
    </div></details>`;
}

export function chatLines(state: GameState): Html {
  return join(
    state.chat.map(
      (c) => html`<div class="chat-line"><b class="team-${c.seat === null ? "x" : teamOf(c.seat)}">${c.name}:</b> ${c.text}</div>`,
    ),
  );
}

export function eventLine(e: GameEvent, table: TableInfo | null, viewer: number | null, view: View | null = null): string | null {
  const who = (seat: number) => seatName(table, seat);
  const side = (team: number) => teamLabel(team, viewer, view, table);
  switch (e.type) {
    case "HandStarted":
      return `— ${t("hand_n", { n: e.hand })} —`;
    case "CardPlayed":
      return `${who(e.seat)} ${e.card ? actionLabel(`play ${e.card}`) : actionLabel("tapada")}`;
    case "Called":
      return `${who(e.seat)}: ${callLabel(e.verb)}`;
    case "Answered":
      return `${who(e.seat)}: ${actionLabel(e.verb)}`;
    case "WentToMazo":
      return `${who(e.seat)}: ${actionLabel("mazo")}`;
    case "TrickEnded":
      return `${t("trick_n", { n: e.trick + 1 })}: ${e.team === -1 ? t("parda") : t("won_by", { team: side(e.team) })}`;
    case "PointsDeclared":
      return `${who(e.seat)}: ${e.points === null ? t("son_buenas") : e.flor ? t("flor_declares", { n: e.points }) : e.points}`;
    case "Scored":
      return `${scorerLabel(e.team, viewer, view, table)} +${e.points} (${tr(`reason_${e.reason}`, e.reason)})`;
    case "Discarded":
      return `${who(e.seat)} ${t("discarded")}`;
    case "PorotosPassed":
      return `${e.to >= 0 ? t("passes", { from: who(e.seat), n: e.points, to: who(e.to) }) : t("passes_pot", { from: who(e.seat), n: e.points })} (${tr(`reason_${e.reason}`, e.reason)})`;
    case "CardsShown":
      return `${who(e.seat)}: ${e.cards.map((c) => cardName(c)).join(", ")}`;
    case "HandEnded":
      return `${t("hand_points")}: ${e.points.join(" – ")}`;
    case "MatchEnded":
      return `${t("match_over")}: ${scorerLabel(e.winner, viewer, view, table)}`;
    default:
      return null;
  }
}

export function logLines(state: GameState): Html {
  return join(
    state.log
      .map((e) => eventLine(e, state.table, state.seat, state.view))
      .filter((s): s is string => s !== null)
      .map((s) => html`<div class="log-line">${s}</div>`),
  );
}

export function summaryModal(s: HandSummary, state: GameState, handHref: string): Html {
  const viewer = state.seat;
  const tricks = s.tricks.map((trick, i) => {
    const result = s.results[i];
    const res =
      result === undefined ? "" : result === -1 ? t("parda") : t("won_by", { team: teamLabel(result, viewer, s.view, state.table) });
    return html`<div class="sum-trick"><span class="sum-label">${t("trick_n", { n: i + 1 })}</span>
      ${trick.map(
        ([seat, card]) =>
          html`<span class="sum-card" title="${seatName(state.table, seat)}">${cardSvg(card, card ? cardName(card) : t("tapada"))}<small>${seatName(state.table, seat)}</small></span>`,
      )}
      <span class="sum-res">${res}</span></div>`;
  });
  const declared = s.declared.map(
    ([seat, pts, flor]) =>
      html`<li>${seatName(state.table, seat)}: ${pts === null ? t("son_buenas") : flor ? t("flor_declares", { n: pts }) : String(pts)}</li>`,
  );
  const shown = s.shown.map(
    ([seat, cards]) =>
      html`<div class="sum-shown"><span>${seatName(state.table, seat)}</span>${cards.map((c) => html`<span class="sum-card">${cardSvg(c, cardName(c))}</span>`)}</div>`,
  );
  const scored = s.scored.map(
    (x) => html`<li>${scorerLabel(x.team, viewer, s.view, state.table)}: +${x.points} ${tr(`reason_${x.reason}`, x.reason)}</li>`,
  );
  const who = (seat: number) => seatName(state.table, seat);
  const passed = s.passed.map(
    (x) =>
      html`<li class="passed">${x.to >= 0 ? t("passes", { from: who(x.seat), n: x.points, to: who(x.to) }) : t("passes_pot", { from: who(x.seat), n: x.points })} (${tr(`reason_${x.reason}`, x.reason)})</li>`,
  );
  return html`<div class="modal-back"><div class="modal summary" role="dialog" aria-label="${t("summary", { n: s.hand })}">
    <h2>${t("summary", { n: s.hand })}</h2>
    ${tricks.length > 0 && html`<h3>${t("tricks")}</h3>${tricks}`}
    ${declared.length > 0 && html`<h3>${t("declared")}</h3><ul>${declared}</ul>`}
    ${shown.length > 0 && html`<h3>${t("shown")}</h3>${shown}`}
    <h3>${t("hand_points")}</h3><ul>${scored}${passed}</ul>
    <p class="sum-total">${join(s.points.map((p, i) => `${scorerLabel(i, viewer, s.view, state.table)} ${p}`), " · ")}</p>
    <div class="modal-buttons"><a class="button ghost" href="${handHref}" download>${t("download_hand", { n: s.hand })}</a>
    <button data-cmd="close-summary" class="primary">${t("continue")}</button></div>
    </div></div>`;
}

export function matchOverModal(state: GameState, matchHref: string, rematchAsked: boolean): Html {
  const over = state.matchOver;
  const view = state.view;
  if (!over || !view) return NOTHING;
  const viewer = state.seat;
  const title = isIndividual(view.options)
    ? over.winner === viewer
      ? t("winner_you")
      : t("winner_name", { name: seatName(state.table, over.winner) })
    : viewer === null
      ? t("winner_team", { n: over.winner + 1 })
      : over.winner === teamOf(viewer)
        ? t("winner_us")
        : t("winner_them");
  return html`<div class="modal-back"><div class="modal match-over" role="dialog" aria-label="${t("match_over")}">
    <h2>${t("match_over")}</h2><p class="big">${title}</p>
    ${scoreboard({ ...view, score: over.score, winner: over.winner }, viewer, state.table)}
    ${rematchLine(state.table)}
    <div class="modal-buttons"><a class="button ghost" href="${matchHref}" download>${t("download_match")}</a>
    ${viewer !== null && html`<button data-cmd="rematch" class="primary"${rematchAsked && " disabled"}>${rematchAsked ? t("rematch_asked") : t("rematch")}</button>`}
    </div></div></div>`;
}

function rematchLine(table: TableInfo | null): Html {
  const asked = (table?.seats ?? []).filter((s) => s.rematch && s.kind === "human");
  if (!asked.length) return NOTHING;
  return html`<p class="muted">${t("rematch")}: ${asked.map((s) => s.name ?? "").join(", ")} ✓</p>`;
}

/** The seats while a table waits for players: join, or (for the creator) fill with a bot. */
export function seatsPanel(table: TableInfo, mySeat: number | null, canJoin: boolean): Html {
  const rows = table.seats.map((s: SeatInfo) => {
    const right: Html[] = [];
    if (s.kind === "empty") {
      if (canJoin) right.push(html`<button data-cmd="join" data-seat="${s.seat}">${t("join")}</button>`);
      if (mySeat === 0) {
        right.push(html`<select data-bot-level="${s.seat}" aria-label="${t("level")}">
          ${BOT_LEVELS.map((l) => html`<option value="${l}">${tr(`level_${l}`, l)}</option>`)}
          </select><button data-cmd="bot" data-seat="${s.seat}">${t("fill_bot")}</button>`);
      }
    }
    const who =
      s.kind === "empty"
        ? html`<i class="muted">${t("empty")}</i>`
        : s.kind === "bot"
          ? html`${s.name && s.name !== "Bot" ? `${s.name} · ` : ""}${t("bot")} ${tr(`level_${s.level ?? ""}`, s.level ?? "")}`
          : html`${s.name ?? ""}${s.seat === mySeat && ` (${t("you")})`}`;
    return html`<li class="team-${teamOf(s.seat)}"><span class="seat-no">${s.seat + 1}</span><span class="seat-who">${who}</span><span class="seat-do">${right}</span></li>`;
  });
  return html`<ul class="seat-list">${rows}</ul>`;
}

export function downloadsMenu(id: string, view: View | null, handUrl: (n: number) => string, matchUrl: string): Html {
  if (!view) return NOTHING;
  const finished = view.phase === "over" ? view.hand : Math.max(0, view.hand - 1);
  if (finished === 0) return NOTHING;
  const hands = Array.from({ length: finished }, (_, i) => i + 1).map(
    (n) => html`<a href="${handUrl(n)}" download>${t("download_hand", { n })}</a>`,
  );
  void id;
  return html`<details class="downloads"><summary>${t("download")}</summary><div class="menu">
    <a href="${matchUrl}" download>${t("download_match")}</a>${hands}
    </div></details>`;
}

export function lobbyList(tables: TableInfo[] | null): Html {
  if (tables === null) return html`<p class="muted">${t("connecting")}</p>`;
  if (tables.length === 0) return html`<p class="muted">${t("no_tables")}</p>`;
  const rows = tables.map((tb) => {
    const free = tb.seats.filter((s) => s.kind === "empty").length;
    const names = tb.seats
      .filter((s) => s.kind !== "empty")
      .map((s) => s.name ?? "")
      .join(", ");
    const variant = variantOf(tb.options);
    return html`<li><a href="/t/${encodeURIComponent(tb.table)}">
      <b>${variant !== "standard" && `${tr(`variant_short_${variant}`, variant)} · `}
      ${tb.options.players}p · ${variant === "destantado" ? t("porotos_n", { n: Number(tb.options.porotos ?? 10) }) : tb.options.target}${tb.options.flor && ` · ${t("flor")}`}</b>
      <span>${names}</span><span class="free">${free}/${tb.seats.length}</span></a></li>`;
  });
  return html`<ul class="lobby">${rows}</ul>`;
}
