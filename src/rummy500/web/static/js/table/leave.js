// Leave table: a person leaves for good (a computer player takes the seat for the rest of
// the game, the others read it in the log). A button in the top bar while this page plays a
// game under way, a dialog that says what happens, then the leave frame; once the server
// has it, this page watches (its seat and token are forgotten).

import { $, h, replace } from '../dom.js';
import { forgetSeat } from '../seats.js';
import { tableId } from './address.js';
import { onFrame } from './frames.js';
import { model, sitAs } from './model.js';
import { message } from './notices.js';
import { sendFrame, watchFromNowOn } from './outbox.js';
import { afterRedraw } from './redraw.js';

/** @typedef {import('../protocol.js').Frame} Frame */

/** The leave this page asked for and has no answer to yet. */
let asked = /** @type {string | null} */ (null);

function button() {
  let leave = /** @type {HTMLButtonElement | null} */ (document.getElementById('leave-button'));
  if (!leave) {
    leave = /** @type {HTMLButtonElement} */ (h('button', {
      type: 'button', id: 'leave-button', class: 'quiet', 'aria-haspopup': 'dialog', hidden: true, onclick: openLeave,
    }, 'Leave table'));
    $('#side-button').after(leave);
  }
  return leave;
}

/** Whether this page may leave now: seated, in a game under way, not asked already. */
function canLeave() {
  const s = model.state;
  return Boolean(s && model.seat !== null && s.phase !== 'waiting' && !s.over && asked === null);
}

/** What leaving does, said for this table: who plays on. */
export function leaveWords() {
  const s = model.state;
  const others = s ? s.seats.filter((seat) => seat.seat !== model.seat && seat.kind === 'person' && !seat.left) : [];
  const rest = others.length
    ? 'The others play on against it and read in the log that you left.'
    : 'Nobody else is a person here: with nobody at the table, the game stops where it stands.';
  return `A computer player takes your seat for the rest of the game, and your seat is not yours again. ${rest} You can watch the rest.`;
}

function dialog() {
  let box = /** @type {HTMLDialogElement | null} */ (document.getElementById('leave-dialog'));
  if (!box) {
    box = /** @type {HTMLDialogElement} */ (h('dialog', { id: 'leave-dialog', 'aria-labelledby': 'leave-heading' }));
    document.body.append(box);
  }
  replace(box,
    h('h2', { id: 'leave-heading' }, 'Leave this table for good?'),
    h('p', { id: 'leave-words' }, leaveWords()),
    h('form', { method: 'dialog', class: 'dialog-buttons' },
      h('button', { value: 'stay', autofocus: true }, 'Stay'),
      h('button', { value: 'leave', class: 'primary', id: 'leave-confirm' }, 'Leave table')));
  return box;
}

export function openLeave() {
  if (!canLeave()) return;
  const box = dialog();
  box.onclose = () => { if (box.returnValue === 'leave') askLeave(); };
  box.returnValue = '';
  box.showModal();
}

function askLeave() {
  if (!canLeave()) return;
  asked = sendFrame({ type: 'leave' });
  if (asked === null) message('Not connected: you are still at the table. Try again once connected.', 'refusal');
  render();
}

function render() {
  const leave = button();
  const hidden = !canLeave() && asked === null;
  if (leave.hidden !== hidden) leave.hidden = hidden;
  if (leave.disabled !== (asked !== null)) leave.disabled = asked !== null;
}

/** @param {Frame} frame */
function onAnswer(frame) {
  if (!asked || frame.id !== asked) return;
  asked = null;
  if (frame.type === 'refused') {
    message(`You are still at the table: ${frame.message || frame.code}.`, 'refusal');
  } else {
    // The seat is the computer's now: this page watches (the server's welcome follows).
    forgetSeat(tableId);
    watchFromNowOn();
    sitAs(null, null);
    message('You left the table: a computer player plays your seat. You are watching.', 'info');
  }
  render();
}

/** Listens for this page's leave and shows the button when it may leave. */
export function startLeave() {
  onFrame('ack', onAnswer);
  onFrame('refused', onAnswer);
  for (const part of /** @type {const} */ (['table', 'actions', 'players'])) afterRedraw(part, render);
}
