// Undo against computer players: a button (and the U key, or Ctrl+Z) that asks the server to
// take back this page's last move and the computer players' replies. The server decides
// (never past a draw from the stock or a new deal); the button shows when it is worth asking.

import { $, h } from '../dom.js';
import { undoOffered } from '../talkwords.js';
import { onFrame } from './frames.js';
import { forgetFrom, say } from './log.js';
import { model } from './model.js';
import { message } from './notices.js';
import { sendFrame } from './outbox.js';
import { afterRedraw } from './redraw.js';

/** @typedef {import('../protocol.js').Frame} Frame */

/** The undo this page asked for and has no answer to yet. */
let asked = /** @type {string | null} */ (null);

function button() {
  let undo = /** @type {HTMLButtonElement | null} */ (document.getElementById('undo-button'));
  if (!undo) {
    undo = /** @type {HTMLButtonElement} */ (h('button', {
      type: 'button', id: 'undo-button', class: 'quiet undo', title: 'Take back your last move (U)', hidden: true,
      onclick: askUndo,
    }, '↶ Undo'));
    $('#actions').after(undo);
  }
  return undo;
}

export function askUndo() {
  if (asked || !undoOffered(model.state, model.seat)) return;
  asked = sendFrame({ type: 'undo' });
  render();
}

function render() {
  const undo = button();
  const hidden = !undoOffered(model.state, model.seat);
  if (undo.hidden !== hidden) undo.hidden = hidden;
  if (undo.disabled !== (asked !== null)) undo.disabled = asked !== null;
}

/** @param {Frame} frame */
function onUpdate(frame) {
  const event = /** @type {Record<string, unknown> | undefined} */ (frame.event);
  if (!event || typeof event.undo !== 'number' || !frame.state) return;
  // The log forgets the entries taken back (so the moves made again are logged) and says so.
  forgetFrom(frame.state.deal ?? 0, (frame.state.history || []).length);
  say(String(event.text || 'Moves were taken back.'), 'note');
}

/** @param {Frame} frame */
function onAnswer(frame) {
  if (!asked || frame.id !== asked) return;
  asked = null;
  if (frame.type === 'refused') message(`No undo: ${frame.message || frame.code}.`, 'refusal');
  render();
}

/** @param {KeyboardEvent} event */
function onKey(event) {
  const target = /** @type {HTMLElement | null} */ (event.target);
  if (target && ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) return;
  if (document.querySelector('dialog[open]')) return;
  const undoKey = (event.key === 'u' && !event.ctrlKey && !event.metaKey && !event.altKey)
    || (event.key === 'z' && (event.ctrlKey || event.metaKey) && !event.shiftKey);
  if (!undoKey || !undoOffered(model.state, model.seat)) return;
  event.preventDefault();
  askUndo();
}

/** Offers undo at a table against computer players. */
export function startUndo() {
  onFrame('update', onUpdate);
  onFrame('ack', onAnswer);
  onFrame('refused', onAnswer);
  afterRedraw('table', render);
  afterRedraw('actions', render);
  document.addEventListener('keydown', onKey);
  const keys = document.querySelector('#keys-dialog dl');
  if (keys) keys.append(h('dt', {}, 'U'), h('dd', {}, 'undo your last move (against computer players; also Ctrl+Z)'));
}
