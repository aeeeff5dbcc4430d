// The stock and the discard pile: on the viewer's draw, the stock is a button and each pile
// card a take (the legal ones highlighted).

import { renderPile } from '../board.js';
import { cardBack } from '../cards.js';
import { $, h, plural, replace } from '../dom.js';
import { takeText } from '../moves.js';
import { model, myTurn } from './model.js';
import { send } from './outbox.js';

/** What the stock and the pile were last drawn from. */
let drawn = '';

export function renderPiles() {
  const s = model.state;
  if (!s) return;
  const drawing = myTurn() && (s.phase === 'draw');
  // Drawn again only when what they show changed: a card of the pile is a button whose take
  // is the pile's as it was drawn, and a pile drawn anew would take the focus from it.
  const takes = drawing ? s.pile.map((_, index) => model.legal.takes.has(takeText(s.pile, index).slice(5))) : [];
  const now = JSON.stringify([s.stock, s.pile, s.must_use, drawing, drawing && model.legal.draw, takes]);
  if (now === drawn && $('#pile').hasChildNodes()) return;
  drawn = now;
  replace($('#stock'), h('div', { class: 'stock-box', 'aria-label': `Stock: ${plural(s.stock, 'card')}` },
    s.stock ? cardBack('pile') : h('span', { class: 'card card-pile empty-stock', 'aria-hidden': 'true' }, '∅'),
    h('span', { class: 'stock-count' }, `Stock ${s.stock}`)));
  renderPile($('#pile'), s.pile, drawing ? {
    take: (/** @type {number} */ index) => send(takeText(s.pile, index)),
    takeable: (/** @type {number} */ index) => model.legal.takes.has(takeText(s.pile, index).slice(5)),
    mustUse: s.must_use,
  } : { mustUse: s.must_use });
  const stockBox = $('#stock .stock-box');
  if (drawing && model.legal.draw) {
    const button = h('button', { type: 'button', class: 'stock-button', 'aria-label': `Draw from the stock (${plural(s.stock, 'card')})` }, stockBox);
    button.addEventListener('click', () => send('draw'));
    replace($('#stock'), button);
  }
}
