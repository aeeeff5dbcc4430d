// The end of a deal on the table: the melds as they lay and every hand face up with its
// points, kept in place of the next deal (which the server deals at once) until the sheet
// is closed and nobody is waited for any more; at the game's end, for good. It is drawn
// from the finished deal's sheet in the state (its melds and hands), so a reload during the
// pause shows it again, and every card in it was shown to all when the deal ended.

import { renderHand, renderMelds, seatBadge } from '../board.js';
import { h, plural, replace } from '../dom.js';
import { signed } from '../words.js';
import { focusTable } from './focus.js';
import { onFrame } from './frames.js';
import { model, who } from './model.js';
import { afterRedraw, redraw } from './redraw.js';

/** @typedef {import('../protocol.js').Frame} Frame */
/** @typedef {import('../protocol.js').TableState} TableState */
/** @typedef {import('../protocol.js').DealResult} DealResult */

/** The seats the deal pause waits for, as last heard (a state or a waiting frame). */
let waiting = /** @type {number[]} */ ([]);

function sheetOpen() {
  const sheet = /** @type {HTMLDialogElement | null} */ (document.getElementById('sheet'));
  return Boolean(sheet && sheet.open);
}

/**
 * The finished deal to keep on the table now, or null: the last one while its sheet is
 * read, while the pause waits for someone, between the move that ended it and the next
 * deal; and the last deal of a game that is over.
 * @param {TableState} s
 * @returns {DealResult | null}
 */
export function finishedDeal(s) {
  const deals = s.deals || [];
  const last = deals[deals.length - 1];
  if (!last) return null;
  if (s.over) return last;
  if (s.deal > last.deal + 1) return null;
  return s.deal === last.deal || sheetOpen() || waiting.length > 0 ? last : null;
}

/**
 * One seat's cards left and points.
 * @param {DealResult} deal
 * @param {number} seat
 */
function seatEnd(deal, seat) {
  const cards = deal.hands[seat] || [];
  const name = who(seat);
  const out = deal.went_out === seat;
  const hand = h('div', { class: 'dealend-cards' });
  renderHand(hand, cards, { size: 'meld', label: `${name}: cards left in hand` });
  if (!cards.length) replace(hand, h('span', { class: 'empty' }, out ? 'Went out: no cards left.' : 'No cards left.'));
  const inHand = deal.in_hand[seat] || 0;
  return h('li', { class: `dealend-seat${out ? ' out' : ''}${seat === model.seat ? ' me' : ''}`, dataset: { seat: String(seat) } },
    h('div', { class: 'dealend-head' },
      seatBadge(seat, model.marks, model.names),
      h('span', { class: 'dealend-name' }, name),
      out ? h('span', { class: 'tag went-out' }, 'went out') : null,
      h('span', { class: 'dealend-points' },
        h('span', { class: 'on-table', title: 'points laid on the table' }, `${deal.melded[seat] || 0} on the table`),
        h('span', { class: 'in-hand', title: 'points left in hand' }, `${signed(-inHand)} in hand`))),
    hand);
}

/** Draws the finished deal in place of the table, or takes it away. */
export function renderDealEnd() {
  const s = model.state;
  const deal = s ? finishedDeal(s) : null;
  const was = document.body.classList.contains('deal-end');
  document.body.classList.toggle('deal-end', Boolean(deal));
  let box = document.getElementById('dealend');
  if (!deal || !s) {
    if (box && was) {
      const focused = box.contains(document.activeElement);
      box.hidden = true;
      box.replaceChildren();
      // The next deal comes on: the table is drawn again (its status line said the deal was over).
      redraw('table');
      if (focused) focusTable();
    }
    return;
  }
  if (!box) {
    box = h('section', { id: 'dealend', class: 'dealend', tabindex: '0', 'aria-labelledby': 'dealend-heading' });
    const board = document.querySelector('#play .board');
    if (board) board.before(box);
    else document.getElementById('play')?.append(box);
  }
  box.hidden = false;
  const melds = h('div', { class: 'dealend-melds' });
  renderMelds(melds, deal.melds || [], model.names, model.marks);
  const seats = Array.from({ length: s.players }, (_, seat) => seatEnd(deal, seat));
  replace(box,
    h('h2', { id: 'dealend-heading' }, `Deal ${deal.deal} is over: ${deal.ended}`),
    s.over ? null : h('p', { class: 'dealend-next muted' },
      'The table stays as the deal ended until everyone has closed the sheet or pressed Continue; then the next deal is dealt.'),
    h('h3', { class: 'dealend-sub' }, plural((deal.melds || []).length, 'meld'), ' as they lay'),
    melds,
    h('h3', { class: 'dealend-sub' }, 'Every hand, face up'),
    h('ul', { class: `dealend-hands${s.players >= 5 ? ' many' : ''}` }, seats));
  if (!s.over) {
    const status = document.getElementById('status');
    if (status) {
      const next = waiting.length ? ' The next deal waits for everyone to continue.'
        : sheetOpen() ? ' Close the sheet for the next deal.' : '';
      status.textContent = `Deal ${deal.deal} is over.${next}`;
      status.classList.remove('yours');
    }
  }
  // The deal comes on the table: the rest of the table is drawn again for it (the score
  // panel's points on the table are the finished deal's now).
  if (!was) redraw('table');
}

/**
 * What a state or a waiting frame says of who the pause waits for.
 * @param {{ waiting_for?: number[] }} said
 */
function hear(said) {
  waiting = Array.isArray(said.waiting_for) ? said.waiting_for : [];
  renderDealEnd();
}

export function startDealEnd() {
  for (const type of ['welcome', 'update']) {
    onFrame(type, (/** @type {Frame} */ frame) => { if (frame.state) hear(frame.state); });
  }
  onFrame('waiting', (/** @type {Frame} */ frame) => hear(frame));
  afterRedraw('table', renderDealEnd);
  const sheet = document.getElementById('sheet');
  if (sheet) {
    sheet.addEventListener('close', () => {
      renderDealEnd();
      // Closed with the deal still on the table: the keyboard goes to it (the hand is away).
      setTimeout(() => {
        const box = document.getElementById('dealend');
        if (box && !box.hidden && (document.activeElement === document.body || !document.activeElement)) box.focus();
      }, 0);
    });
  }
}
