// The table's connection and what each of its frames does to the page: a welcome or an
// update brings a new state (and a line in the log), seats and next say who sits where and
// that the next game is made, acks and refusals answer this page's moves.

import { Connection } from '../connection.js';
import { $ } from '../dom.js';
import { forgetSeat } from '../seats.js';
import { tableId } from './address.js';
import { forgetHintBefore } from './hint.js';
import { redrawWaiting, showJoin, showWaiting, stopWaiting } from './join.js';
import { logUpdate, logWelcome } from './log.js';
import {
  applyState, forgetState, hasDeal, model, setNext, setSeats, sitAs,
} from './model.js';
import { message, show } from './notices.js';
import { forgetPending, settle, stopConnection, useConnection } from './outbox.js';
import { redraw } from './redraw.js';
import { sheetsCheck } from './sheet.js';

/** @typedef {import('../protocol.js').Frame} Frame */
/** @typedef {import('../protocol.js').TableState} TableState */

/** @type {Record<string, string>} */
const REFUSALS = {
  not_your_turn: 'it is not your turn',
  stale: 'the table changed before your move arrived; look again and choose',
};

/** @type {Record<string, Array<(frame: Frame) => void>>} */
const listeners = {};

/**
 * Also runs `listen` for each frame of `type`, after the page's own handling (the talk and
 * pacing modules listen so).
 * @param {string} type
 * @param {(frame: Frame) => void} listen
 */
export function onFrame(type, listen) {
  (listeners[type] ||= []).push(listen);
}

/**
 * @param {Record<string, (...args: any[]) => void>} handlers
 * @returns {Record<string, (...args: any[]) => void>}
 */
function withListeners(handlers) {
  const all = { ...handlers };
  for (const [type, listening] of Object.entries(listeners)) {
    const own = handlers[type];
    all[type] = (/** @type {Frame} */ frame) => {
      if (own) own(frame);
      for (const listen of listening) listen(frame);
    };
  }
  return all;
}

/**
 * Joins the table at `seat` with `token`, or watches it (both null). The connection opens at
 * once; its frames are handled when `known` has come (the table's summary and rules, which
 * drawing a state needs), in the order they came, and never if it fails.
 * @param {string | null} token
 * @param {number | null} seat
 * @param {Promise<unknown>} [known]
 */
export function connect(token, seat, known = Promise.resolve()) {
  sitAs(seat, token);
  useConnection(new Connection(tableId, token, afterKnown(known, withListeners({
    welcome: onWelcome,
    update: onUpdate,
    ack: onAck,
    refused: onRefused,
    error: onError,
    seats: onSeats,
    next: onNext,
    pong: () => {},
    status: onNet,
    rejected: () => {
      forgetSeat(tableId);
      stopConnection();
      sitAs(null, null);
      showJoin(connect);
      $('#join-error').textContent = 'This browser’s seat at the table is no longer valid. Take a seat again, or watch.';
    },
  }))));
  known.then(() => {
    const status = model.summary ? model.summary.status : '';
    if (status !== 'playing' && status !== 'over') showWaiting();
  }, () => {});
}

/**
 * `handlers`, each run once `known` has come (in the order they are called: callbacks on one
 * promise run in the order they were added).
 * @param {Promise<unknown>} known
 * @param {Record<string, (...args: any[]) => void>} handlers
 * @returns {Record<string, (...args: any[]) => void>}
 */
function afterKnown(known, handlers) {
  return Object.fromEntries(Object.entries(handlers).map(([type, handle]) => [
    type, (/** @type {any[]} */ ...args) => { known.then(() => handle(...args), () => {}); }]));
}

/**
 * @param {string} kind "connecting", "open", "reconnecting" or "lost"
 * @param {any} detail
 */
function onNet(kind, detail) {
  const net = $('#net');
  net.className = `net ${kind}`;
  if (kind === 'open') {
    net.textContent = detail ? 'Connected again' : 'Connected';
    if (detail) setTimeout(() => { if (net.textContent === 'Connected again') net.textContent = 'Connected'; }, 3000);
  } else if (kind === 'connecting') {
    net.textContent = 'Connecting…';
  } else if (kind === 'reconnecting') {
    net.textContent = 'Reconnecting…';
  } else if (kind === 'lost') {
    net.textContent = `Connection lost (${detail.why}); reconnecting…`;
    document.body.classList.add('offline');
    forgetPending();
  }
  if (kind === 'open') document.body.classList.remove('offline');
  if (model.state) redraw('actions');
}

/**
 * A new state to show.
 * @param {TableState} state
 * @param {number} seq
 */
function showState(state, seq) {
  stopWaiting();
  show('game');
  applyState(state, seq);
  // Where the table stands, for anyone inspecting the page (and the browser tests). Written
  // after the table is drawn: motion reads where the cards stood before anything is written.
  Object.assign(document.body.dataset, { seq: String(seq), phase: state.phase, turn: String(state.turn) });
}

/** @param {Frame} frame */
function onWelcome(frame) {
  if (frame.seat !== undefined && frame.seat !== null) sitAs(frame.seat, model.token);
  const first = model.state === null;
  forgetPending();
  if (!frame.state || !hasDeal(frame.state)) {
    forgetState();
    showWaiting();
    return;
  }
  const seq = frame.seq ?? -1;
  showState(frame.state, seq);
  logWelcome(frame.state, seq, first);
  sheetsCheck(first);
}

/** @param {Frame} frame */
function onUpdate(frame) {
  const prev = model.state;
  if (!frame.state || !hasDeal(frame.state)) return;
  const seq = frame.seq ?? -1;
  showState(frame.state, seq);
  logUpdate(frame.event, seq, prev, frame.state);
  forgetHintBefore(seq);
  sheetsCheck(false);
}

/** Who sits where and who is connected changed (a seat taken, someone came or went).
 * @param {Frame} frame */
function onSeats(frame) {
  if (!Array.isArray(frame.seats)) return;
  setSeats(frame.seats);
  if (!model.state) redrawWaiting();
}

/** The next game at this table is made ("Play again", by this page or another person's).
 * @param {Frame} frame */
function onNext(frame) {
  if (typeof frame.table !== 'string' || !frame.table) return;
  setNext(frame.table);
}

/** @param {Frame} frame */
function onAck(frame) {
  settle(frame.id);
  redraw('actions');
}

/** @param {Frame} frame */
function onRefused(frame) {
  // Chat, reactions and undo (ids not a move's) answer their own refusals.
  if (frame.id && !frame.id.startsWith('m')) return;
  const what = settle(frame.id) ?? 'your move';
  const code = frame.code || '';
  const why = REFUSALS[code] && !frame.message ? REFUSALS[code] : frame.message || REFUSALS[code] || code;
  message(`Not played: ${what} (${why}).`, 'refusal');
  redraw('actions');
}

/** @param {Frame} frame */
function onError(frame) {
  message(frame.code === 'rate_limited' ? 'Slow down: too many messages at once.' : frame.message || frame.code || '', 'refusal');
}
