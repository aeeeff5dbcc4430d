// The melds on the table, each in front of the seat that laid it and each lay-off in front of
// the seat that laid it off (pieces.js), in that seat's area of the table (around.js). While
// the viewer plays, each meld is a button to lay the selected card off on, the ones it fits
// highlighted; the melds of every seat are one toolbar for the keyboard (arrows go from one to
// the next around the table).

import { cardFace, pretty, spoken } from '../cards.js';
import { $, h, rovingFocus } from '../dom.js';
import { layoffTargets } from '../moves.js';
import { seatPlaces } from './around.js';
import { model, myTurn, selectedCards } from './model.js';
import { drawInPlace } from './inplace.js';
import { piecesBySeat } from './pieces.js';
import { layOff } from './play.js';

/** @typedef {import('./pieces.js').Piece} Piece */

/**
 * A card of a meld with the mark of the seat that laid it.
 * @param {string} text
 * @param {number} by
 */
function meldCard(text, by) {
  return h('span', { class: 'meld-card', dataset: { by: String(by) } },
    cardFace(text, { size: 'meld', label: `${spoken(text)}, laid by ${model.names[by]}` }),
    h('span', { class: `mark seat-${by % 8}`, 'aria-hidden': 'true' }, model.marks[by]));
}

/**
 * Where a card laid off by another seat stands in a meld: its face, small, and the seat's
 * mark (the card itself lies in front of that seat).
 * @param {string} text
 * @param {number} by
 */
function laidOffElsewhere(text, by) {
  return h('span', { class: 'meld-card elsewhere', 'aria-hidden': 'true', title: `laid off by ${model.names[by]}`, dataset: { by: String(by) } },
    h('span', { class: 'card card-meld ghost' }, pretty(text)),
    h('span', { class: `mark seat-${by % 8}` }, model.marks[by]));
}

/**
 * A meld as it lies in front of the seat that laid it.
 * @param {Piece} piece
 * @param {{ targets: Set<string>, playing: boolean }} how
 */
function ownPiece(piece, how) {
  const { meld } = piece;
  const cards = meld.cards.map((text, i) => (meld.by[i] === piece.seat
    ? meldCard(text, meld.by[i]) : laidOffElsewhere(text, meld.by[i])));
  const others = meld.cards.flatMap((text, i) => (meld.by[i] === piece.seat ? []
    : [`${pretty(text)} laid off by ${model.names[meld.by[i]]}`]));
  const label = `${meld.id}: ${meld.cards.map(pretty).join(' ')}${others.length ? ` (${others.join(', ')})` : ''}`;
  const body = [h('span', { class: 'meld-id' }, meld.id), h('span', { class: 'meld-cards' }, cards)];
  if (!how.playing) return h('div', { class: 'meld', role: 'listitem', 'aria-label': label }, body);
  const target = how.targets.has(meld.id);
  const el = h('button', { type: 'button', class: `meld${target ? ' target' : ''}`,
    'aria-label': `${label}${target ? ' (lay the selected card off here)' : ''}`,
    dataset: { meld: meld.id } }, body);
  el.addEventListener('click', () => layOff(meld.id));
  return el;
}

/**
 * Cards a seat laid off onto another seat's meld, in front of the seat that laid them.
 * @param {Piece} piece
 * @param {boolean} playing
 */
function layoffPiece(piece, playing) {
  const { meld } = piece;
  const texts = piece.at.map((i) => meld.cards[i]);
  return h('div', { class: 'meld-layoff', role: playing ? 'group' : 'listitem',
    'aria-label': `${texts.map(pretty).join(' ')} laid off on ${meld.id}`, dataset: { meld: meld.id } },
  h('span', { class: 'meld-id' }, `on ${meld.id}`),
  h('span', { class: 'meld-cards' }, texts.map((text) => meldCard(text, piece.seat))));
}

export function renderTableMelds() {
  const s = model.state;
  if (!s) return;
  // Drawn in place: a meld's button (whose listener lays off on its id) keeps the focus.
  drawInPlace($('#melds'), (box) => drawMelds(box, s));
  // The arrows bound once on the list the page keeps, not on the one drawn away from it (their
  // handler finds the buttons as they are; the tab stop is kept by the drawing).
  const list = /** @type {HTMLElement | null} */ (document.querySelector('#melds .meld-list[role="toolbar"]'));
  if (list && !list.onkeydown) rovingFocus(list, 'button.meld');
}

/**
 * @param {HTMLElement} box
 * @param {import('../protocol.js').TableState} s
 */
function drawMelds(box, s) {
  if (!s.melds.length) {
    const empty = h('p', { class: 'empty' }, 'No melds on the table yet.');
    // Through the style object: the page's policy refuses style attributes.
    empty.style.gridArea = 'mme';
    box.append(empty);
    return;
  }
  const playing = myTurn() && s.phase === 'play';
  const how = { playing, targets: playing ? layoffTargets(model.legal, selectedCards()) : new Set() };
  const pieces = piecesBySeat(s.melds);
  const list = h('div', { class: 'meld-list', role: playing ? 'toolbar' : null,
    'aria-label': playing ? 'Melds on the table' : null });
  for (const place of seatPlaces(s.players, model.seat)) {
    const mine = pieces.get(place.seat);
    if (!mine) continue;
    const name = place.seat === model.seat ? 'Your' : `${model.names[place.seat]}’s`;
    const group = h('div', { class: 'seat-melds', role: playing ? 'group' : 'list', tabindex: '0',
      'aria-label': `${name} melds and lay-offs`, dataset: { seat: String(place.seat), at: place.side } },
    mine.map((piece) => (piece.own ? ownPiece(piece, how) : layoffPiece(piece, playing))));
    group.style.gridArea = place.melds;
    list.append(group);
  }
  box.append(list);
}
