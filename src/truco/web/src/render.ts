// HTML for each part of the screen, built from the state as strings (main.ts puts them in place).

import { cardSvg } from "./cards";
import { fosforosSvg, halfOf, inBuenas } from "./fosforos";
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

export function esc(s: unknown): string {
  return String(s ?? "").replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] ?? ch,
  );
}

/** Where each seat sits on the board, relative to the viewer (rel 0 is at the bottom). */
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
export function porotosPile(n: number): string {
  const beans = Array.from({ length: Math.max(0, Math.min(n, 40)) }, () => `<span class="poroto"></span>`).join("");
  return `<span class="porotos" data-porotos="${n}" title="${esc(t("porotos_n", { n }))}">${beans}</span>`;
}

function playerBoards(view: View, viewer: number | null, table: TableInfo | null): string {
  const n = view.score.length;
  const target = view.options.target;
  const destantado = variantOf(view.options) === "destantado";
  const order = Array.from({ length: n }, (_, i) => (i + (viewer ?? 0)) % n);
  return (
    `<div class="scoreboard players">` +
    order
      .map((seat) => {
        const score = view.score[seat] ?? 0;
        const label = scorerLabel(seat, viewer, view, table);
        const drawing = destantado ? porotosPile(score) : fosforosSvg(score, target, `${label}: ${score}`);
        return (
          `<div class="team player${seat === viewer ? " ours" : ""}${view.pie === seat ? " is-pie" : ""}${view.winner === seat ? " winner" : ""}" data-seat="${seat}">` +
          `<div class="team-head"><span class="team-name">${esc(label)}</span>` +
          `<span class="team-score" data-score="${score}">${score}</span></div>${drawing}</div>`
        );
      })
      .join("") +
    `<div class="target">${esc(destantado ? t("first_to_empty") : `${t("target")}: ${target}`)}</div>` +
    `</div>`
  );
}

