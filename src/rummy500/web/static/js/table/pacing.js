// Pacing at the table: after a deal, a Continue button and who the computer players wait
// for (closing the deal's sheet continues too); with a turn clock, the seconds left on the
// seat whose turn it is. Both come with every state (waiting_for, pause_left, clock) and
// with the waiting frames sent between changes.

import { $, h, replace } from '../dom.js';
import { clockText, waitingWords } from '../talkwords.js';
import { onFrame } from './frames.js';
import { model } from './model.js';
import { sendFrame } from './outbox.js';
import { afterRedraw } from './redraw.js';

/** @typedef {import('../protocol.js').Frame} Frame */
/** @typedef {import('../protocol.js').TableState} TableState */

/** @type {number[]} */
let waiting = [];
/** When the pause ends and when the clock runs out (page time, ms), or null. */
let pauseEnds = /** @type {number | null} */ (null);
let clockEnds = /** @type {number | null} */ (null);
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
 * @param {{ waiting_for?: number[], pause_left?: number | null, clock?: number | null }} said
 * @param {TableState | null} state
 */
function take(said, state) {
  const now = Date.now();
  waiting = Array.isArray(said.waiting_for) ? said.waiting_for : [];
  pauseEnds = typeof said.pause_left === 'number' ? now + said.pause_left * 1000 : null;
  clockEnds = typeof said.clock === 'number' ? now + said.clock * 1000 : null;
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

/** The seconds left, on the seat whose turn it is. */
function renderClock() {
  const s = model.state;
  for (const old of document.querySelectorAll('.seat-clock')) {
    if (clockEnds === null || !s || old.closest(`[data-seat="${s.turn}"]`) === null) old.remove();
  }
  if (clockEnds === null || !s) return;
  const seatBox = document.querySelector(`#players .player[data-seat="${s.turn}"] .player-head`);
  if (!seatBox) return;
  let clock = seatBox.querySelector('.seat-clock');
  if (!clock) {
    clock = h('span', { class: 'seat-clock', title: 'time left for this turn' });
    seatBox.append(clock);
  }
  const left = (clockEnds - Date.now()) / 1000;
  clock.textContent = `⏱ ${clockText(left)}`;
  clock.classList.toggle('short', left <= 10);
}

/** Listens to the pacing of the table. */
export function startPacing() {
  for (const type of ['welcome', 'update']) {
    onFrame(type, (/** @type {Frame} */ frame) => { if (frame.state) take(frame.state, frame.state); });
  }
  onFrame('waiting', (/** @type {Frame} */ frame) => take(frame, model.state));
  afterRedraw('players', renderClock);
  afterRedraw('table', renderClock);
  // Closing a deal's sheet ("Next deal") says the sheet was read.
  const sheet = document.getElementById('sheet');
  if (sheet) sheet.addEventListener('close', () => { if (model.state && !model.state.over) sayContinue(); });
}
