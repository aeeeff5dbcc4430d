// The log beside the table ("What happened"): the words the server sends with every change
// (the history entries of the state and the updates' events), each finished deal's line, and
// the page's own notes. The log is kept in the tab's session storage, so that a reload shows
// it again word for word; the deal in play always comes from the state itself.

import { $, h } from '../dom.js';
import { tableId } from './address.js';
import { model } from './model.js';

/** @typedef {import('../protocol.js').TableState} TableState */
/** @typedef {import('../protocol.js').TableEvent} TableEvent */

/**
 * A line of the log: its words, its kind, and for a history entry its place (deal, index).
 * @typedef {{ text: string, kind: string, deal?: number, at?: number }} LogLine
 */

const KEEP_LINES = 400;

/** The sequence number of the last state logged (-1: none yet). */
let loggedSeq = -1;
/** @type {LogLine[]} */
let lines = [];

function storeKey() {
  return `rummy500.log.${tableId}.${model.seat ?? 'watch'}`;
}

function store() {
  try {
    sessionStorage.setItem(storeKey(), JSON.stringify(lines));
  } catch {
    // A full or forbidden storage only costs the log after a reload.
  }
}

/** @returns {LogLine[]} */
function stored() {
  try {
    const data = JSON.parse(sessionStorage.getItem(storeKey()) || '[]');
    return Array.isArray(data) ? data.filter((line) => line && typeof line.text === 'string') : [];
  } catch {
    return [];
  }
}

/** @param {LogLine} line */
function show(line) {
  const log = $('#log');
  log.append(h('li', { class: line.kind }, line.text));
  while (log.children.length > KEEP_LINES) log.firstElementChild?.remove();
  log.scrollTop = log.scrollHeight;
}

/** @param {LogLine} line */
function add(line) {
  lines.push(line);
  if (lines.length > KEEP_LINES) lines = lines.slice(-KEEP_LINES);
  show(line);
  store();
}

/**
 * A line of the page's own (a note, a chat line, a new game).
 * @param {string} text
 * @param {string} [kind] "deal", "note", "chat" or none
 */
export function say(text, kind = '') {
  add({ text, kind });
}

/**
 * Forgets the entries of deal `deal` from `at` on (an undo took them back), so that the
 * moves made again there are logged; the lines already shown stay.
 * @param {number} deal
 * @param {number} at
 */
export function forgetFrom(deal, at) {
  lines = lines.filter((line) => line.deal !== deal || (line.at ?? 0) < at);
  store();
}

/**
 * The history entry at `at` of deal `deal`, unless the log has it.
 * @param {import('../protocol.js').HistoryEntry} entry
 * @param {number} deal
 * @param {number} at
 */
function addEntry(entry, deal, at) {
  if (lines.some((line) => line.deal === deal && line.at === at)) return;
  add({ text: entry.text, kind: entry.move === undefined ? 'deal' : '', deal, at });
}

/**
 * Finished deals' lines that the log does not have yet.
 * @param {TableState} state
 */
function addSheets(state) {
  for (const sheet of state.deals || []) {
    if (!lines.some((line) => line.kind === 'deal' && line.text === sheet.text)) add({ text: sheet.text, kind: 'deal' });
  }
}

/**
 * The log of a welcome: what this tab logged before (kept across a reload), then whatever of
 * the finished deals and of the deal in play it has not logged yet.
 * @param {TableState} state
 * @param {number} seq
 * @param {boolean} first
 */
export function logWelcome(state, seq, first) {
  if (first || loggedSeq < 0) {
    lines = stored();
    $('#log').replaceChildren();
    for (const line of lines) show(line);
  } else if (seq > loggedSeq) {
    say('(Back at the table: the state shown is the current one.)', 'note');
  }
  const deal = state.deal ?? 0;
  const history = state.history || [];
  // The finished deals' lines go before the deal in play's, unless the log already shows it.
  if (!lines.some((line) => line.deal === deal)) addSheets(state);
  history.forEach((entry, at) => addEntry(entry, deal, at));
  addSheets(state);
  loggedSeq = seq;
}

/**
 * The log of an update: its event, and the line of a deal it ended.
 * @param {TableEvent | undefined} event
 * @param {number} seq
 * @param {TableState | null} prev
 * @param {TableState} next
 */
export function logUpdate(event, seq, prev, next) {
  if (seq <= loggedSeq) return;
  const history = next.history || [];
  if (event && event.text !== undefined) {
    const seat = event.seat ?? null;
    const entry = next.seats && seat !== null ? next.seats[seat] : undefined;
    // Said only as it happens: a computer plays for a person who is away.
    const away = event.move !== undefined && entry && entry.kind !== 'bot' && entry.connected === false;
    addEntry(away ? { ...event, text: `${event.text} (a computer played for them while they are away)` } : event,
      next.deal ?? 0, Math.max(0, history.length - 1));
  }
  if (prev && (next.deals || []).length > (prev.deals || []).length) addSheets(next);
  loggedSeq = seq;
}
