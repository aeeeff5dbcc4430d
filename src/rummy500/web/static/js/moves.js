// What the engine's legal moves allow, read for the controls: which buttons to offer, which
// pile cards can be taken, which melds a selected card can go on. No rule is decided here:
// a move the list does not hold is still sent when asked for, and the engine says why not.

import { plainFace } from './cards.js';
import { moveParts } from './words.js';

/**
 * The legal moves read for the controls.
 * @typedef {object} LegalInfo
 * @property {Set<string>} all
 * @property {boolean} draw
 * @property {boolean} end
 * @property {boolean} pass
 * @property {Set<string>} takes the pile faces that may be taken ("7h", "7h/2", "*")
 * @property {Set<string>} discards
 * @property {{ text: string, cards: string[] }[]} melds
 * @property {{ text: string, card: string, meld: string | null }[]} layoffs
 * @property {{ text: string, kind: string, cards: string[], meld: string | null }[]} claims
 */
/**
 * @param {readonly string[] | null | undefined} legal
 * @returns {LegalInfo}
 */
export function readLegal(legal) {
  /** @type {LegalInfo} */
  const info = {
    all: new Set(legal || []), draw: false, end: false, pass: false,
    takes: new Set(), discards: new Set(), melds: [], layoffs: [], claims: [],
  };
  for (const text of legal || []) {
    const { kind, cards, meld } = moveParts(text);
    if (kind === 'draw') info.draw = true;
    else if (kind === 'end') info.end = true;
    else if (kind === 'pass') info.pass = true;
    else if (kind === 'take') info.takes.add(cards[0]);
    else if (kind === 'discard') info.discards.add(cards[0]);
    else if (kind === 'meld') info.melds.push({ text, cards });
    else if (kind === 'layoff') info.layoffs.push({ text, card: cards[0], meld });
    else if (kind.startsWith('rummy')) info.claims.push({ text, kind, cards, meld });
  }
  return info;
}

/**
 * @param {readonly string[]} a
 * @param {readonly string[]} b
 */
function sameCards(a, b) {
  if (a.length !== b.length) return false;
  const x = a.map(plainFace).sort();
  const y = b.map(plainFace).sort();
  return x.every((card, i) => card === y[i]);
}

// The legal melds made of exactly the selected cards (several when a joker can stand for
// different cards).
/**
 * @param {LegalInfo} info
 * @param {readonly string[]} selected
 */
export function meldsFor(info, selected) {
  return info.melds.filter((meld) => sameCards(meld.cards, selected));
}

/**
 * @param {LegalInfo} info
 * @param {string} card
 * @param {string | null} [meldId]
 */
export function layoffsFor(info, card, meldId = null) {
  return info.layoffs.filter((layoff) => plainFace(layoff.card) === plainFace(card)
    && (meldId === null || layoff.meld === meldId));
}

// The melds on the table that a selected card may be laid off on.
/**
 * @param {LegalInfo} info
 * @param {readonly string[]} selected
 * @returns {Set<string | null>}
 */
export function layoffTargets(info, selected) {
  if (selected.length !== 1) return new Set();
  return new Set(layoffsFor(info, selected[0]).map((layoff) => layoff.meld));
}

// Some legal meld holds all the selected cards (so selecting more may make one).
/**
 * @param {LegalInfo} info
 * @param {readonly string[]} selected
 */
export function couldMeld(info, selected) {
  if (!selected.length) return false;
  return info.melds.some((meld) => {
    const left = meld.cards.map(plainFace);
    return selected.every((card) => {
      const at = left.indexOf(plainFace(card));
      if (at < 0) return false;
      left.splice(at, 1);
      return true;
    });
  });
}

// The take of the pile card at index (the pile bottom first): `take 7h`, or `take 7h/2` for
// the lower of two copies; a joker is taken as `take *` (the upper joker).
/**
 * @param {readonly string[]} pile
 * @param {number} index
 */
export function takeText(pile, index) {
  const face = pile[index];
  const above = face !== '*' && pile.slice(index + 1).includes(face);
  return `take ${face}${above ? '/2' : ''}`;
}
