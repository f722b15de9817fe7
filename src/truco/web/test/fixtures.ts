import type { Analysis } from "../src/analysis";
import type { TableInfo, View } from "../src/types";

export function makeView(over: Partial<View> = {}): View {
  return {
    seat: 0,
    score: [3, 5],
    phase: "play",
    winner: null,
    hand: 4,
    mano: 1,
    teams: [0, 1],
    pica: -1,
    stakes: [1, 1],
    pie: null,
    discard: null,
    envido_open: false,
    to_act: 0,
    cards: ["1e", "4c"],
    hand_sizes: [2, 2],
    tantos: 25,
    flor: null,
    tricks: [
      [
        [1, "7o", false],
        [0, "3b", false],
      ],
    ],
    plays: [],
    results: [1],
    trick: 1,
    retired: [],
    truco: 2,
    truco_owner: 1,
    truco_call: null,
    envido_call: null,
    flor_call: null,
    chain: ["envido"],
    flor_chain: [],
    hand_points: [0, 2],
    declared: [
      [1, 27, false],
      [0, null, false],
    ],
    shown: [],
    history: [
      [1, "envido"],
      [0, "quiero"],
      [1, "play 7o"],
    ],
    legal: ["play 1e", "play 4c", "retruco", "mazo"],
    options: { players: 2, target: 30, flor: false },
    playing: [0, 1],
    bettors: [],
    pot: 0,
    start_score: 0,
    individual: false,
    half: 15,
    end_reason: null,
    open_hands: [],
    game: "argentino",
    vira: null,
    manilhas: [],
    hand_value: 2,
    onze: -1,
    onze_call: null,
    ferro: false,
    blind: false,
    partners: [],
    onze_at: null,
    at_onze: [false, false],
    awaited: null,
    story: null,
    ...over,
  };
}

export function makeTable(over: Partial<TableInfo> = {}): TableInfo {
  return {
    table: "abc",
    options: { players: 2, target: 30, flor: false },
    seats: [
      { seat: 0, name: "Ana", kind: "human", connected: true, level: null },
      { seat: 1, name: "Bot", kind: "bot", connected: true, level: "random" },
    ],
    status: "playing",
    v: 10,
    ...over,
  };
}

/** An analysis whose actions are `name` (the server sends the notation's words; drawn as text). */
export function analysisWith(name: string): Analysis {
  const options = [
    { action: "truco", equity: 0.55 },
    { action: name, equity: 0.5 },
    { action: "play 1e", equity: 0.41 },
  ];
  const decision = { hand: 2, seat: 0, options, loss: 0.05 } as const;
  return {
    table: name,
    hand: 2,
    seat: 0,
    seed: 0,
    worlds: 320,
    face_up: true,
    decisions: [
      { ...decision, index: 0, played: name, best: "truco", label: "error", face_up: { best: name, equity: 0.6, played_equity: 0.5 } },
      { ...decision, index: 3, played: "truco", best: "truco", label: "best", loss: 0, face_up: null },
      { ...decision, index: 5, played: name, best: name, label: "error grave" },
    ],
  };
}
