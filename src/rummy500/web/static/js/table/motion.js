// Cards move: before the table is drawn again, where each card stood is remembered (keyed by
// the card and its copy); at the next frame, each card that moved is animated from its old
// place to its new one (FLIP), and a card that was nowhere on the page flies in from the stock
// (a draw, a deal) or from the panel of the seat that played it. None with reduced motion
// asked for. The new places are read in the frame, where the page is laid out anyway (read
// at once, they would cost a second layout of the whole page for every change), and changes
// that come before that frame fly from where the viewer last saw the cards. On a wide screen
// the stock, the pile and the melds scroll in a board of their own, which would clip a card
// coming in from outside it (from a seat, from the hand): such a card flies as a copy above
// the page, and shows where it lands.

import { plainFace } from '../cards.js';
import { model } from './model.js';
import { afterRedraw, beforeChange } from './redraw.js';
import { setting } from '../settings.js';

const DURATION_MS = 260;
const EASING = 'cubic-bezier(.2, .7, .3, 1)';
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
  const keyframes = flightFrames(from, to);
  if (!keyframes) return;
  // Only the transform is animated, so the compositor runs it without a frame of layout or
  // paint; the card is lifted above its neighbours (.flying) for the flight alone.
  el.classList.add('flying');
  const flight = el.animate(keyframes, { duration: DURATION_MS, easing: EASING, delay, fill: 'backwards' });
  const land = () => el.classList.remove('flying');
  flight.addEventListener('finish', land);
  flight.addEventListener('cancel', land);
}

/**
 * The flight from `from` to `to` as a transform's keyframes, or null when there is none.
 * @param {DOMRect} from
 * @param {DOMRect} to
 */
function flightFrames(from, to) {
  if (!to.width || !from.width) return null;
  const dx = from.left - to.left;
  const dy = from.top - to.top;
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return null;
  const scale = Math.min(2, Math.max(0.3, from.width / to.width));
  return [{ transform: `translate(${dx}px, ${dy}px) scale(${scale})` }, { transform: 'none' }];
}

/** The layer above the page where copies of cards fly. */
function flightLayer() {
  let layer = document.getElementById('flights');
  if (!layer) {
    layer = document.createElement('div');
    layer.id = 'flights';
    layer.className = 'flights';
    layer.setAttribute('aria-hidden', 'true');
    document.body.append(layer);
  }
  return layer;
}

/**
 * Flies a copy of `el` above the page from `from` to `to`; the card shows when it lands.
 * @param {HTMLElement} el
 * @param {DOMRect} from
 * @param {DOMRect} to
 * @param {number} delay
 * @param {string} fontSize the card's, which sizes its face
 */
function flyCopy(el, from, to, delay, fontSize) {
  const keyframes = flightFrames(from, to);
  if (!keyframes) return;
  const copy = /** @type {HTMLElement} */ (el.cloneNode(true));
  copy.removeAttribute('aria-label');
  copy.inert = true;
  copy.classList.add('flying');
  Object.assign(copy.style, {
    left: `${to.left}px`, top: `${to.top}px`, width: `${to.width}px`, height: `${to.height}px`, fontSize,
  });
  flightLayer().append(copy);
  // Transparent, not hidden: a focused card keeps the focus.
  el.style.opacity = '0';
  const flight = copy.animate(keyframes, { duration: DURATION_MS, easing: EASING, delay, fill: 'backwards' });
  const land = () => {
    copy.remove();
    el.style.opacity = '';
  };
  flight.addEventListener('finish', land);
  flight.addEventListener('cancel', land);
}

/**
 * What the screen shows of the board, when the board clips what it holds (it scrolls), or null.
 * @returns {DOMRect | null}
 */
function boardClip() {
  const board = document.querySelector('#play > .board');
  if (!board || getComputedStyle(board).overflowY === 'visible') return null;
  return board.getBoundingClientRect();
}

/**
 * @param {DOMRect} rect
 * @param {DOMRect} box
 */
function within(rect, box) {
  return rect.top >= box.top - 1 && rect.bottom <= box.bottom + 1
    && rect.left >= box.left - 1 && rect.right <= box.right + 1;
}

function animate() {
  if (!before.size || !motionWanted()) return;
  const newDeal = model.state ? model.state.deal !== dealBefore : false;
  // Every place is read before any card is set flying: a read after a write would lay the
  // page out again for each card.
  const clip = boardClip();
  /** @type {{ el: HTMLElement, from: DOMRect, to: DOMRect, delay: number, copy: string | null }[]} */
  const flights = [];
  let arriving = 0;
  /**
   * @param {HTMLElement} el
   * @param {DOMRect} from
   * @param {number} delay
   */
  const add = (el, from, delay) => {
    const to = el.getBoundingClientRect();
    const inBoard = clip !== null && el.closest('.board') !== null;
    if (inBoard && !within(to, clip)) return; // it lands where the board does not show it
    const copy = inBoard && !within(from, clip) ? getComputedStyle(el).fontSize : null;
    flights.push({ el, from, to, delay, copy });
  };
  for (const [key, el] of cardsByKey()) {
    const from = newDeal ? null : before.get(key);
    if (from) add(el, from, 0);
    else {
      const source = sourceOf(el);
      if (source) add(el, source, newDeal ? arriving * DEAL_STAGGER_MS : 0);
      arriving += 1;
    }
  }
  for (const { el, from, to, delay, copy } of flights) {
    if (copy) flyCopy(el, from, to, delay, copy);
    else fly(el, from, to, delay);
  }
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
  beforeChange(['table', 'sort'], remember);
  afterRedraw('table', animateSoon);
  afterRedraw('sort', animateSoon);
}
