// The table: each seat's plate, badges and bubbles, the cards played, the calls in the centre;
// and the viewer's own cards with the buttons of the legal actions.

import { modBadge, plateModeration } from "./moderation";
import { type Html, html, NOTHING } from "./html";
import { actionLabel, callLabel, cardName, t, tr, trickName } from "./i18n";
import { seatName } from "./names";
import { PAULISTA_HAND_VALUE, TRUCO_CALL_OF_LEVEL } from "./generated";
import { isPaulista, manilhaName, onzeNotes, tableBack, tableCard, viraPanel } from "./paulista";
import { type GameState, discards, lastWords, playedBySeat, sitsOut, stakeOf, teamOf, variantOf } from "./protocol";
import type { Options, PlayView, View } from "./types";

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
      [84, 14],
      [16, 14],
    ],
    4: [
      [50, 90],
      [92, 50],
      [50, 10],
      [8, 50],
    ],
    6: [
      [50, 90],
      [92, 70],
      [92, 30],
      [50, 10],
      [8, 30],
      [8, 70],
    ],
  };
  const list = layouts[players] ?? layouts[2]!;
  return list[rel % list.length] ?? [50, 50];
}

/** Where a seat's pile of played cards lies, in % of the board: most of the way from its seat to
 * the centre; at three seats the two rivals' piles sit well apart and clear of the seats at the
 * top corners, so that neither pile nor plate covers another on a phone's narrow board. Three
 * cards side by side are wide: at four seats the side piles lie out beside the one across, and at
 * six the piles make two rows of three (the seats beside the table at the rows' ends), so that
 * no pile reaches another. A phone lays them out its own way (styles.css). */
