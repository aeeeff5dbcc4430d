// The table in plain words the page makes itself: move texts in parts, sides, the standing, hints.

import { pretty } from './cards.js';
import { plural } from './dom.js';

/** @typedef {import('./protocol.js').TableState} TableState */
/** @typedef {import('./protocol.js').DealResult} DealResult */

export const YOU = 'You';

// A move's text in parts: {kind, cards, meld}; kind is one of NOTATION.md's moves.
/**
 * @param {string} text
 * @returns {{ kind: string, cards: string[], meld: string | null }}
 */
export function moveParts(text) {
  const words = String(text).trim().split(/\s+/);
  let kind = words.shift() || '';
  if (kind === 'rummy') kind += ` ${words.shift() || ''}`;
  let meld = null;
  if (kind.endsWith('layoff') && words.length > 1) meld = words.pop() ?? null;
  return { kind, cards: words, meld };
}

// The seats of each side, e.g. [[0, 2], [1, 3]], or a side per seat.
/**
 * @param {number} players
 * @param {number[][] | null | undefined} sides
 * @returns {number[][]}
 */
export function sidesOf(players, sides) {
  if (sides && sides.length) return sides;
  return Array.from({ length: players }, (_, seat) => [seat]);
}

/**
 * @param {number} side
 * @param {readonly number[][]} sides
 * @param {readonly string[]} names
 * @param {number | null} viewer
 */
export function sideName(side, sides, names, viewer) {
  const members = [...(sides[side] || [])].sort((a, b) => Number(b === viewer) - Number(a === viewer));
  return members.map((seat) => (seat === viewer ? YOU : names[seat])).join(' & ');
}

/**
 * @param {number} seat
 * @param {readonly number[][]} sides
 */
export function sideOfSeat(seat, sides) {
  return sides.findIndex((members) => members.includes(seat));
}

/**
 * Who leads, or who won, as the last finished deal's sheet says it (before the first deal is
 * scored, every side has 0).
 * @param {TableState} state
 * @param {number} [target] the score that wins
 */
export function standing(state, target) {
  const deals = state.deals || [];
  if (deals.length) return deals[deals.length - 1].standing;
  return `Level at 0 each${target ? ` (to ${target})` : ''}.`;
}

// A move as advice, e.g. "take 7♥ from the pile" (the hint's words).
/** @param {string} move */
export function describe(move) {
  const { kind, cards, meld: target } = moveParts(move);
  if (kind === 'draw') return 'draw from the stock';
  if (kind === 'take') return `take ${pretty(cards[0].split('/')[0])} from the pile`;
  // A declared joker in a meld as the log writes it: "joker(7♣)".
  if (kind === 'meld') return `meld ${cards.map((c) => (c.startsWith('*=') ? `joker(${pretty(c.slice(2))})` : pretty(c))).join(' ')}`;
  if (kind === 'layoff') return `lay off ${pretty(cards[0])} on ${target}`;
  if (kind === 'discard') return `discard ${pretty(cards[0])}`;
  if (kind === 'pass') return 'pass';
  if (kind === 'end') return 'take nothing from the pile (ending the deal)';
  return move;
}

// A score with its sign: "+35", "−10" (a minus sign, not a hyphen), "0".
/** @param {number} n */
export function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0';
}

// A total: "35", "−10" (the minus sign of signed(), no plus).
/** @param {number} n */
export function total(n) {
  return n < 0 ? `−${-n}` : String(n);
}

/** @param {string} text */
export function capital(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}
