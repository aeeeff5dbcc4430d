// The log beside the table ("What happened"): the current deal's moves on arrival, then each
// move and deal ending as it happens, in words.

import { $, h } from '../dom.js';
import { dealEnding, moveLine, moveParts, sideName, signed } from '../words.js';
import { dealNumber, model, who } from './model.js';

/** @typedef {import('../protocol.js').TableState} TableState */
/** @typedef {import('../protocol.js').TableEvent} TableEvent */

const KEEP_LINES = 400;

/** The sequence number of the last state logged (-1: none yet). */
let loggedSeq = -1;

/**
 * @param {string} text
 * @param {string} [kind] "deal", "earlier", "note" or none
 */
export function say(text, kind = '') {
  const log = $('#log');
  log.append(h('li', { class: kind }, text));
  while (log.children.length > KEEP_LINES) log.firstElementChild?.remove();
  log.scrollTop = log.scrollHeight;
}

/**
 * The log of a welcome: the whole deal the first time, a note after a reconnection.
 * @param {TableState} state
 * @param {number} seq
 * @param {boolean} first
 */
export function logWelcome(state, seq, first) {
  if (first || loggedSeq < 0) historyLog(state);
  else if (seq > loggedSeq) say('(Back at the table: the state shown is the current one.)', 'note');
  loggedSeq = seq;
}

/**
 * The log of an update: its event, unless already logged.
 * @param {TableEvent} event
 * @param {number} seq
 * @param {TableState | null} prev
 * @param {TableState} next
 */
export function logUpdate(event, seq, prev, next) {
  if (seq <= loggedSeq) return;
  logEvent(event, prev, next);
  loggedSeq = seq;
}

/**
 * @param {number | null} dealer
 * @param {TableState} state
 */
function dealLine(dealer, state) {
  return `Deal ${dealNumber(state)}: ${who(dealer)} ${dealer === model.seat ? 'deal' : 'deals'}.`;
}

/** @param {TableState} state */
function historyLog(state) {
  $('#log').replaceChildren();
  say(dealLine(state.dealer, state), 'deal');
  let turn = ((state.dealer ?? 0) + 1) % state.players;
  for (const entry of state.history || []) {
    const move = typeof entry === 'string' ? entry : entry.move;
    const kind = moveParts(move).kind;
    let seat = typeof entry === 'object' && entry !== null && 'seat' in entry ? entry.seat ?? null : null;
    if (seat === null && !kind.startsWith('rummy') && kind !== 'pass') seat = turn;
    const name = seat === null ? 'A player' : who(seat);
    say(moveLine(name, seat, move, null, null), 'earlier');
    if (seat !== null && (kind === 'discard' || kind === 'end')) turn = (seat + 1) % state.players;
  }
}

/**
 * @param {TableEvent} event
 * @param {TableState | null} prev
 * @param {TableState} next
 */
function logEvent(event, prev, next) {
  if (event.deal !== undefined && event.move === undefined) {
    say(dealLine(event.dealer ?? null, next), 'deal');
    return;
  }
  if (event.move === undefined) {
    if (event.text) say(event.text);
    return;
  }
  const seat = event.seat ?? null;
  const entry = next.seats && seat !== null ? next.seats[seat] : undefined;
  let line = moveLine(who(seat), seat, event.move, prev, next);
  if (entry && entry.kind !== 'bot' && entry.connected === false) line += ' (a computer played for them while they are away)';
  say(line);
  if (prev && next.deals && prev.deals && next.deals.length > prev.deals.length) {
    const deal = next.deals[next.deals.length - 1];
    const number = next.deals.length;
    const scores = deal.scores.map((score, side) => `${sideName(side, model.sides, model.names, model.seat)} ${signed(score)}`).join(', ');
    say(`Deal ${number} is over: ${dealEnding(deal, model.names, model.seat)}. ${scores}.`, 'deal');
  }
}
