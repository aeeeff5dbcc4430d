// A hint on the viewer's turn: what the expert computer player would do, and why, with a
// button to play it. A hint is forgotten when the table moves on.

import { postJSON } from '../api.js';
import { $, h, replace } from '../dom.js';
import { capital, describe } from '../words.js';
import { apiPath } from './address.js';
import { model, myTurn } from './model.js';
import { message } from './notices.js';
import { send } from './outbox.js';
import { clearMarks, markTargets, moveTargets } from './marks.js';
import { afterRedraw } from './redraw.js';

export const HINT_MARK = 'hint-mark';

/** @typedef {{ seq: number, waiting: boolean, move?: string, reason?: string }} Hint */

/** @type {Hint | null} */
let hint = null;

export async function askHint() {
  if (!myTurn()) {
    message('Hints are for your own turn.', 'refusal');
    return;
  }
  const seq = model.seq;
  hint = { seq, waiting: true };
  renderHint();
  try {
    const answer = await postJSON(apiPath('hint'), { token: model.token });
    if (!hint || model.seq !== seq) return;
    hint = { seq, waiting: false, move: answer.move, reason: answer.reason };
    renderHint();
  } catch (error) {
    hint = null;
    clearMarks(HINT_MARK);
    message(`No hint: ${/** @type {Error} */ (error).message}`, 'refusal');
  }
}

function renderHint() {
  const box = $('#message');
  if (!hint) return;
  if (hint.waiting) {
    replace(box, h('p', { class: 'info' }, 'Thinking of a hint…'));
    return;
  }
  const move = hint.move || '';
  const play = h('button', { type: 'button', class: 'primary' }, 'Play it');
  play.addEventListener('click', () => send(move));
  replace(box, h('p', { class: 'hint', dataset: { move } }, h('strong', {}, 'Hint: '), `${describe(move)}. `, sentence(hint.reason || ''), ' ', play));
  markHint();
  play.focus();
}

/** The cards (and the meld, or the stock) the hint means, marked on the table while it holds. */
function markHint() {
  if (hint && !hint.waiting && hint.move && hint.seq === model.seq) {
    markTargets(moveTargets(hint.move), HINT_MARK, ', the hint means this');
  } else clearMarks(HINT_MARK);
}

/** Marks the hint's cards again each time the table or the hand is drawn again. */
export function startHintMarks() {
  afterRedraw('table', markHint);
  afterRedraw('hand', markHint);
  afterRedraw('sort', markHint);
}

/**
 * Forgets a hint given for another state than `seq`.
 * @param {number} seq
 */
export function forgetHintBefore(seq) {
  if (hint && hint.seq !== seq) {
    hint = null;
    clearMarks(HINT_MARK);
  }
}

// The computer player's reason as a sentence of its own: a capital, a full stop.
/** @param {string} reason */
function sentence(reason) {
  return !reason ? '' : /[.!?]$/.test(reason) ? capital(reason) : `${capital(reason)}.`;
}
