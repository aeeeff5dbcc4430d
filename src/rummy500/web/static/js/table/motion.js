// Cards move: before the table is drawn again, where each card stood is remembered (keyed by
// the card and its copy); at the next frame, each card that moved is animated from its old
// place to its new one (FLIP), and a card that was nowhere on the page flies in from the stock
// (a draw, a deal) or from the panel of the seat that played it. None with reduced motion
// asked for. The new places are read in the frame, where the page is laid out anyway (read
// at once, they would cost a second layout of the whole page for every change), and changes
// that come before that frame fly from where the viewer last saw the cards.

import { plainFace } from '../cards.js';
import { model } from './model.js';
import { afterRedraw, beforeRedraw } from './redraw.js';
import { setting } from '../settings.js';

const DURATION_MS = 260;
const DEAL_STAGGER_MS = 35;
const AREAS = '#hand .card[data-card], #pile .card[data-card], #melds .card[data-card]';

/** @type {Map<string, DOMRect>} */
let before = new Map();
/** @type {DOMRect | null} */
let stockBefore = null;
/** The seat to move in the state shown before the change. */
let moverBefore = /** @type {number | null} */ (null);
let dealBefore = /** @type {number | undefined} */ (undefined);
/** A frame is asked for to animate a change not shown yet. */
let flightsAsked = false;

/** Motion is wanted: the viewer has not asked for less, and the page is shown. */
export function motionWanted() {
  if (document.hidden || !setting('motion')) return false;
  return !(window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches);
}

/**
 * The page's cards keyed by face and copy ("7h#0"; a declared joker is a joker).
 * @returns {Map<string, HTMLElement>}
 */
function cardsByKey() {
  /** @type {Map<string, HTMLElement>} */
  const found = new Map();
  /** @type {Map<string, number>} */
  const copies = new Map();
  for (const el of document.querySelectorAll(AREAS)) {
    const card = /** @type {HTMLElement} */ (el);
    const face = plainFace(card.dataset.card || '');
    const copy = copies.get(face) || 0;
    copies.set(face, copy + 1);
    found.set(`${face}#${copy}`, card);
  }
  return found;
}

function remember() {
  if (flightsAsked) return;
  if (!motionWanted()) {
    before = new Map();
    return;
  }
  before = new Map([...cardsByKey()].map(([key, el]) => [key, el.getBoundingClientRect()]));
  const stock = document.querySelector('#stock .card');
  stockBefore = stock ? stock.getBoundingClientRect() : null;
  moverBefore = model.state && before.size ? model.state.turn : null;
  dealBefore = model.state ? model.state.deal : undefined;
}

/**
 * Where a card that was nowhere comes from: the panel of the seat that played it, or the stock.
 * @param {HTMLElement} el
 */
function sourceOf(el) {
  const inHand = Boolean(el.closest('#hand'));
  if (!inHand && moverBefore !== null && moverBefore !== model.seat) {
    const panel = document.querySelector(`#players .player[data-seat="${moverBefore}"]`);
    if (panel) return panel.getBoundingClientRect();
  }
  const stock = document.querySelector('#stock .card');
  return stockBefore || (stock ? stock.getBoundingClientRect() : null);
}

/**
 * Flies `el` from `from` to `to`, where it stands now.
 * @param {HTMLElement} el
 * @param {DOMRect} from
 * @param {DOMRect} to
 * @param {number} delay
 */
function fly(el, from, to, delay) {
  if (!to.width || !from.width) return;
  const dx = from.left - to.left;
  const dy = from.top - to.top;
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
  const scale = Math.min(2, Math.max(0.3, from.width / to.width));
  // Only the transform is animated, so the compositor runs it without a frame of layout or
  // paint; the card is lifted above its neighbours (.flying) for the flight alone.
  el.classList.add('flying');
  const flight = el.animate([{ transform: `translate(${dx}px, ${dy}px) scale(${scale})` }, { transform: 'none' }],
    { duration: DURATION_MS, easing: 'cubic-bezier(.2, .7, .3, 1)', delay, fill: 'backwards' });
  const land = () => el.classList.remove('flying');
  flight.addEventListener('finish', land);
  flight.addEventListener('cancel', land);
}

function animate() {
  if (!before.size || !motionWanted()) return;
  const newDeal = model.state ? model.state.deal !== dealBefore : false;
  // Every place is read before any card is set flying: a read after a write would lay the
  // page out again for each card.
  const flights = [];
  let arriving = 0;
  for (const [key, el] of cardsByKey()) {
    const from = newDeal ? null : before.get(key);
    if (from) flights.push({ el, from, to: el.getBoundingClientRect(), delay: 0 });
    else {
      const source = sourceOf(el);
      if (source) flights.push({ el, from: source, to: el.getBoundingClientRect(), delay: newDeal ? arriving * DEAL_STAGGER_MS : 0 });
      arriving += 1;
    }
  }
  for (const { el, from, to, delay } of flights) fly(el, from, to, delay);
  before = new Map();
}

function animateSoon() {
  if (flightsAsked || !before.size) return;
  flightsAsked = true;
  requestAnimationFrame(() => {
    flightsAsked = false;
    animate();
  });
}

/** Cards move whenever the table or the hand's order changes. */
export function startMotion() {
  for (const part of /** @type {const} */ (['table', 'sort'])) {
    beforeRedraw(part, remember);
    afterRedraw(part, animateSoon);
  }
}
