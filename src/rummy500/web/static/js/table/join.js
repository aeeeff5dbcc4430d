// Before the game: the seats to take (join), and the invitation while people arrive
// (waiting), polled until the game starts.

import { ApiError, getJSON, postJSON } from '../api.js';
import { seatBadge } from '../board.js';
import { $, h, replace } from '../dom.js';
import { keepName, keepSeat, lastName } from '../seats.js';
import { apiPath, replayPath, tableId, tablePath } from './address.js';
import { model, namesFromSummary, seatLabel, setSummary } from './model.js';
import { show } from './notices.js';
import { reconnectNow } from './outbox.js';

/** @typedef {import('../protocol.js').SeatEntry} SeatEntry */
/** @typedef {(token: string, seat: number) => void} Seated */

const POLL_MS = 2000;

/** @type {ReturnType<typeof setInterval> | undefined} */
let poll;

/**
 * @param {SeatEntry} entry
 */
function isOpen(entry) {
  return entry.open;
}

/**
 * An open seat of a Play again table kept for the person who held it at the last game
 * (protocol.md: `"kept": true`): nobody else may take it.
 * @param {SeatEntry & { kept?: boolean }} entry
 */
function isKept(entry) {
  return isOpen(entry) && Boolean(entry.kept);
}

/**
 * The seats as a list; with `seated`, each open seat has a name box and a button to take it.
 * @param {HTMLElement} list
 * @param {SeatEntry[]} seats
 * @param {Seated | null} seated
 */
function seatRows(list, seats, seated) {
  list.replaceChildren();
  seats.forEach((entry, seat) => {
    const kind = entry.kind === 'bot' ? `computer${entry.bot ? ` (${entry.bot})` : ''}` : 'person';
    const open = isOpen(entry);
    const kept = isKept(entry);
    const item = h('li', { class: 'seat-row' },
      seatBadge(seat, model.marks, model.names),
      h('span', { class: 'seat-name' }, kept ? `Seat ${seat + 1}: kept for ${entry.name || 'its player'}`
        : open ? `Seat ${seat + 1}: open` : `${entry.name || seatLabel(seat, entry)}`),
      h('span', { class: 'muted' }, kept ? ' (from the last game at this table)'
        : open ? '' : ` ${kind}${seat === model.seat ? ' (you)' : ''}${entry.connected ? ', here' : ''}`));
    if (open && !kept && seated) {
      const input = /** @type {HTMLInputElement} */ (h('input', { id: `name-${seat}`, maxlength: '40', value: lastName(), 'aria-label': `Your name for seat ${seat + 1}`, placeholder: 'Your name' }));
      const button = /** @type {HTMLButtonElement} */ (h('button', { type: 'button', class: 'primary' }, `Take seat ${seat + 1}`));
      button.addEventListener('click', () => takeSeat(seat, input.value.trim(), button, seated));
      input.addEventListener('keydown', (event) => { if (event.key === 'Enter') button.click(); });
      item.append(h('span', { class: 'seat-take' }, input, button));
    }
    list.append(item);
  });
}

/**
 * The join panel: take an open seat (then `seated` connects), or watch.
 * @param {Seated} seated
 */
export function showJoin(seated) {
  show('join');
  const summary = model.summary;
  if (!summary) return;
  $('#join-rules').textContent = `${model.info.description || ''}`;
  const heading = $('#join-heading');
  if (summary.status === 'over') {
    heading.textContent = 'This game is over';
    replace($('#join-rules'), 'See how it went: ',
      h('a', { href: replayPath() }, 'replay the game'), '.',
      summary.next ? [' A new game is ready: ', h('a', { href: tablePath(summary.next), dataset: { action: 'watch-next' } }, 'Watch the next game'), '.'] : null);
  }
  seatRows($('#join-seats'), summary.seats, summary.status !== 'over' ? seated : null);
  if (!summary.seats.some((entry) => isOpen(entry) && !isKept(entry)) && summary.status !== 'over') {
    $('#join-rules').textContent = summary.seats.some(isKept)
      ? 'Every open seat is kept for a player of the last game; you can watch the game.'
      : 'Every seat is taken; you can watch the game.';
  }
  const first = $('#join-seats input');
  if (first) first.focus();
}

/**
 * @param {number} seat
 * @param {string} name
 * @param {HTMLButtonElement} button
 * @param {Seated} seated
 */
async function takeSeat(seat, name, button, seated) {
  if (!name) {
    $('#join-error').textContent = 'Say your name first: the other players see it.';
    $(`#name-${seat}`).focus();
    return;
  }
  button.disabled = true;
  try {
    const answer = await postJSON(apiPath('seats', String(seat)), { name });
    keepName(name);
    keepSeat(tableId, answer.seat, answer.token, name);
    seated(answer.token, answer.seat);
  } catch (error) {
    button.disabled = false;
    $('#join-error').textContent = error instanceof ApiError && error.status === 409
      ? 'Someone has just taken that seat. Choose another, or watch.' : String(/** @type {Error} */ (error).message);
    try {
      setSummary(await getJSON(apiPath()));
      if (model.summary) seatRows($('#join-seats'), model.summary.seats, seated);
    } catch { /* the message above says enough */ }
  }
}

/** The waiting panel, polling the summary until the game starts. */
export function showWaiting() {
  show('waiting');
  if (model.summary) seatRows($('#waiting-seats'), model.summary.seats, null);
  clearInterval(poll);
  poll = setInterval(refreshSummary, POLL_MS);
}

/** The game is on: no more polling. */
export function stopWaiting() {
  clearInterval(poll);
  poll = undefined;
}

/** The seats changed while the waiting panel shows. */
export function redrawWaiting() {
  if (!$('#waiting').hidden && model.summary) seatRows($('#waiting-seats'), model.summary.seats, null);
}

async function refreshSummary() {
  try {
    setSummary(await getJSON(apiPath()));
  } catch {
    return;
  }
  const summary = /** @type {import('../protocol.js').TableSummary} */ (model.summary);
  if (!model.state) namesFromSummary();
  if (summary.status === 'waiting') {
    seatRows($('#waiting-seats'), summary.seats, null);
  } else {
    stopWaiting();
    if (!model.state) reconnectNow();
  }
}
