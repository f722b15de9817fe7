// Short sounds drawn with Web Audio (no file to fetch): a call at the table, your turn, the end of
// a hand. The mute switch is remembered (storage.ts).

import { store } from "./storage";

export type Cue = "call" | "turn" | "hand";

// [frequency Hz, start s, length s] of each tone of a cue.
const TONES: Record<Cue, [number, number, number][]> = {
  call: [
    [660, 0, 0.12],
    [880, 0.13, 0.16],
  ],
  turn: [[520, 0, 0.14]],
  hand: [
    [523, 0, 0.12],
    [659, 0.12, 0.12],
    [784, 0.24, 0.2],
  ],
};

let ctx: AudioContext | null = null;

/** Play `cue`, unless muted or the browser has no Web Audio (or has not been touched yet). */
export function play(cue: Cue): void {
  if (store.muted() || typeof AudioContext === "undefined") return;
  try {
    ctx ??= new AudioContext();
    if (ctx.state === "suspended") void ctx.resume();
    const now = ctx.currentTime;
    for (const [freq, start, len] of TONES[cue]) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + start);
      gain.gain.exponentialRampToValueAtTime(0.15, now + start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + start + len);
      osc.connect(gain).connect(ctx.destination);
      osc.start(now + start);
      osc.stop(now + start + len + 0.02);
    }
  } catch {
    /* no sound: the table still shows everything */
  }
}
