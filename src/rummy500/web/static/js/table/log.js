// The log beside the table ("What happened"): the words the server sends with every change
// (the history entries of the state and the updates' events), each finished deal's line, and
// the page's own notes. The log is kept in the tab's session storage, so that a reload shows
// it again word for word; the deal in play always comes from the state itself.

import { $, h, scrollToEndSoon } from '../dom.js';
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

/**
 * Shows `shown` at the end of the log, scrolled to its last line in the next frame (one layout
 * for them all: a welcome after a reload shows a whole game's lines at once).
 * @param {LogLine[]} shown
 */
function show(shown) {
  if (!shown.length) return;
  const log = $('#log');
  log.append(...shown.map((line) => h('li', { class: line.kind }, line.text)));
  while (log.children.length > KEEP_LINES) log.firstElementChild?.remove();
  scrollToEndSoon(log);
}

/** @param {LogLine[]} added */
function add(added) {
  if (!added.length) return;
  lines.push(...added);
  if (lines.length > KEEP_LINES) lines = lines.slice(-KEEP_LINES);
  show(added);
  store();
}

/**
 * A line of the page's own (a note, a chat line, a new game).
 * @param {string} text
 * @param {string} [kind] "deal", "note", "chat" or none
 */
export function say(text, kind = '') {
  add([{ text, kind }]);
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
 * Collects the lines to add to the log, each unless the log or the lines already collected
 * have it.
 */
class Additions {
  constructor() {
    /** @type {LogLine[]} */
    this.lines = [];
  }

  /** @param {(line: LogLine) => boolean} test */
  has(test) {
    return lines.some(test) || this.lines.some(test);
  }

  /**
   * The history entry at `at` of deal `deal`.
   * @param {import('../protocol.js').HistoryEntry} entry
   * @param {number} deal
   * @param {number} at
   */
  entry(entry, deal, at) {
    if (this.has((line) => line.deal === deal && line.at === at)) return;
    this.lines.push({ text: entry.text, kind: entry.move === undefined ? 'deal' : '', deal, at });
  }

  /**
   * The finished deals' lines.
   * @param {TableState} state
   */
  sheets(state) {
    for (const sheet of state.deals || []) {
      if (!this.has((line) => line.kind === 'deal' && line.text === sheet.text)) {
        this.lines.push({ text: sheet.text, kind: 'deal' });
      }
    }
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
    show(lines);
  } else if (seq > loggedSeq) {
    say('(Back at the table: the state shown is the current one.)', 'note');
  }
  const deal = state.deal ?? 0;
  const added = new Additions();
  // The finished deals' lines go before the deal in play's, unless the log already shows it.
  if (!added.has((line) => line.deal === deal)) added.sheets(state);
  (state.history || []).forEach((entry, at) => added.entry(entry, deal, at));
  added.sheets(state);
  add(added.lines);
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
  const added = new Additions();
  if (event && event.text != null) {
    const seat = event.seat ?? null;
    const entry = next.seats && seat !== null ? next.seats[seat] : undefined;
    // Said only as it happens: a computer plays for a person who is away.
    const away = 'move' in event && event.move != null && entry && entry.kind !== 'bot' && entry.connected === false;
    added.entry(away ? { ...event, text: `${event.text} (a computer played for them while they are away)` } : event,
      next.deal ?? 0, Math.max(0, history.length - 1));
  }
  if (prev && (next.deals || []).length > (prev.deals || []).length) added.sheets(next);
  add(added.lines);
  loggedSeq = seq;
}