export function pilePosition(rel: number, players: number): [number, number] {
  const own: Record<number, [number, number][]> = {
    3: [
      [50, 66],
      [74, 42],
      [26, 42],
    ],
    4: [
      [50, 66],
      [74, 50],
      [50, 34],
      [26, 50],
    ],
    6: [
      [50, 64],
      [75, 64],
      [75, 36],
      [50, 36],
      [25, 36],
      [25, 64],
    ],
  };
  const fixed = own[players]?.[rel % players];
  if (fixed) return fixed;
  const [x, y] = seatPosition(rel, players);
  const round = (v: number) => Math.round(v * 100) / 100;
  return [round(x + (50 - x) * 0.6), round(y + (50 - y) * 0.6)];
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

/** A card of a trick as the viewer saw it: the viewer's own tapada stays face down, but in a
 * finished match's replay (`open`) every tapada shows its face (its pile keeps it marked). The
 * deck is the table's (`options`: the French one at Truco Paulista). */
export function trickCard(card: PlayView, options?: Options, open = false): Html {
  const [, code, faceDown] = card;
  if (faceDown && open && code) return tableCard(options, code, `${t("tapada")}: ${cardName(code)}`);
  if (faceDown) return tableBack(options, code ? `${t("tapada")}: ${cardName(code)}` : t("tapada"));
  return tableCard(options, code, code ? cardName(code) : t("tapada"));
}

export interface BoardExtras {
  senas: GameState["senas"];
  now: number;
  turnLeft: number | null;
  /** The newest call, shown large for a moment ("Beto: Truco"). */
  announce?: string | null;
}

/** Everything said in the hand, in order, who said what: "Ana: Falta envido · Beto: Quiero". */
export function callsLine(view: View, table: GameState["table"]): Html {
  const said = (view.history ?? []).filter(([, a]) => !/^(play|tapada|discard) /.test(a));
  if (said.length === 0) return NOTHING;
  return html`<ol class="calls-line" aria-label="${t("calls_line")}">${said.map(
    ([seat, a]) => html`<li><b>${seatName(table, seat)}</b>: ${callLabel(a)}</li>`,
  )}</ol>`;
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
    if (state.seat !== null && !view.individual) classes.splice(1, 0, teamOf(seat, view) === teamOf(state.seat, view) ? "ours" : "theirs");
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
    badges.push(modBadge(seat));
    // A finished match's replay shows every seat's cards face up (the view's open_hands).
    const open = view.open_hands?.length ? view.open_hands[seat] : undefined;
    const backs = open
      ? html`<div class="open-hand">${open.map((c) => html`<span class="mini-card">${tableCard(view.options, c, cardName(c))}</span>`)}</div>`
      : seat === state.seat
        ? NOTHING
        : html`<div class="backs">${Array.from({ length: view.hand_sizes[seat] ?? 0 }, () => html`<span class="mini-back"></span>`)}</div>`;
    // At most two bubbles a seat, newest news first: a seat beside the table has only the room
    // between its plate and its cards (the log keeps every call and every declaration). A seat's
    // recent señas share one bubble, each named once (a bot signs two cards and its envido at once).
    const bubbles: Html[] = [];
    const senas = (isPaulista(view.options) ? [] : extras.senas).filter((s) => s.seat === seat && extras.now - s.at < 8000);
    if (senas.length > 0)
      bubbles.push(html`<span class="bubble sena">${t("sena")}: ${[...new Set(senas.map((s) => s.sena))].map((k) => tr(`sena_${k}`, k)).join(" · ")}</span>`);
    const decl = declaredFor(view, seat);
    if (decl) bubbles.push(html`<span class="bubble decl">${decl}</span>`);
    const word = words.get(seat);
    if (word && word !== "mazo" && view.phase === "play") bubbles.push(html`<span class="bubble say">${actionLabel(word)}</span>`);
    bubbles.splice(2);
    const timer = view.to_act === seat && extras.turnLeft !== null && html`<span class="timer">${extras.turnLeft} s</span>`;
    parts.push(
      html`<div class="${classes.join(" ")}" data-seat="${seat}">
        <div class="plate"><span class="seat-name">${seatName(state.table, seat)}${seat === state.seat && ` (${t("you")})`}</span>${timer}${plateModeration(seat, state.seat, state.table)}
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
        if (card[2]) cls += " face-down"; // a tapada, the viewer's own too
        return html`<div class="${cls}" data-trick="${trick}" title="${trickName(trick)}">${trickCard(card, view.options, view.open_hands?.length > 0)}</div>`;
      });
      parts.push(html`<div class="pile rel-${rel}">${cards}</div>`);
    }
  }
  const call = view.awaited;
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
  if (isPaulista(view.options)) {
    if (view.hand_value > PAULISTA_HAND_VALUE && view.phase === "play") center.push(html`<div class="truco-level">${t("hand_worth", { n: view.hand_value })}</div>`);
  } else if (view.truco >= 2) {
    center.push(html`<div class="truco-level">${callLabel(TRUCO_CALL_OF_LEVEL[view.truco] ?? "truco")} · ${view.truco}</div>`);
  }
  if (call) {
    center.push(html`<div class="waiting-call">${t("truco_waiting", { name: seatName(state.table, call.caller), call: callLabel(call.verb) })}</div>`);
  }
  center.push(callsLine(view, state.table));
  const announce = extras.announce ? html`<div class="announce" role="status">${extras.announce}</div>` : NOTHING;
  const deck = isPaulista(view.options) ? " paulista" : "";
  // The hand's line (its number, the calls, who is awaited) is a strip across the top of the
  // board and the seats lie on the felt under it: no word of it ever covers a seat.
  return html`<div class="board players-${n}${deck}"><div class="center">${center}</div><div class="felt">${viraPanel(view)}${parts}</div>${announce}</div>`;
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
  const mine = view.phase === "play" && view.to_act === state.seat;
  // The expert's choice, while it is for the decision on screen.
  const suggested = mine && state.pista?.v === state.v ? state.pista.action : null;
  const pick = (action: string) => (action === suggested ? " suggested" : "");
  const cards = view.cards.map((c) => {
    if (toDiscard.size > 0) {
      const can = !busy && toDiscard.has(c);
      return html`<button class="my-card${can ? " playable discard-pick" : ""}${pick(`discard ${c}`)}" 
        ${can ? html`data-act="${`discard ${c}`}"` : "disabled"} aria-label="${cardName(c)}">${tableCard(view.options, c, cardName(c))}</button>`;
    }
    const playable = !busy && (tapadaMode ? tapadas.has(c) : plays.has(c));
    const action = tapadaMode ? `tapada ${c}` : `play ${c}`;
    // Truco Paulista: a manilha says which one it is (Zap...).
    const manilha = isPaulista(view.options) ? manilhaName(view, c) : null;
    const label = manilha ? `${cardName(c)} (${manilha})` : cardName(c);
    return html`<button class="my-card${playable ? " playable" : ""}${tapadaMode && playable ? " tapada-pick" : ""}${manilha ? " manilha" : ""}${pick(action)}" 
      ${playable ? html`data-act="${action}"` : "disabled"} aria-label="${label}" title="${manilha ?? ""}">${tableCard(view.options, c, label)}</button>`;
  });
  // A mão de ferro played blind: the viewer's cards stay face down; the one legal action, cega,
  // names no card: the core plays the next of them in the order dealt.
  if (view.blind && state.seat !== null) {
    const next = legal.find((a) => a === "cega");
    for (let i = 0; i < (view.hand_sizes[state.seat] ?? 0); i++) {
      const act = i === 0 && next && !busy ? next : null;
      cards.push(
        html`<button class="my-card blind${act ? " playable" : ""}" ${act ? html`data-act="${act}"` : "disabled"} aria-label="${t("tapada")}">${tableBack(view.options, t("tapada"))}</button>`,
      );
    }
  }
  const calls = legal.filter((a) => a !== "cega" && !a.startsWith("play ") && !a.startsWith("tapada ") && !a.startsWith("discard "));
  const envidoPrimero = view.truco_call !== null && view.envido_call === null;
  const buttons = calls.map((a) => {
    const label = actionLabel(a);
    let cls = `act act-${a}${pick(a)}`;
    if (envidoPrimero && /envido/.test(a)) cls += " primero";
    return html`<button class="${cls}"${busy ? " disabled" : html` data-act="${a}"`}>${label}</button>`;
  });
  if (tapadas.size > 0) {
    buttons.push(
      html`<button class="act toggle${tapadaMode ? " on" : ""}" data-cmd="tapada"${busy && " disabled"}>${tapadaMode ? t("tapada_on") : t("tapada_mode")}</button>`,
    );
  }
  if (mine && state.table?.pista) {
    // While the expert thinks (seconds, at first), the button says so; once answered, the
    // decision has its pista.
    const thinking = state.pistaAsked === state.v;
    const off = busy || thinking || suggested !== null;
    buttons.push(
      html`<button class="act pista${thinking ? " thinking" : ""}" data-cmd="pista" title="${t("pista_title")}"${thinking && html` aria-busy="true"`}${off && " disabled"}>${thinking ? t("pista_thinking") : t("pista")}</button>`,
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
    ${onzeNotes(view, state.seat, state.table)}
    ${suggested !== null && html`<div class="hint pista-hint" role="status">${t("pista_says", { action: actionLabel(suggested) })}</div>`}
    <div class="actions">${buttons}</div>
    <div class="my-cards">${cards}</div>
    </div>`;
}
