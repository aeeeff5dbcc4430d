// Pacing at the table: after a deal, a Continue button and who the computer players wait
// for (closing the deal's sheet continues too); with a turn clock, the seconds left on the
// seat whose turn it is, then its time bank (each person's bank on their seat), and a notice
// when time ran out; how many people watch. All come with every state (waiting_for,
// pause_left, clock, bank, watchers) and with the waiting and watchers frames between changes.

import { $, h, replace } from '../dom.js';
import { setAttr, setText } from './inplace.js';
import { clockText, waitingWords } from '../talkwords.js';
import { onFrame } from './frames.js';
import { clockIcon } from './icons.js';
import { startLeave } from './leave.js';
import { model } from './model.js';
import { message } from './notices.js';
import { sendFrame } from './outbox.js';
import { afterRedraw } from './redraw.js';

/** @typedef {import('../protocol.js').Frame} Frame */
/** @typedef {import('../protocol.js').TableState} TableState */

/** @type {number[]} */
let waiting = [];
/** When the pause ends and when the clock runs out (page time, ms), or null. */
let pauseEnds = /** @type {number | null} */ (null);
let clockEnds = /** @type {number | null} */ (null);
/** Each seat's time bank (seconds) as of `bankAt` (page time, ms), or null: no bank. */
let bank = /** @type {number[] | null} */ (null);
let bankAt = 0;
let watchers = 0;
/** Whether this page said "your time ran out" for the turn in play. */
let ranOut = false;
/** The deal whose sheet the pause is about, and whether this page said continue to it. */
let pauseDeal = 0;
let continued = 0;
/** @type {ReturnType<typeof setInterval> | undefined} */
let ticker;

function bar() {
  let box = document.getElementById('pacing');
  if (!box) {
    box = h('div', { id: 'pacing', class: 'pacing', role: 'status', 'aria-live': 'polite', hidden: true });
    $('#status').after(box);
  }
  return box;
}

/**
 * What a state or a waiting frame says of the pacing.
 * @param {{ waiting_for?: number[], pause_left?: number | null, clock?: number | null, bank?: number[] | null, watchers?: number }} said
 * @param {TableState | null} state
 */
function take(said, state) {
  const now = Date.now();
  waiting = Array.isArray(said.waiting_for) ? said.waiting_for : [];
  pauseEnds = typeof said.pause_left === 'number' ? now + said.pause_left * 1000 : null;
  clockEnds = typeof said.clock === 'number' ? now + said.clock * 1000 : null;
  if (said.bank !== undefined) {
    bank = Array.isArray(said.bank) ? said.bank : null;
    bankAt = now;
  }
  if (typeof said.watchers === 'number') takeWatchers(said.watchers);
  const deals = state && state.deals ? state.deals.length : 0;
  if (waiting.length) pauseDeal = deals;
  render();
}

/** Says continue for the deal whose sheet was read, once. */
export function sayContinue() {
  if (!pauseDeal || continued === pauseDeal || model.seat === null || !waiting.includes(model.seat)) return;
  if (sendFrame({ type: 'continue', deal: pauseDeal })) {
    continued = pauseDeal;
    render();
  }
}

function render() {
  const box = bar();
  const left = pauseEnds === null ? null : Math.max(0, (pauseEnds - Date.now()) / 1000);
  if (!waiting.length) {
    box.hidden = true;
  } else {
    box.hidden = false;
    const mine = model.seat !== null && waiting.includes(model.seat) && continued !== pauseDeal;
    replace(box, h('span', { class: 'pacing-words' }, waitingWords(waiting, model.names, model.seat, left)),
      mine ? h('button', { type: 'button', id: 'continue-button', class: 'primary', onclick: sayContinue }, 'Continue') : null);
  }
  renderClock();
  const running = (pauseEnds !== null && waiting.length > 0) || clockEnds !== null;
  if (running && ticker === undefined) ticker = setInterval(tick, 250);
  if (!running && ticker !== undefined) {
    clearInterval(ticker);
    ticker = undefined;
  }
}

function tick() {
  const words = document.querySelector('#pacing .pacing-words');
  if (words && pauseEnds !== null) {
    words.textContent = waitingWords(waiting, model.names, model.seat, Math.max(0, (pauseEnds - Date.now()) / 1000));
  }
  renderClock();
}

/**
 * Seconds of `seat`'s bank left now: the seat to move's runs once its clock has run out.
 * @param {number} seat
 */
