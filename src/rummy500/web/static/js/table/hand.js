// The viewer's hand: cards to select (Space or Enter, or a click), sorted by suit or rank,
// and the list of legal moves offered to the typed-move box.

import { renderHand } from '../board.js';
import { $, h, plural, replace } from '../dom.js';
import { renderActions } from './actions.js';
import { model, sortedHand, toggleSelected, toggleSort } from './model.js';

export const SORT_KEY = 'rummy500.sort';
const LEGAL_LIST_MAX = 400;

export function renderMine() {
  const s = model.state;
  const mine = $('#mine');
  mine.hidden = model.seat === null;
  if (model.seat === null || !s) return;
  const sortButton = $('#sort-button');
  sortButton.textContent = model.sort === 'suit' ? 'Sort by rank' : 'Sort by suit';
  sortButton.setAttribute('aria-label', `Sorted by ${model.sort}; sort by ${model.sort === 'suit' ? 'rank' : 'suit'}`);
  $('#hand-heading').textContent = `Your hand (${plural((s.hand || []).length, 'card')})`;
  renderHand($('#hand'), sortedHand(s), {
    toggle: toggleCard,
    selected: new Set(model.selected),
    mustUse: s.must_use,
    label: 'Your hand: Space or Enter selects a card',
  });
  replace($('#legal-list'), (s.legal || []).slice(0, LEGAL_LIST_MAX).map((move) => h('option', { value: move })));
  renderActions();
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
      for (const b of $('#hand').querySelectorAll('button')) b.tabIndex = -1;
      again.tabIndex = 0;
      again.focus();
    }
  }
}

/** Sorts the hand the other way, remembered for every table. */
export function switchSort() {
  toggleSort();
  localStorage.setItem(SORT_KEY, model.sort);
}