export function scoreboard(view: View, viewer: number | null, table: TableInfo | null = null): string {
  if (isIndividual(view.options)) return playerBoards(view, viewer, table);
  const target = view.options.target;
  const half = halfOf(target);
  const teams = [0, 1];
  // The viewer's team first.
  if (viewer !== null && teamOf(viewer) === 1) teams.reverse();
  return (
    `<div class="scoreboard">` +
    teams
      .map((team) => {
        const score = view.score[team] ?? 0;
        const label = teamLabel(team, viewer);
        const state = half === null ? "" : inBuenas(score, target) ? t("buenas") : t("malas");
        return (
          `<div class="team team-${team}${viewer !== null && team === teamOf(viewer) ? " ours" : ""}">` +
          `<div class="team-head"><span class="team-name">${esc(label)}</span>` +
          `<span class="team-score" data-score="${score}">${score}</span>` +
          (state ? `<span class="team-half">${esc(state)}</span>` : "") +
          `</div>${fosforosSvg(score, target, `${label}: ${score}`)}</div>`
        );
      })
      .join("") +
    `<div class="target">${esc(t("target"))}: ${target}</div>` +
    `</div>`
  );
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

export function board(state: GameState, extras: BoardExtras): string {
  const view = state.view;
  if (!view) {
    const text = state.table?.status === "waiting" ? t("waiting") : t("connecting");
    return `<div class="board empty"><p class="muted">${esc(text)}</p></div>`;
  }
  const n = view.options.players;
  const me = state.seat ?? 0;
  const played = playedBySeat(view);
  const words = lastWords(view);
  const parts: string[] = [];
  for (let seat = 0; seat < n; seat++) {
    const rel = (seat - me + n) % n;
    const [x, y] = seatPosition(rel, n);
    const info = state.table?.seats.find((s) => s.seat === seat);
    const out = sitsOut(view, seat);
    const classes = ["seat", `team-${teamOf(seat, view)}`, `rel-${rel}`];
    if (view.to_act === seat) classes.push("to-act");
    if (out) classes.push("sitting-out");
    else if (view.retired.includes(seat)) classes.push("retired");
    if (view.pie === seat) classes.push("pie");
    if (seat === state.seat) classes.push("me");
    if (info && info.kind !== "empty" && !info.connected && info.kind === "human") classes.push("away");
    const badges: string[] = [];
    if (view.mano === seat) badges.push(`<span class="badge mano">${esc(t("mano"))}</span>`);
    if (info?.kind === "bot")
      badges.push(`<span class="badge bot" title="${esc(t("bot"))}">${esc(tr(`level_${info.level ?? ""}`, info.level ?? ""))}</span>`);
    if (view.pie === seat) badges.push(`<span class="badge pie">${esc(t("pie"))}</span>`);
    const destantado = variantOf(view.options) === "destantado";
    if (out) badges.push(`<span class="badge sits-out">${esc(t("sits_out"))}</span>`);
    else if (view.retired.includes(seat))
      badges.push(`<span class="badge out">${esc(destantado ? t("out_of_bet") : t("retired"))}</span>`);
    else if (destantado && stakeOf(view, seat) > 0)
      badges.push(`<span class="badge bet" data-stake="${stakeOf(view, seat)}">${esc(t("in_bet", { n: stakeOf(view, seat) }))}</span>`);
    if (info?.replaced) badges.push(`<span class="badge away">${esc(t("replaced"))}</span>`);
    const backs =
      seat === state.seat
        ? ""
        : `<div class="backs">${Array.from({ length: view.hand_sizes[seat] ?? 0 }, () => `<span class="mini-back"></span>`).join("")}</div>`;
    const bubbles: string[] = [];
    const word = words.get(seat);
    if (word && word !== "mazo" && view.phase === "play") bubbles.push(`<span class="bubble say">${esc(actionLabel(word))}</span>`);
    const decl = declaredFor(view, seat);
    if (decl) bubbles.push(`<span class="bubble decl">${esc(decl)}</span>`);
    for (const s of extras.senas) {
      if (s.seat === seat && extras.now - s.at < 8000)
        bubbles.push(`<span class="bubble sena">${esc(t("sena"))}: ${esc(tr(`sena_${s.sena}`, s.sena))}</span>`);
    }
    const timer =
      view.to_act === seat && extras.turnLeft !== null ? `<span class="timer">${extras.turnLeft} s</span>` : "";
    parts.push(
      `<div class="${classes.join(" ")}" style="left:${x}%;top:${y}%" data-seat="${seat}">` +
        `<div class="plate"><span class="seat-name">${esc(seatName(state.table, seat))}${seat === state.seat ? ` (${esc(t("you"))})` : ""}</span>${timer}` +
        `<div class="badges">${badges.join("")}</div>${backs}</div>` +
        (bubbles.length ? `<div class="bubbles">${bubbles.join("")}</div>` : "") +
        `</div>`,
    );
    // The cards this seat put on the table, between its plate and the centre.
    const mine = played.get(seat) ?? [];
    if (mine.length) {
      const px = x + (50 - x) * 0.6;
      const py = y + (50 - y) * 0.6;
      const cards = mine
        .map(({ card, trick }) => {
          const result = view.results[trick];
          let cls = "played";
          if (result !== undefined) {
            cls += result === -1 ? " parda" : result === teamOf(seat, view) ? " won" : " lost";
          } else cls += " current";
          if (card[2] && card[1]) cls += " face-down"; // the viewer's own tapada
          const label = card[1] ? cardName(card[1]) : t("tapada");
          return `<div class="${cls}" title="${esc(t("trick_n", { n: trick + 1 }))}">${cardSvg(card[1], label)}</div>`;
        })
        .join("");
      parts.push(`<div class="pile" style="left:${px}%;top:${py}%">${cards}</div>`);
    }
  }
  const call = callName(view);
  const center: string[] = [];
  if (view.hand > 0) center.push(`<div class="hand-no">${esc(t("hand_n", { n: view.hand }))}</div>`);
  if (view.hand > 0 && variantOf(view.options) === "pica_pica") {
    const pica = view.pica ?? -1;
    center.push(
      `<div class="pica-label${pica >= 0 ? " pica" : ""}">${esc(pica >= 0 ? t("pica_hand", { n: pica + 1 }) : t("everyone_hand"))}</div>`,
    );
  }
  if (view.discard !== null && view.discard !== undefined && view.phase === "play") {
    center.push(`<div class="waiting-call discarding">${esc(t("discarding", { name: seatName(state.table, view.discard) }))}</div>`);
  }
  if (state.table?.status === "waiting") center.push(`<div class="waiting">${esc(t("waiting"))}</div>`);
  if (view.truco >= 2) {
    center.push(`<div class="truco-level">${esc(callLabel(["", "", "truco", "retruco", "vale-cuatro"][view.truco] ?? "truco"))} · ${view.truco}</div>`);
  }
  if (call) {
    const caller = view.flor_call?.[0] ?? view.envido_call?.[0] ?? view.truco_call?.[1] ?? 0;
    center.push(
      `<div class="waiting-call">${esc(t("truco_waiting", { name: seatName(state.table, caller), call: callLabel(call) }))}</div>`,
    );
  }
  return `<div class="board players-${n}"><div class="felt"></div><div class="center">${center.join("")}</div>${parts.join("")}</div>`;
}

/** The viewer's cards, and the buttons for the legal calls. */
export function handAndActions(state: GameState, tapadaMode: boolean): string {
  const view = state.view;
  if (!view) return "";
  if (state.seat === null) {
    const turn =
      view.phase === "play" && view.to_act !== null && view.to_act >= 0
        ? ` · ${esc(t("turn_of", { name: seatName(state.table, view.to_act) }))}`
        : "";
    return `<div class="my-area"><div class="status-line"><span class="spectating">${esc(t("spectator"))}</span>${turn}</div></div>`;
  }
  const legal = view.legal;
  const toDiscard = new Set(discards(view));
  const plays = new Set(legal.filter((a) => a.startsWith("play ")).map((a) => a.slice(5)));
  const tapadas = new Set(legal.filter((a) => a.startsWith("tapada ")).map((a) => a.slice(7)));
  const busy = state.pending !== null;
  const cards = view.cards
    .map((c) => {
      if (toDiscard.size > 0) {
        const can = !busy && toDiscard.has(c);
        return (
          `<button class="my-card${can ? " playable discard-pick" : ""}" ` +
          `${can ? `data-act="${esc(`discard ${c}`)}"` : "disabled"} aria-label="${esc(cardName(c))}">${cardSvg(c, cardName(c))}</button>`
        );
      }
      const playable = !busy && (tapadaMode ? tapadas.has(c) : plays.has(c));
      const action = tapadaMode ? `tapada ${c}` : `play ${c}`;
      return (
        `<button class="my-card${playable ? " playable" : ""}${tapadaMode && playable ? " tapada-pick" : ""}" ` +
        `${playable ? `data-act="${esc(action)}"` : "disabled"} aria-label="${esc(cardName(c))}">${cardSvg(c, cardName(c))}</button>`
      );
    })
    .join("");
  const calls = legal.filter((a) => !a.startsWith("play ") && !a.startsWith("tapada ") && !a.startsWith("discard "));
  const envidoPrimero = view.truco_call !== null && view.envido_call === null;
  const buttons = calls.map((a) => {
    const label = actionLabel(a);
    let cls = `act act-${a}`;
    if (envidoPrimero && /envido/.test(a)) cls += " primero";
    return `<button class="${cls}"${busy ? " disabled" : ` data-act="${esc(a)}"`}>${esc(label)}</button>`;
  });
  if (tapadas.size > 0) {
    buttons.push(
      `<button class="act toggle${tapadaMode ? " on" : ""}" data-cmd="tapada"${busy ? " disabled" : ""}>${esc(tapadaMode ? t("tapada_on") : t("tapada_mode"))}</button>`,
    );
  }
  const info: string[] = [];
  if (view.trick === 0 && view.phase === "play" && view.discard !== state.seat && view.cards.length > 0) {
    if (view.flor !== null) info.push(t("flor_points", { n: view.flor }));
    else if (view.tantos !== null) info.push(t("tantos", { n: view.tantos }));
  }
  const turn =
    view.phase !== "play"
      ? ""
      : view.to_act === state.seat
        ? `<span class="turn mine">${esc(t("your_turn"))}</span>`
        : view.to_act !== null && view.to_act >= 0
          ? `<span class="turn">${esc(t("turn_of", { name: seatName(state.table, view.to_act) }))}</span>`
          : "";
  return (
    `<div class="my-area">` +
    `<div class="status-line">${turn}${info.map((s) => `<span class="tantos">${esc(s)}</span>`).join("")}</div>` +
    (envidoPrimero && calls.some((a) => /envido/.test(a)) ? `<div class="hint">${esc(t("envido_primero"))}</div>` : "") +
    (toDiscard.size > 0 ? `<div class="hint discard-hint">${esc(t("discard_hint"))}</div>` : "") +
    `<div class="actions">${buttons.join("")}</div>` +
    `<div class="my-cards">${cards}</div>` +
    `</div>`
  );
}

export function senasPanel(state: GameState): string {
  const view = state.view;
  if (!view || state.seat === null || view.options.players <= 2 || variantOf(view.options) === "destantado") return "";
  return (
    `<details class="senas"><summary>${esc(t("senas"))}</summary><div class="sena-buttons">` +
    SENAS.map((s) => `<button class="sena" data-sena="${s}">${esc(tr(`sena_${s}`, s))}</button>`).join("") +
    `</div></details>`
  );
}

export function chatLines(state: GameState): string {
  return state.chat
    .map(
      (c) =>
        `<div class="chat-line"><b class="team-${c.seat === null ? "x" : teamOf(c.seat)}">${esc(c.name)}:</b> ${esc(c.text)}</div>`,
    )
    .join("");
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

export function logLines(state: GameState): string {
  return state.log
    .map((e) => eventLine(e, state.table, state.seat, state.view))
    .filter((s): s is string => s !== null)
    .map((s) => `<div class="log-line">${esc(s)}</div>`)
    .join("");
}

export function summaryModal(s: HandSummary, state: GameState, handHref: string): string {
  const viewer = state.seat;
  const tricks = s.tricks
    .map((trick, i) => {
      const result = s.results[i];
      const res =
        result === undefined ? "" : result === -1 ? t("parda") : t("won_by", { team: teamLabel(result, viewer, s.view, state.table) });
      return (
        `<div class="sum-trick"><span class="sum-label">${esc(t("trick_n", { n: i + 1 }))}</span>` +
        trick
          .map(
            ([seat, card]) =>
              `<span class="sum-card" title="${esc(seatName(state.table, seat))}">${cardSvg(card, card ? cardName(card) : t("tapada"))}<small>${esc(seatName(state.table, seat))}</small></span>`,
          )
          .join("") +
        `<span class="sum-res">${esc(res)}</span></div>`
      );
    })
    .join("");
  const declared = s.declared
    .map(
      ([seat, pts, flor]) =>
        `<li>${esc(seatName(state.table, seat))}: ${esc(pts === null ? t("son_buenas") : flor ? t("flor_declares", { n: pts }) : String(pts))}</li>`,
    )
    .join("");
  const shown = s.shown
    .map(
      ([seat, cards]) =>
        `<div class="sum-shown"><span>${esc(seatName(state.table, seat))}</span>${cards.map((c) => `<span class="sum-card">${cardSvg(c, cardName(c))}</span>`).join("")}</div>`,
    )
    .join("");
  const scored = s.scored
    .map((x) => `<li>${esc(scorerLabel(x.team, viewer, s.view, state.table))}: +${x.points} ${esc(tr(`reason_${x.reason}`, x.reason))}</li>`)
    .join("");
  const who = (seat: number) => seatName(state.table, seat);
  const passed = s.passed
    .map(
      (x) =>
        `<li class="passed">${esc(x.to >= 0 ? t("passes", { from: who(x.seat), n: x.points, to: who(x.to) }) : t("passes_pot", { from: who(x.seat), n: x.points }))} (${esc(tr(`reason_${x.reason}`, x.reason))})</li>`,
    )
    .join("");
  return (
    `<div class="modal-back"><div class="modal summary" role="dialog" aria-label="${esc(t("summary", { n: s.hand }))}">` +
    `<h2>${esc(t("summary", { n: s.hand }))}</h2>` +
    (tricks ? `<h3>${esc(t("tricks"))}</h3>${tricks}` : "") +
    (declared ? `<h3>${esc(t("declared"))}</h3><ul>${declared}</ul>` : "") +
    (shown ? `<h3>${esc(t("shown"))}</h3>${shown}` : "") +
    `<h3>${esc(t("hand_points"))}</h3><ul>${scored}${passed}</ul>` +
    `<p class="sum-total">${s.points.map((p, i) => `${esc(scorerLabel(i, viewer, s.view, state.table))} ${p}`).join(" · ")}</p>` +
    `<div class="modal-buttons"><a class="button ghost" href="${esc(handHref)}" download>${esc(t("download_hand", { n: s.hand }))}</a>` +
    `<button data-cmd="close-summary" class="primary">${esc(t("continue"))}</button></div>` +
    `</div></div>`
  );
}

export function matchOverModal(state: GameState, matchHref: string, rematchAsked: boolean): string {
  const over = state.matchOver;
  const view = state.view;
  if (!over || !view) return "";
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
  return (
    `<div class="modal-back"><div class="modal match-over" role="dialog" aria-label="${esc(t("match_over"))}">` +
    `<h2>${esc(t("match_over"))}</h2><p class="big">${esc(title)}</p>` +
    scoreboard({ ...view, score: over.score, winner: over.winner }, viewer, state.table) +
    rematchLine(state.table) +
    `<div class="modal-buttons"><a class="button ghost" href="${esc(matchHref)}" download>${esc(t("download_match"))}</a>` +
    (viewer !== null
      ? `<button data-cmd="rematch" class="primary"${rematchAsked ? " disabled" : ""}>${esc(rematchAsked ? t("rematch_asked") : t("rematch"))}</button>`
      : "") +
    `</div></div></div>`
  );
}

function rematchLine(table: TableInfo | null): string {
  const asked = (table?.seats ?? []).filter((s) => s.rematch && s.kind === "human");
  if (!asked.length) return "";
  return `<p class="muted">${esc(t("rematch"))}: ${asked.map((s) => esc(s.name ?? "")).join(", ")} ✓</p>`;
}

/** The seats while a table waits for players: join, or (for the creator) fill with a bot. */
export function seatsPanel(table: TableInfo, mySeat: number | null, canJoin: boolean): string {
  const rows = table.seats
    .map((s: SeatInfo) => {
      let right = "";
      if (s.kind === "empty") {
        if (canJoin) right += `<button data-cmd="join" data-seat="${s.seat}">${esc(t("join"))}</button>`;
        if (mySeat === 0) {
          right +=
            `<select data-bot-level="${s.seat}" aria-label="${esc(t("level"))}">` +
            BOT_LEVELS.map((l) => `<option value="${l}">${esc(tr(`level_${l}`, l))}</option>`).join("") +
            `</select><button data-cmd="bot" data-seat="${s.seat}">${esc(t("fill_bot"))}</button>`;
        }
      }
      const who =
        s.kind === "empty"
          ? `<i class="muted">${esc(t("empty"))}</i>`
          : s.kind === "bot"
            ? `${esc(s.name && s.name !== "Bot" ? `${s.name} · ` : "")}${esc(t("bot"))} ${esc(tr(`level_${s.level ?? ""}`, s.level ?? ""))}`
            : `${esc(s.name ?? "")}${s.seat === mySeat ? ` (${esc(t("you"))})` : ""}`;
      return `<li class="team-${teamOf(s.seat)}"><span class="seat-no">${s.seat + 1}</span><span class="seat-who">${who}</span><span class="seat-do">${right}</span></li>`;
    })
    .join("");
  return `<ul class="seat-list">${rows}</ul>`;
}

export function downloadsMenu(id: string, view: View | null, handUrl: (n: number) => string, matchUrl: string): string {
  if (!view) return "";
  const finished = view.phase === "over" ? view.hand : Math.max(0, view.hand - 1);
  if (finished === 0) return "";
  const hands = Array.from({ length: finished }, (_, i) => i + 1)
    .map((n) => `<a href="${esc(handUrl(n))}" download>${esc(t("download_hand", { n }))}</a>`)
    .join("");
  void id;
  return (
    `<details class="downloads"><summary>${esc(t("download"))}</summary><div class="menu">` +
    `<a href="${esc(matchUrl)}" download>${esc(t("download_match"))}</a>${hands}` +
    `</div></details>`
  );
}

export function lobbyList(tables: TableInfo[] | null): string {
  if (tables === null) return `<p class="muted">${esc(t("connecting"))}</p>`;
  if (tables.length === 0) return `<p class="muted">${esc(t("no_tables"))}</p>`;
  return (
    `<ul class="lobby">` +
    tables
      .map((tb) => {
        const free = tb.seats.filter((s) => s.kind === "empty").length;
        const names = tb.seats
          .filter((s) => s.kind !== "empty")
          .map((s) => s.name ?? "")
          .join(", ");
        return (
          `<li><a href="/t/${esc(encodeURIComponent(tb.table))}">` +
          `<b>${variantOf(tb.options) !== "standard" ? `${esc(tr(`variant_short_${variantOf(tb.options)}`, variantOf(tb.options)))} · ` : ""}` +
          `${tb.options.players}p · ${variantOf(tb.options) === "destantado" ? esc(t("porotos_n", { n: Number(tb.options.porotos ?? 10) })) : tb.options.target}${tb.options.flor ? ` · ${esc(t("flor"))}` : ""}</b>` +
          `<span>${esc(names)}</span><span class="free">${free}/${tb.seats.length}</span></a></li>`
        );
      })
      .join("") +
    `</ul>`
  );
}
