// The score pad page's state: the pad open, its tables, and where the entry of a deal stands.
// Every module of the page reads and changes this one object.

/** @typedef {import('./model.js').Pad} Pad */
/** @typedef {import('./score.js').PadDeal} PadDeal */
/** @typedef {import('./score.js').Tables} Tables */
/**
 * Where the next card tapped goes.
 * @typedef {{kind: 'meld' | 'hand' | 'layoff', seat: number, on?: number}} Target
 */

export const state = {
  /** @type {Pad | null} */ pad: null,
  /** @type {Tables | null} */ tables: null,
  /** @type {number} the past deal being changed, or -1 for the deal being entered */ editing: -1,
  /** @type {PadDeal | null} a past deal's changes, not yet saved */ draft: null,
  /** @type {Target} */ target: { kind: 'meld', seat: 0 },
  /** @type {number | null} the meld cards are being added to (its index) */ openMeld: null,
  /** whether the scorekeeper chose who went out (else the one seat left with no cards) */ wentOutChosen: false,
  /** the next card tapped is what a wild joker stands for */ jokerPending: false,
  /** @type {string[]} the pad as it was before each entry */ undo: [],
  message: '',
};
