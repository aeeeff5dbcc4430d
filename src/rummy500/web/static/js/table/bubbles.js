// Talk you notice: a line or a reaction said at the table shows for a few seconds as a
// bubble at the speaker's seat. The bubbles are a layer over the page, placed by the seat's
// box (the seats are drawn again at every move; a bubble outlives that), and hidden from
// screen readers: the talk panel's list already says each line.

import { h } from '../dom.js';
import { reactionIcon } from './icons.js';

/** How long a bubble stays, in milliseconds: a reaction is seen at a glance, a line is read. */
export const REACTION_MS = 4000;
export const LINE_MS = 6500;
const MARGIN = 6;

/** @type {Map<number, { el: HTMLElement, timer: number }>} */
const showing = new Map();

function layer() {
  let box = document.getElementById('bubbles');
  if (!box) {
    box = h('div', { id: 'bubbles', class: 'bubbles', 'aria-hidden': 'true' });
    document.body.append(box);
  }
  return box;
}

/** @param {number} seat */
function seatBox(seat) {
  const el = document.querySelector(`#players [data-seat="${seat}"]`);
  return el instanceof HTMLElement && el.getClientRects().length ? el : null;
}

/**
 * Places `bubble` under the seat's name box, inside the page's width.
 * @param {HTMLElement} bubble
 * @param {number} seat
 */
function place(bubble, seat) {
  const box = seatBox(seat);
  bubble.hidden = !box;
  if (!box) return;
  const rect = box.getBoundingClientRect();
  const width = document.documentElement.clientWidth;
  const own = bubble.getBoundingClientRect();
  const left = Math.max(MARGIN, Math.min(rect.left + rect.width / 2 - own.width / 2, width - own.width - MARGIN));
  bubble.style.left = `${left + window.scrollX}px`;
  bubble.style.top = `${rect.top + window.scrollY + Math.min(rect.height, 40) - 4}px`;
  bubble.style.setProperty('--tail', `${Math.max(12, Math.min(own.width - 12, rect.left + rect.width / 2 - left))}px`);
}

/** Places every bubble again (the seats moved: a new state, a resize). */
export function placeBubbles() {
  for (const [seat, { el }] of showing) place(el, seat);
}

/**
 * Shows what `seat` said as a bubble at the seat, in place of any bubble it has.
 * @param {number} seat
 * @param {string} text the line (a reaction's words)
 * @param {string | undefined} react the reaction, if it is one
 */
export function showBubble(seat, text, react) {
  const before = showing.get(seat);
  if (before) {
    clearTimeout(before.timer);
    before.el.remove();
  }
  const el = h('div', { class: `bubble${react ? ' react' : ''}`, dataset: { seat: String(seat) } },
    react ? reactionIcon(react) : null, h('span', { class: 'bubble-text' }, text));
  layer().append(el);
  place(el, seat);
  const timer = window.setTimeout(() => {
    el.remove();
    if (showing.get(seat)?.el === el) showing.delete(seat);
  }, react ? REACTION_MS : LINE_MS);
  showing.set(seat, { el, timer });
}

export function startBubbles() {
  window.addEventListener('resize', placeBubbles);
}
