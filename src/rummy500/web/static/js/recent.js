// What each seat did last, from a state's history of the current deal, and which cards of the
// viewer's hand are new since the state before (the card just drawn or taken): pure functions
// for the seat panels and the hand.

import { pretty, prettyList } from './cards.js';
import { moveParts } from './words.js';

/** @typedef {import('./protocol.js').HistoryEntry} HistoryEntry */

/**
 * The last move of each seat in this deal (null for a seat that has not moved), from the
 * history's entries, each of which names its seat.
 * @param {readonly HistoryEntry[]} history
 * @param {number} players
 * @returns {(string | null)[]}
 */
export function lastMoves(history, players) {
  /** @type {(string | null)[]} */
  const last = Array(players).fill(null);
  for (const entry of history) {
    const seat = entry.seat;
    if (entry.move == null || seat == null || seat < 0 || seat >= players) continue;
    last[seat] = entry.move;
  }
  return last;
}

/**
 * A move in a few words for a seat's panel: "drew", "took 7♥", "melded 7♥ 7♦ 7♠".
 * @param {string} move
 */
export function shortMove(move) {
  const { kind, cards, meld } = moveParts(move);
  const card = cards.length ? pretty(cards[0].split('/')[0]) : '';
  /** @type {Record<string, string>} */
  const words = {
    draw: 'drew from the stock',
    take: `took ${card}`,
    meld: `melded ${prettyList(cards)}`,
    layoff: `laid off ${card} on ${meld}`,
    discard: `discarded ${card}`,
    end: 'took nothing',
    pass: 'passed',
    'rummy meld': `rummy! melded ${prettyList(cards)}`,
    'rummy layoff': `rummy! laid off ${card} on ${meld}`,
  };
  return words[kind] || move;
}

/**
 * The cards of `after` that `before` does not hold (each copy counted).
 * @param {readonly string[]} after
 * @param {readonly string[]} before
 */
export function newCards(after, before) {
  const left = [...before];
  const out = [];
  for (const card of after) {
    const at = left.indexOf(card);
    if (at >= 0) left.splice(at, 1);
    else out.push(card);
  }
  return out;
}

/**
 * The cards to mark as just drawn or taken after a change of the viewer's hand: the new cards
 * when the viewer's last move was a draw or a take; none after any other move of theirs or a
 * new deal; else the marks stay as they were.
 * @param {{ deal?: number, hand?: string[] | null } | null} before
 * @param {{ deal?: number, hand?: string[] | null }} after
 * @param {string | null} myLast the viewer's last move in the deal (after the change)
 * @param {string | null} myLastBefore the viewer's last move before the change
 * @param {readonly string[]} marked the cards marked before
 * @returns {string[]}
 */
export function freshCards(before, after, myLast, myLastBefore, marked) {
  if (!before || before.deal !== after.deal || !after.hand) return [];
  if (myLast === myLastBefore) return marked.filter((card) => (after.hand || []).includes(card));
  const kind = myLast ? moveParts(myLast).kind : '';
  if (kind === 'draw' || kind === 'take') return newCards(after.hand, before.hand || []);
  return [];
}
