// The viewer's hand: cards to select (Space or Enter, or a click), sorted by suit or rank,
// and the list of legal moves offered to the typed-move box.

import { renderHand } from '../board.js';
import { $, h, plural, replace } from '../dom.js';
import { drawInPlace, setAttr, setText } from './inplace.js';
import { renderActions } from './actions.js';
import { meldableFaces } from '../meldable.js';
import { plainFace } from '../cards.js';
import { model, myTurn, sortedHand, toggleSelected, toggleSort } from './model.js';
import { forgetOrder } from './reorder.js';
import { freshMarks } from './recent.js';

export const SORT_KEY = 'rummy500.sort';
const LEGAL_LIST_MAX = 400;

export function renderMine() {
  const s = model.state;
  const mine = $('#mine');
  mine.hidden = model.seat === null;
  skipLink();
  if (model.seat === null || !s) return;
  const sortButton = $('#sort-button');
  const next = model.order ? model.sort : model.sort === 'suit' ? 'rank' : 'suit';
  setText(sortButton, `Sort by ${next}`);
  setAttr(sortButton, 'aria-label', `${model.order ? 'In your own order' : `Sorted by ${model.sort}`}; sort by ${next}`);
  setText($('#hand-heading'), `Your hand (${plural((s.hand || []).length, 'card')})`);
  // The cards' buttons stay (a selection changes their state alone): the focused card keeps
  // the focus. Each card's listener selects its index, which a kept button keeps.
  drawInPlace($('#hand'), (hand) => {
    renderHand(hand, sortedHand(s), {
      toggle: toggleCard,
      selected: new Set(model.selected),
      mustUse: s.must_use,
      label: 'Your hand: Space or Enter selects a card',
    });
    markCards(hand, freshMarks(), 'fresh', ', just drawn');
    if (myTurn() && s.phase === 'play') markMeldable(hand);
  });
  renderLegalList(s.legal || []);
  renderActions();
}

/** @type {readonly string[] | null} */
let listed = null;

/**
 * The moves offered to the typed-move box (drawn again only when they changed).
 * @param {readonly string[]} legal
 */
function renderLegalList(legal) {
  if (listed && listed.length === legal.length && listed.every((move, i) => move === legal[i])) return;
  listed = legal;
  replace($('#legal-list'), legal.slice(0, LEGAL_LIST_MAX).map((move) => h('option', { value: move })));
}

/** The page's first link skips to the viewer's hand, or for a spectator to the table. */
function skipLink() {
  const skip = /** @type {HTMLAnchorElement} */ ($('#skip'));
  const seated = model.seat !== null;
  setAttr(skip, 'href', seated ? '#hand' : '#play');
  setText(skip, seated ? 'Skip to your hand' : 'Skip to the table');
}

/**
 * Marks the hand's buttons of `cards` (each copy once) with `className`, and says so in their
 * labels.
 * @param {HTMLElement} hand
 * @param {readonly string[]} cards
 * @param {string} className
 * @param {string} words
 */
function markCards(hand, cards, className, words) {
  const buttons = /** @type {HTMLElement[]} */ ([...hand.querySelectorAll('button.card')]);
  for (const card of cards) {
    const button = buttons.find((b) => b.dataset.card === card && !b.classList.contains(className));
    if (!button) continue;
    button.classList.add(className);
    button.setAttribute('aria-label', `${button.getAttribute('aria-label') || card}${words}`);
  }
}

/**
 * Marks the cards of the hand that some legal meld holds.
 * @param {HTMLElement} hand
 */
function markMeldable(hand) {
  const faces = meldableFaces(model.legal);
  if (!faces.size) return;
  for (const el of hand.querySelectorAll('button.card')) {
    const button = /** @type {HTMLElement} */ (el);
    if (!faces.has(plainFace(button.dataset.card || ''))) continue;
    button.classList.add('can-meld');
    button.setAttribute('aria-label', `${button.getAttribute('aria-label') || ''}, can make a meld now`);
  }
}

/**
 * Selects or unselects the card at `index`; the focus stays on the card.
 * @param {number} index
 */
function toggleCard(index) {
  const active = /** @type {HTMLElement | null} */ (document.activeElement);
  const focused = active && active.dataset ? active.dataset.index : null;
  toggleSelected(index);
  if (focused !== null && focused !== undefined) {
    const again = /** @type {HTMLElement | null} */ (document.querySelector(`#hand button[data-index="${focused}"]`));
    if (again) {
      for (const b of $('#hand').querySelectorAll('button')) setAttr(b, 'tabindex', b === again ? '0' : '-1');
      // The button kept (drawn in place) still has the focus: focusing it again costs a layout.
      if (document.activeElement !== again) again.focus();
    }
  }
}

/** Sorts the hand the other way, remembered for every table. */
export function switchSort() {
  forgetOrder();
  toggleSort();
  localStorage.setItem(SORT_KEY, model.sort);
}
