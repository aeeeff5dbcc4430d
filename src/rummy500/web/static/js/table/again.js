// The next game ("Play again"): once the game is over, a seated person starts the next game
// or joins the one another person started; a spectator may watch it.

import { postJSON } from '../api.js';
import { $, h, replace } from '../dom.js';
import { keepSeat, lastName, seatAt } from '../seats.js';
import { apiPath, tablePath } from './address.js';
import { say } from './log.js';
import { model } from './model.js';
import { message } from './notices.js';

let told = false;

/** What the page and the game-over dialog offer, or null before the game is over. */
export function againParts() {
  const s = model.state;
  if (!s || !s.over) return null;
  const next = model.next;
  const seated = model.seat !== null && model.token;
  if (next && seatAt(next)) {
    return h('p', { class: 'again ready' }, 'A new game is ready: ',
      h('a', { href: tablePath(next), class: 'button-link primary' }, 'Go to it'));
  }
  if (seated) {
    const button = /** @type {HTMLButtonElement} */ (h('button', { type: 'button', class: 'primary', dataset: { action: 'again' } },
      next ? 'Join' : 'Play again'));
    button.addEventListener('click', () => playAgain(button));
    return next
      ? h('p', { class: 'again ready' }, 'A new game is ready: ', button)
      : h('p', { class: 'again' }, button, h('span', { class: 'muted' }, ' the same players, a new deal of the cards.'));
  }
  if (next) {
    return h('p', { class: 'again ready' }, 'A new game is ready: ',
      h('a', { href: tablePath(next), class: 'button-link', dataset: { action: 'watch-next' } }, 'Watch the next game'));
  }
  return null;
}

export function renderAgain() {
  const notice = $('#again');
  const parts = againParts();
  if (notice.hidden !== !parts) notice.hidden = !parts;
  if (parts || notice.hasChildNodes()) replace(notice, parts);
  const inSheet = $('#sheet-again');
  if (inSheet && /** @type {HTMLDialogElement} */ ($('#sheet')).open) {
    const focused = inSheet.contains(document.activeElement);
    replace(inSheet, againParts());
    if (focused) {
      const target = /** @type {HTMLElement | null} */ (inSheet.querySelector('button, a'));
      if (target) target.focus();
    }
  }
  if (model.next && !told && model.state && model.state.over) {
    told = true;
    say('A new game is ready at this table.', 'deal');
  }
}

/** @param {HTMLButtonElement} button */
async function playAgain(button) {
  button.disabled = true;
  try {
    const answer = await postJSON(apiPath('again'), { token: model.token });
    const seats = model.state && model.state.seats;
    const entry = seats && model.seat !== null ? seats[model.seat] : undefined;
    keepSeat(answer.table, answer.seat, answer.token, (entry && entry.name) || lastName());
    location.assign(answer.url || tablePath(answer.table));
  } catch (error) {
    button.disabled = false;
    const failure = /** @type {import('../api.js').ApiError} */ (error);
    const words = failure.code === 'seat_taken'
      ? 'Your seat at the new game is taken already (from another browser?).' : `No new game: ${failure.message}`;
    message(words, 'refusal');
    const inSheet = $('#sheet-again');
    if (inSheet && /** @type {HTMLDialogElement} */ ($('#sheet')).open) inSheet.append(h('p', { class: 'error', role: 'alert' }, words));
  }
}
