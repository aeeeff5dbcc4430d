// The viewer's hand put in their own order: a card dragged to its place (Pointer Events: a
// mouse, a finger or a pen; a click without a drag still selects it), or moved with Alt and
// the arrow keys. The order is kept for the table's deal in this browser.

import { dropIndex, moveCard } from '../handorder.js';
import { $ } from '../dom.js';
import { tableId } from './address.js';
import { model, setOrder, sortedHand } from './model.js';
import { beforeRedraw } from './redraw.js';

const KEY = `rummy500.order.${tableId}`;
const DRAG_PX = 6;

/** The deal whose order is in force (so that a new deal starts sorted). */
let orderDeal = /** @type {number | undefined | null} */ (null);

/**
 * @typedef {object} Drag
 * @property {number} pointer
 * @property {HTMLElement} card
 * @property {number} from
 * @property {number} x
 * @property {number} y
 * @property {boolean} moving
 * @property {{ el: HTMLElement, rect: DOMRect, index: number }[]} others
 * @property {number} to
 */
/** @type {Drag | null} */
let drag = null;
let swallowClick = false;

function stored() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) || 'null');
    return data && Array.isArray(data.cards) ? /** @type {{ deal: number, cards: string[] }} */ (data) : null;
  } catch {
    return null;
  }
}

/** @param {string[]} cards */
function keep(cards) {
  const deal = model.state ? model.state.deal : undefined;
  localStorage.setItem(KEY, JSON.stringify({ deal, cards }));
  orderDeal = deal;
  setOrder(cards);
}

/** Before the table is drawn: a new deal (or the first state) takes the order kept for it. */
function followDeal() {
  const s = model.state;
  if (!s || !s.hand || s.deal === orderDeal) return;
  orderDeal = s.deal;
  const kept = stored();
  setOrder(kept && kept.deal === s.deal ? kept.cards : null, false);
}

/** The viewer's choice of sort drops their own order. */
export function forgetOrder() {
  localStorage.removeItem(KEY);
}

/** @param {PointerEvent} event */
function down(event) {
  const card = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (event.target).closest('#hand button.card'));
  if (!card || event.button !== 0 || !event.isPrimary) return;
  drag = { pointer: event.pointerId, card, from: Number(card.dataset.index), x: event.clientX, y: event.clientY,
    moving: false, others: [], to: Number(card.dataset.index) };
}

/** @param {PointerEvent} event */
function move(event) {
  if (!drag || event.pointerId !== drag.pointer) return;
  const dx = event.clientX - drag.x;
  const dy = event.clientY - drag.y;
  if (!drag.moving) {
    if (Math.hypot(dx, dy) < DRAG_PX) return;
    drag.moving = true;
    drag.card.setPointerCapture(drag.pointer);
    drag.card.classList.add('dragging');
    drag.others = [...$('#hand').querySelectorAll('button.card')].map((el) => /** @type {HTMLElement} */ (el))
      .filter((el) => el !== drag?.card)
      .map((el) => ({ el, rect: el.getBoundingClientRect(), index: Number(el.dataset.index) }));
  }
  event.preventDefault();
  drag.card.style.transform = `translate(${dx}px, ${dy}px)`;
  let best = null;
  let bestDistance = Infinity;
  for (const other of drag.others) {
    other.el.classList.remove('drop-before', 'drop-after');
    const cx = other.rect.left + other.rect.width / 2;
    const cy = other.rect.top + other.rect.height / 2;
    const distance = Math.hypot(event.clientX - cx, (event.clientY - cy) * 1.5);
    if (distance < bestDistance) {
      bestDistance = distance;
      best = other;
    }
  }
  if (!best) return;
  const after = event.clientX > best.rect.left + best.rect.width / 2;
  best.el.classList.add(after ? 'drop-after' : 'drop-before');
  drag.to = dropIndex(drag.from, best.index, after);
}

/** @param {PointerEvent} event */
function up(event) {
  if (!drag || event.pointerId !== drag.pointer) return;
  const done = drag;
  drag = null;
  if (!done.moving) return;
  swallowClick = true;
  setTimeout(() => { swallowClick = false; }, 0);
  for (const other of done.others) other.el.classList.remove('drop-before', 'drop-after');
  done.card.classList.remove('dragging');
  if (event.type === 'pointercancel' || done.to === done.from) {
    done.card.style.transform = '';
    return;
  }
  keep(moveCard(sortedHand(), done.from, done.to));
}

/** @param {MouseEvent} event */
function click(event) {
  if (!swallowClick) return;
  swallowClick = false;
  event.preventDefault();
  event.stopImmediatePropagation();
}

/** Alt with an arrow key moves the focused card along the hand. @param {KeyboardEvent} event */
function key(event) {
  if (!event.altKey || (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight')) return;
  const card = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (event.target).closest('#hand button.card'));
  if (!card) return;
  event.preventDefault();
  const from = Number(card.dataset.index);
  const to = from + (event.key === 'ArrowLeft' ? -1 : 1);
  const hand = sortedHand();
  if (to < 0 || to >= hand.length) return;
  keep(moveCard(hand, from, to));
  const again = /** @type {HTMLElement | null} */ (document.querySelector(`#hand button.card[data-index="${to}"]`));
  if (again) {
    for (const b of $('#hand').querySelectorAll('button.card')) /** @type {HTMLElement} */ (b).tabIndex = -1;
    again.tabIndex = 0;
    again.focus();
  }
}

export function bindReorder() {
  const hand = $('#hand');
  hand.addEventListener('pointerdown', down);
  hand.addEventListener('pointermove', move);
  hand.addEventListener('pointerup', up);
  hand.addEventListener('pointercancel', up);
  hand.addEventListener('click', click, { capture: true });
  hand.addEventListener('keydown', key);
  beforeRedraw('table', followDeal);
}
