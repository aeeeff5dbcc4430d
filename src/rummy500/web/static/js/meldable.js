// The cards of a hand that can make a meld now: those of the melds the engine lists as legal.

import { plainFace } from './cards.js';

/**
 * The faces ("7h", "*") of the cards in some legal meld.
 * @param {import('./moves.js').LegalInfo} info
 * @returns {Set<string>}
 */
export function meldableFaces(info) {
  return new Set(info.melds.flatMap((meld) => meld.cards.map(plainFace)));
}
