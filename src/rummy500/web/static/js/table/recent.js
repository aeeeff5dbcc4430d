// What the table just did, kept across redraws: each seat's last move of the deal (shown on
// its panel, so a computer player's turn can be followed without the log) and the cards the
// viewer just drew or took (marked in the hand until their next move).

import { freshCards, lastMoves } from '../recent.js';
import { model } from './model.js';
import { beforeRedraw } from './redraw.js';

/** @typedef {import('../protocol.js').TableState} TableState */

/** @type {TableState | null} */
let shown = null;
/** @type {(string | null)[]} */
let last = [];
/** @type {string[]} */
let fresh = [];

/** @param {TableState} s */
function movesOf(s) {
  return lastMoves(s.history || [], s.players);
}

function update() {
  const s = model.state;
  if (!s) return;
  const now = movesOf(s);
  if (model.seat !== null) {
    const mine = now[model.seat] ?? null;
    const mineBefore = shown ? movesOf(shown)[model.seat] ?? null : null;
    // A move taken back (undo) brings cards back to the hand that were not drawn.
    const undone = shown !== null && shown.deal === s.deal && (s.history || []).length < (shown.history || []).length;
    fresh = undone ? [] : freshCards(shown, s, mine, mineBefore, fresh);
  }
  last = now;
  shown = s;
}

/** The cards just drawn or taken by the viewer. */
export function freshMarks() {
  return fresh;
}

/**
 * The seat's last move in this deal (null before its first).
 * @param {number} seat
 */
export function lastMoveOf(seat) {
  return last[seat] ?? null;
}

export function startRecent() {
  beforeRedraw('table', update);
}
