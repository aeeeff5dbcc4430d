// What the page says outside the table itself: which panel shows (loading, join, waiting,
// game), a fatal error, and the message box under the melds.

import { $, h, replace } from '../dom.js';

/** @param {'loading' | 'join' | 'waiting' | 'game'} part */
export function show(part) {
  for (const id of ['loading', 'join', 'waiting', 'game']) {
    const el = $(`#${id}`);
    if (el.hidden !== (id !== part)) el.hidden = id !== part;
  }
}

/** @param {string} text */
export function fatal(text) {
  const loading = $('#loading');
  loading.hidden = false;
  loading.textContent = text;
  loading.classList.add('error');
}

/**
 * @param {string} text
 * @param {string} [kind] "info", "refusal" or "hint"
 */
export function message(text, kind = 'info') {
  replace($('#message'), h('p', { class: kind }, text));
}

export function clearMessage() {
  $('#message').replaceChildren();
  $('#chooser').hidden = true;
}
