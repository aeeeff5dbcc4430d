// Cards as NOTATION.md writes them ("7h", "Th", "*", "*=6h"), drawn by the page itself.

import { h } from './dom.js';

/** @type {Record<string, string>} */
export const SUIT_SYMBOLS = { c: '♣', d: '♦', h: '♥', s: '♠' };
/** @type {Record<string, string>} */
const SUIT_WORDS = { c: 'clubs', d: 'diamonds', h: 'hearts', s: 'spades' };
const RANKS = 'A23456789TJQK';
const RANK_WORDS = ['ace', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'jack', 'queen', 'king'];
const SUIT_ORDER = 'cdhs';

// {text, joker, rank (1..13, 0 for a joker), suit ('' for a joker), declared (a card or null)}
/**
 * @typedef {object} Card
 * @property {string} text
 * @property {boolean} joker
 * @property {number} rank 1..13, 0 for a joker
 * @property {string} suit "c", "d", "h" or "s"; "" for a joker
 * @property {Card | null} declared what a declared joker stands for
 */
/**
 * @param {string} text
 * @returns {Card}
 */
export function parseCard(text) {
  if (text.startsWith('*')) {
    const declared = text.startsWith('*=') ? parseCard(text.slice(2)) : null;
    return { text, joker: true, rank: 0, suit: '', declared };
  }
  const rank = RANKS.indexOf(text[0].toUpperCase()) + 1;
  return { text, joker: false, rank, suit: text[1].toLowerCase(), declared: null };
}

/** @param {number} rank */
export function rankLabel(rank) {
  return rank === 10 ? '10' : RANKS[rank - 1];
}

// "7♥", "10♠", "joker", "joker as 6♥"
/**
 * @param {string} text
 * @returns {string}
 */
export function pretty(text) {
  const card = parseCard(text);
  if (card.joker) return card.declared ? `joker as ${pretty(card.declared.text)}` : 'joker';
  return rankLabel(card.rank) + SUIT_SYMBOLS[card.suit];
}

/** @param {readonly string[]} texts */
export function prettyList(texts) {
  return texts.map(pretty).join(' ');
}

// "7 of hearts", for screen readers.
/**
 * @param {string} text
 * @returns {string}
 */
export function spoken(text) {
  const card = parseCard(text);
  if (card.joker) return card.declared ? `joker as ${spoken(card.declared.text)}` : 'joker';
  return `${RANK_WORDS[card.rank - 1]} of ${SUIT_WORDS[card.suit]}`;
}

// The face a card is written as in a move: a declared joker is written "*=6h", any other as is.
/** @param {string} text */
export function plainFace(text) {
  return parseCard(text).joker ? '*' : text;
}

/** @param {Card} card */
export function isRed(card) {
  const shown = card.joker ? card.declared : card;
  return Boolean(shown) && (shown?.suit === 'h' || shown?.suit === 'd');
}

/** @param {Card} card */
function suitKey(card) {
  return card.joker ? 99 : SUIT_ORDER.indexOf(card.suit) * 16 + card.rank;
}

/** @param {Card} card */
function rankKey(card) {
  return card.joker ? 99 : card.rank * 4 + SUIT_ORDER.indexOf(card.suit);
}

/**
 * @param {readonly string[]} texts
 * @param {string} [by] "suit" or "rank"
 */
export function sortCards(texts, by = 'suit') {
  const key = by === 'rank' ? rankKey : suitKey;
  return [...texts].sort((a, b) => key(parseCard(a)) - key(parseCard(b)));
}

// A card face: rank and suit symbol in the corner (readable when fanned), a large symbol in
// the middle. Options: size ('hand' | 'pile' | 'meld' | 'mini'), button, pressed, label, extra.
/**
 * @typedef {object} FaceOptions
 * @property {string} [size]
 * @property {boolean} [button]
 * @property {boolean} [pressed]
 * @property {string} [label]
 * @property {string | null} [extraClass]
 * @property {Node} [extra]
 * @property {Record<string, string>} [dataset]
 */
/**
 * @param {string} text
 * @param {FaceOptions} [options]
 */
export function cardFace(text, options = {}) {
  const card = parseCard(text);
  const shown = card.joker ? card.declared : card;
  const classes = ['card', `card-${options.size || 'hand'}`];
  if (isRed(card)) classes.push('red');
  if (card.joker) classes.push('joker');
  if (options.extraClass) classes.push(options.extraClass);
  let corner;
  let middle;
  if (!shown) {
    // A joker's corner holds a star alone, nothing that reads as a rank (a "J" reads as a jack).
    corner = [h('span', { class: 'rank' }, '★')];
    middle = h('span', { class: 'pip' }, '★');
  } else {
    corner = [h('span', { class: 'rank' }, rankLabel(shown.rank)),
      h('span', { class: 'suit' }, SUIT_SYMBOLS[shown.suit])];
    // A declared joker's corner shows its star too, so a fanned meld tells it from a natural card.
    if (card.joker) corner.push(h('span', { class: 'star' }, '★'));
    middle = card.joker
      ? h('span', { class: 'pip' }, '★')
      : h('span', { class: 'pip' }, shown.rank > 10 ? rankLabel(shown.rank) + SUIT_SYMBOLS[shown.suit]
        : SUIT_SYMBOLS[shown.suit]);
  }
  const label = options.label || spoken(text);
  /** @type {Node[]} */
  const inner = [h('span', { class: 'corner', 'aria-hidden': 'true' }, corner),
    h('span', { class: 'middle', 'aria-hidden': 'true' }, middle)];
  if (card.joker) inner.push(h('span', { class: 'joker-tag', 'aria-hidden': 'true' }, 'joker'));
  if (options.extra) inner.push(options.extra);
  if (options.button) {
    return h('button', {
      type: 'button', class: classes.join(' '), 'aria-label': label,
      'aria-pressed': options.pressed === undefined ? null : String(Boolean(options.pressed)),
      dataset: { card: text, ...(options.dataset || {}) },
    }, inner);
  }
  return h('span', { class: classes.join(' '), role: 'img', 'aria-label': label, dataset: { card: text } }, inner);
}

/** @param {string} [size] */
export function cardBack(size = 'mini') {
  return h('span', { class: `card card-${size} back`, 'aria-hidden': 'true' });
}
