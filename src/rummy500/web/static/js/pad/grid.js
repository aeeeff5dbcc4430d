// The card grid the scorekeeper taps: a row a suit, ace to king, the jokers of the game; each
// card says how many copies are left where the packs hold two.

import { h } from '../dom.js';

/** @typedef {import('./score.js').Tables} Tables */

export const SUIT_NAMES = /** @type {Record<string, string>} */ ({ s: 'spades', h: 'hearts', d: 'diamonds', c: 'clubs' });
const SYMBOLS = /** @type {Record<string, string>} */ ({ s: '♠', h: '♥', d: '♦', c: '♣' });
const RANKS = 'A23456789TJQK';
const RANK_WORDS = ['ace', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'jack', 'queen', 'king'];

/**
 * A card written for the eye: 7♥, 10♠, joker as 6♥.
 * @param {string} piece
 * @returns {string}
 */
export function prettyPiece(piece) {
  if (piece === '*') return '🃏';
  if (piece.startsWith('*=')) return `🃏${prettyPiece(piece.slice(2))}`;
  const rank = piece[0] === 'T' ? '10' : piece[0];
  return rank + SYMBOLS[piece[1]];
}

/**
 * A card said in words: "7 of hearts", "joker as 6 of hearts".
 * @param {string} piece
 * @returns {string}
 */
export function spokenPiece(piece) {
  if (piece === '*') return 'joker';
  if (piece.startsWith('*=')) return `joker as ${spokenPiece(piece.slice(2))}`;
  return `${RANK_WORDS[RANKS.indexOf(piece[0])]} of ${SUIT_NAMES[piece[1]]}`;
}

/**
 * The grid.
 * @param {Tables} tables
 * @param {(piece: string) => void} onTap
 * @param {(card: string) => number} used how many copies of a card are entered
 * @returns {HTMLElement}
 */
export function cardGrid(tables, onTap, used) {
  const rows = ['s', 'h', 'd', 'c'].map((suit) => h('div', { class: `grid-row suit-${suit}`, role: 'group', 'aria-label': SUIT_NAMES[suit] },
    ...[...RANKS].map((rank) => cardButton(rank + suit, tables, onTap, used))));
  if (tables.copies['*']) {
    rows.push(h('div', { class: 'grid-row jokers', role: 'group', 'aria-label': 'jokers' },
      cardButton('*', tables, onTap, used),
      h('span', { class: 'grid-note' }, tables.jokers === 'wild' ? 'a wild joker on the table: tap it, then the card it stands for' : 'Persian jokers meld only with each other')));
  }
  return h('div', { class: 'grid' }, rows);
}

/**
 * @param {string} card
 * @param {Tables} tables
 * @param {(piece: string) => void} onTap
 * @param {(card: string) => number} used
 */
function cardButton(card, tables, onTap, used) {
  const held = tables.copies[card] || 0;
  const left = held - used(card);
  const label = `${spokenPiece(card)}${held > 1 ? `, ${left} of ${held} left` : left <= 0 ? ', used' : ''}`;
  return h('button', {
    type: 'button', class: `grid-card${left <= 0 ? ' used' : ''}`, id: `card-${card === '*' ? 'joker' : card}`,
    'aria-label': label, dataset: { card, left: String(left) }, onclick: () => onTap(card),
  }, card === '*' ? '🃏' : (card[0] === 'T' ? '10' : card[0]), card === '*' ? null : h('span', { class: 'suit', 'aria-hidden': 'true' }, SYMBOLS[card[1]]),
  held > 1 ? h('span', { class: 'left', 'aria-hidden': 'true' }, String(left)) : null);
}

/**
 * Cards entered, each a button that takes it back.
 * @param {string[]} cards
 * @param {(position: number) => void} onRemove
 */
export function cardsView(cards, onRemove) {
  return cards.map((piece, position) => h('button', {
    type: 'button', class: `entered-card${/[hd]$/.test(piece) ? ' red' : ''}`, 'aria-label': `Take back ${spokenPiece(piece)}`,
    onclick: () => onRemove(position),
  }, prettyPiece(piece)));
}
