// Pure: the create-table form's fields turned into the Rules options of docs/protocol.md,
// for the standard game, its variants (pata de gallo, destantado, pica-pica) and Truco Paulista.

import { VARIANT_RULES } from "./generated";
import type { Options, Variant } from "./types";

export interface CreateForm {
  variant: Variant;
  /** Standard only: 2, 4 or 6. */
  players: number;
  target: number;
  flor: boolean;
  falta: NonNullable<Options["falta"]>;
  tapada: NonNullable<Options["tapada"]>;
  /** Destantado only. */
  porotos: number;
  /** Pica-pica only. */
  pica_from: number;
  /** Truco Paulista only: the manilhas of the vira, or the fixed ones (manilha velha)... */
  manilhas?: NonNullable<Options["manilhas"]>;
  /** ...and the mão de ferro played blind (cega) or with the cards seen (aberta). */
  mao_de_ferro?: NonNullable<Options["mao_de_ferro"]>;
}

/** The options to create the table with, and how many seats it will have (the variant's facts,
 * generated from the core's registry). Only the options that apply to the variant are sent:
 * piles of porotos (destantado) have no flor, no target, no falta formula. */
export function createOptions(form: CreateForm): { options: Partial<Options>; seats: number } {
  // Truco Paulista: 1v1, pairs or threes, always to 12 (its only target), no flor nor falta.
  if (VARIANT_RULES[form.variant].game === "paulista") {
    const options: Partial<Options> = { variant: form.variant, players: form.players, tapada: form.tapada };
    if (form.manilhas) options.manilhas = form.manilhas;
    if (form.mao_de_ferro) options.mao_de_ferro = form.mao_de_ferro;
    return { options, seats: form.players };
  }
  if (form.variant === "standard") {
    return {
      options: { players: form.players, target: form.target, flor: form.flor, falta: form.falta, tapada: form.tapada },
      seats: form.players,
    };
  }
  const facts = VARIANT_RULES[form.variant];
  const seats = facts.seats[0] ?? form.players;
  if (facts.piles) {
    return { options: { variant: form.variant, porotos: form.porotos, tapada: form.tapada }, seats };
  }
  const options: Partial<Options> = {
    variant: form.variant,
    target: form.target,
    flor: form.flor && facts.flor,
    falta: form.falta,
    tapada: form.tapada,
  };
  if (facts.pica) options.pica_from = form.pica_from;
  return { options, seats };
}
