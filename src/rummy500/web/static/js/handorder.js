// The viewer's own order of their hand (dragged into place): the hand laid out in that order,
// the cards it does not name (drawn since) after them in the chosen sort.

import { sortCards } from './cards.js';

/**
 * The hand in the viewer's order: the cards `order` names first (each copy once), then the
 * others sorted by `sort`; sorted alone without an order.
 * @param {readonly string[]} hand
 * @param {string} sort "suit" or "rank"
 * @param {readonly string[] | null} order
 * @returns {string[]}
 */
export function arrangeHand(hand, sort, order) {
  const sorted = sortCards(hand, sort);
  if (!order) return sorted;
  const left = [...sorted];
  const placed = [];
  for (const card of order) {
    const at = left.indexOf(card);
    if (at >= 0) {
      placed.push(card);
      left.splice(at, 1);
    }
  }
  return [...placed, ...left];
}

/**
 * `cards` with the card at `from` moved to index `to` (of the list without it).
 * @param {readonly string[]} cards
 * @param {number} from
 * @param {number} to
 * @returns {string[]}
 */
export function moveCard(cards, from, to) {
  const out = [...cards];
  const [card] = out.splice(from, 1);
  if (card === undefined) return [...cards];
  out.splice(Math.max(0, Math.min(out.length, to)), 0, card);
  return out;
}

/**
 * Where a card dragged from `from` lands when dropped beside card `over` (its left half:
 * before it; its right half: after it), as an index of the list without the dragged card.
 * @param {number} from
 * @param {number} over
 * @param {boolean} after
 */
export function dropIndex(from, over, after) {
  const at = over + (after ? 1 : 0);
  return at > from ? at - 1 : at;
}
