// Marks on the cards a lesson or a hint means, wherever they lie on the table: in the hand,
// in the discard pile, in a meld (or a whole meld, or the stock). A mark is a class on the
// card's element, and words added to its label, so that it is seen and heard.

import { moveParts } from '../words.js';

/** What a mark points at: cards by their text (`7h`, `*`), melds by id (`m2`), the stock. */
/** @typedef {{ cards: string[], melds: string[], stock: boolean }} Targets */

const PLACES = ['#hand', '#pile', '#melds'];

/**
 * The cards and melds a move in the notation names (a taken card without its `/2`, a
 * declared joker as the hand holds it: `*`).
 * @param {string} move
 * @returns {Targets}
 */
export function moveTargets(move) {
  const { kind, cards, meld } = moveParts(move);
  return {
    cards: cards.map((card) => (card.startsWith('*') ? '*' : card.split('/')[0])),
    melds: meld ? [meld] : [],
    stock: kind === 'draw',
  };
}

/**
 * Removes every mark of `className`.
 * @param {string} className
 */
export function clearMarks(className) {
  for (const el of document.querySelectorAll(`.${className}`)) {
    el.classList.remove(className);
    const said = /** @type {HTMLElement} */ (el).dataset.markWords;
    const label = el.getAttribute('aria-label');
    if (said && label && label.endsWith(said)) el.setAttribute('aria-label', label.slice(0, -said.length));
    delete (/** @type {HTMLElement} */ (el).dataset.markWords);
  }
}

/**
 * Marks `targets` with `className` (after clearing the marks of that class), each card's
 * label ending with `words`. Returns how many places were marked.
 * @param {Targets} targets
 * @param {string} className
 * @param {string} words e.g. ", the hint means this card"
 */
export function markTargets(targets, className, words) {
  clearMarks(className);
  /** @type {Element[]} */
  const found = [];
  for (const place of PLACES) {
    const root = document.querySelector(place);
    if (!root) continue;
    const used = new Set();
    for (const card of targets.cards) {
      // One element a card in each place (a hand holding two copies marks one of them).
      const el = [...root.querySelectorAll(`[data-card="${CSS.escape(card)}"]`)]
        .find((candidate) => !used.has(candidate));
      if (el) {
        used.add(el);
        found.push(el);
      }
    }
  }
  for (const meld of targets.melds) {
    const el = document.querySelector(`#melds .meld[data-meld="${CSS.escape(meld)}"]`)
      || [...document.querySelectorAll('#melds .meld')].find((m) => m.querySelector('.meld-id')?.textContent === meld);
    if (el) found.push(el);
  }
  if (targets.stock) {
    const stock = document.querySelector('#stock .stock-box, #stock');
    if (stock) found.push(stock);
  }
  for (const el of found) {
    el.classList.add(className);
    const label = el.getAttribute('aria-label');
    if (label) {
      el.setAttribute('aria-label', `${label}${words}`);
      /** @type {HTMLElement} */ (el).dataset.markWords = words;
    }
  }
  return found.length;
}
