// The keyboard's place at the table, kept through its redraws. A move draws the hand, the pile,
// the melds or the turn's buttons again; a button that stands for the same thing is kept (in
// place, inplace.js) with its focus, but one drawn anew takes the focus with it: the focus then
// goes, once the change is drawn, to the same place in the new drawing (the same meld, the
// card now at that place of the hand, the same button) or, where that place is gone (a
// discarded card, the Draw button after the draw), to the hand; never to the page, where a
// screen reader's user loses their place. A focus the viewer put elsewhere (the talk, a
// dialog, a click on the page) is left alone.

import { takeStop } from './inplace.js';
import { whenDrawn } from './redraw.js';

/** @typedef {{ area: 'hand' | 'pile' | 'melds' | 'actions' | 'table', key: string }} Place */

/** Where the focus was last at the table (null: elsewhere, or taken away by the viewer). */
let place = /** @type {Place | null} */ (null);
/** The last input was a pointer's: the focus then moves without scrolling the page. */
let byPointer = false;

/**
 * The place of `el` at the table, or null outside it.
 * @param {Element | null} el
 * @returns {Place | null}
 */
function placeOf(el) {
  if (!(el instanceof HTMLElement) || !el.closest('#play')) return null;
  if (el.closest('#hand')) return { area: 'hand', key: el.dataset.index || '' };
  if (el.closest('#pile')) return { area: 'pile', key: el.dataset.index || '' };
  if (el.closest('#melds')) return { area: 'melds', key: el.dataset.meld || '' };
  if (el.closest('#actions')) return { area: 'actions', key: el.dataset.action || el.dataset.move || '' };
  return { area: 'table', key: '' };
}

/**
 * The button of a row at `index`, or the row's last when it has fewer.
 * @param {string} row
 * @param {string} index
 */
function atIndex(row, index) {
  const buttons = [...document.querySelectorAll(`${row} button[data-index]`)];
  if (!buttons.length) return null;
  const at = Math.min(Number(index) || 0, buttons.length - 1);
  return /** @type {HTMLElement} */ (buttons[at]);
}

/** @param {Place} where */
function find(where) {
  if (where.area === 'hand') return atIndex('#hand', where.key);
  if (where.area === 'pile') return atIndex('#pile', where.key);
  if (where.area === 'melds') {
    return /** @type {HTMLElement | null} */ (document.querySelector(`#melds button.meld[data-meld="${CSS.escape(where.key)}"]`));
  }
  if (where.area === 'actions' && where.key) {
    const key = CSS.escape(where.key);
    return /** @type {HTMLElement | null} */ (document.querySelector(
      `#actions button[data-action="${key}"]:enabled, #actions button[data-move="${key}"]:enabled`));
  }
  return null;
}

/** The hand's card that takes its turn at the focus, or the hand itself. */
function handTarget() {
  return /** @type {HTMLElement | null} */ (document.querySelector('#hand button.card[tabindex="0"]')
    || document.querySelector('#hand button.card')
    || (document.querySelector('#mine:not([hidden]) #hand')));
}

/**
 * Focuses `el`, the one of its row to take the focus (a row of buttons is one tab stop).
 * @param {HTMLElement} el
 */
function focusOn(el) {
  const row = el.closest('[role="toolbar"]');
  if (row && el.tagName === 'BUTTON') takeStop(row.querySelectorAll('button'), el, true);
  if (document.activeElement !== el) el.focus({ preventScroll: byPointer });
}

/** The focus is nowhere (on the page itself). */
function lost() {
  const active = document.activeElement;
  return !active || active === document.body || active === document.documentElement;
}

/** Puts the focus back at its place at the table when a redraw took it away. */
export function keepFocus() {
  if (!place || !lost() || document.querySelector('dialog[open]')) return;
  const el = find(place) || handTarget();
  if (el) focusOn(el);
}

/** The focus to the table (the hand) when it is nowhere: a dialog over the table has closed. */
export function focusTable() {
  if (!lost()) return;
  const el = (place && find(place)) || handTarget();
  if (el) focusOn(el);
}

export function startFocus() {
  document.addEventListener('focusin', (event) => {
    const el = /** @type {Element} */ (event.target);
    place = placeOf(el);
    // A button of a row focused by a click becomes the row's tab stop now, while the page is
    // laid out: written later, in a redraw, it would make the browser lay the page out again.
    const row = el.tagName === 'BUTTON' ? el.closest('[role="toolbar"]') : null;
    if (row) takeStop(row.querySelectorAll('button'), el, true);
  });
  document.addEventListener('focusout', (event) => {
    const left = /** @type {HTMLElement} */ (event.target);
    if (event.relatedTarget !== null) return;
    // The focus went to the page: by the viewer (a click beside the buttons), or because the
    // focused button was drawn again or hidden, which keeps the place.
    setTimeout(() => {
      if (document.hasFocus() && lost() && left.isConnected && left.getClientRects().length > 0) place = null;
    }, 0);
  });
  document.addEventListener('pointerdown', () => { byPointer = true; }, { capture: true });
  document.addEventListener('keydown', () => { byPointer = false; }, { capture: true });
  whenDrawn(keepFocus);
}