function bankLeft(seat) {
  if (!bank || typeof bank[seat] !== 'number') return 0;
  const s = model.state;
  if (!s || s.turn !== seat || clockEnds === null) return bank[seat];
  const now = Date.now();
  return Math.max(0, bank[seat] - Math.max(0, now - Math.max(clockEnds, bankAt)) / 1000);
}

/** The seconds left, on the seat whose turn it is (its bank's once its clock ran out), and
 * each person's bank on their seat. */
function renderClock() {
  const s = model.state;
  for (const old of document.querySelectorAll('.seat-clock')) {
    if (clockEnds === null || !s || old.closest(`[data-seat="${s.turn}"]`) === null) old.remove();
  }
  renderBanks();
  if (clockEnds === null || !s) return;
  const seatBox = document.querySelector(`#players .player[data-seat="${s.turn}"] .player-head`);
  if (!seatBox) return;
  let clock = seatBox.parentElement?.querySelector('.seat-clock');
  if (!clock) {
    // Beside the name, not in its line: a narrow seat wraps the clock, never the name.
    // Marked extra: the seat's panel drawn again in place leaves it (inplace.js).
    clock = h('span', { class: 'seat-clock', title: 'time left for this turn', dataset: { extra: '' } }, clockIcon(), '');
    seatBox.after(clock);
  }
  const left = (clockEnds - Date.now()) / 1000;
  const words = /** @type {Text} */ (clock.lastChild);
  const text = ` ${clockText(left)}`;
  if (words.data !== text) words.data = text;
  clock.classList.toggle('short', left <= 10);
}

/** Each person's time bank on their seat (a table with a bank); the seat to move's runs,
 * marked, once its clock has run out. */
function renderBanks() {
  const s = model.state;
  for (const old of document.querySelectorAll('.seat-bank')) {
    if (!bank || !s) old.remove();
  }
  if (!bank || !s) return;
  const running = clockEnds !== null && Date.now() >= clockEnds ? s.turn : null;
  for (const entry of s.seats) {
    const facts = document.querySelector(`#players .player[data-seat="${entry.seat}"] .player-facts`);
    if (!facts) continue;
    let tag = /** @type {HTMLElement | null} */ (facts.querySelector('.seat-bank'));
    if (entry.kind !== 'person') {
      if (tag) tag.remove();
      continue;
    }
    if (!tag) {
      tag = h('span', { class: 'seat-bank', title: 'time bank: spent when a turn clock runs out', dataset: { extra: '' } });
      facts.append(tag);
    }
    const left = bankLeft(entry.seat);
    tag.classList.toggle('running', entry.seat === running && left > 0);
    setAttr(tag, 'title', entry.seat === running && left > 0
      ? 'the turn clock ran out: the time bank runs' : 'time bank: spent when a turn clock runs out');
    setText(tag, `bank ${clockText(left)}`);
  }
}

/** @param {number} count */
function takeWatchers(count) {
  watchers = count;
  let line = document.getElementById('watchers');
  if (!line) {
    line = h('p', { id: 'watchers', class: 'watchers muted', hidden: true });
    $('#status').after(line);
  }
  line.hidden = watchers <= 0;
  line.textContent = watchers === 1 ? '1 person is watching.' : `${watchers} people are watching.`;
}

/**
 * Says once a turn when the stand-in played this page's turn (its clock and bank ran out).
 * @param {Frame} frame
 */
function noticeTimeOut(frame) {
  const event = /** @type {{ seat?: number, text?: string } | undefined} */ (frame.event);
  if (!event || typeof event.seat !== 'number') return;
  if (event.seat !== model.seat) {
    ranOut = false;
    return;
  }
  if (!ranOut && typeof event.text === 'string' && event.text.startsWith('Your stand-in')) {
    ranOut = true;
    message('Your time ran out: the stand-in played your turn.', 'info');
  }
}

/** Listens to the pacing of the table. */
export function startPacing() {
  for (const type of ['welcome', 'update']) {
    onFrame(type, (/** @type {Frame} */ frame) => { if (frame.state) take(frame.state, frame.state); });
  }
  onFrame('waiting', (/** @type {Frame} */ frame) => take(frame, model.state));
  onFrame('watchers', (/** @type {Frame} */ frame) => {
    if (typeof frame.watchers === 'number') takeWatchers(frame.watchers);
  });
  onFrame('update', noticeTimeOut);
  startLeave();
  afterRedraw('players', renderClock);
  afterRedraw('table', renderClock);
  // Closing a deal's sheet ("Next deal") says the sheet was read.
  const sheet = document.getElementById('sheet');
  if (sheet) sheet.addEventListener('close', () => { if (model.state && !model.state.over) sayContinue(); });
}
