// The table as this page knows it: the lobby's summary, the rules, this browser's seat, the
// last state the server sent, the names shown, and the cards selected in the hand. Other
// modules read it through `model` (read-only) and change it only through the functions here,
// each of which says which part of the page to draw again.

import { seatMarks } from '../board.js';
import { arrangeHand } from '../handorder.js';
import { readLegal } from '../moves.js';
import { YOU, sidesOf } from '../words.js';
import { redraw } from './redraw.js';

/** @typedef {import('../protocol.js').TableState} TableState */
/** @typedef {import('../protocol.js').TableSummary} TableSummary */
/** @typedef {import('../protocol.js').RulesInfo} RulesInfo */
/** @typedef {import('../protocol.js').SeatEntry} SeatEntry */
/** @typedef {'suit' | 'rank'} SortOrder */

/**
 * @typedef {object} Model
 * @property {TableSummary | null} summary the table as the lobby's API last described it
 * @property {RulesInfo} info the rules explained
 * @property {number[][]} sides the seats of each side
 * @property {number | null} seat this browser's seat (null for a spectator)
 * @property {string | null} token this browser's seat token
 * @property {TableState | null} state the last state with a deal on the table
 * @property {number} seq the state's sequence number
 * @property {import('../moves.js').LegalInfo} legal the state's legal moves, read
 * @property {SortOrder} sort how the hand is sorted
 * @property {readonly string[] | null} order the viewer's own order of the hand (dragged), if any
 * @property {readonly number[]} selected indexes into the sorted hand
 * @property {readonly string[]} names each seat's name as shown
 * @property {readonly string[]} marks each seat's short mark
 * @property {string | null} next the next game's table, once made
 */

/** @type {Model} */
const current = {
  summary: null,
  info: { sides: [], topics: [], preset: '', description: '' },
  sides: [],
  seat: null,
  token: null,
  state: null,
  seq: -1,
  legal: readLegal([]),
  sort: 'suit',
  order: null,
  selected: [],
  names: [],
  marks: [],
  next: null,
};

/** The table as this page knows it, to read. */
export const model = /** @type {Readonly<Model>} */ (current);

// -- pure helpers -------------------------------------------------------------------------------

/**
 * A seat's name when it has none of its own.
 * @param {number} seat
 * @param {SeatEntry | undefined} entry
 */
export function seatLabel(seat, entry) {
  if (entry && entry.name) return entry.name;
  if (entry && entry.kind === 'bot') return `Computer ${seat + 1}`;
  return `Seat ${seat + 1}`;
}

/**
 * Each seat's name as shown; two seats of one name (two "Expert"s) get their seat numbers.
 * @param {Array<SeatEntry | undefined>} seats
 * @returns {string[]}
 */
export function shownNames(seats) {
  const names = seats.map((entry, seat) => seatLabel(seat, entry));
  return names.map((name, seat) => (names.indexOf(name) !== names.lastIndexOf(name)
    ? `${name} ${seat + 1}` : name));
}

/**
 * A state with a deal on the table (a table still waiting for people has none).
 * @param {TableState | null | undefined} state
 * @returns {state is TableState}
 */
export function hasDeal(state) {
  return Boolean(state && state.phase !== 'waiting' && Array.isArray(state.hand_sizes)
    && state.dealer !== null && state.dealer !== undefined);
}

/**
 * The current deal's number, from 1 (every finished deal is in state.deals).
 * @param {TableState} state
 */
export function dealNumber(state) {
  return (state.deals || []).length + (state.over ? 0 : 1);
}

/**
 * The indexes in `hand` of the given cards, each card matched once (cards no longer in the
 * hand are dropped).
 * @param {readonly string[]} cards
 * @param {readonly string[]} hand
 * @returns {number[]}
 */
export function indexesOf(cards, hand) {
  const used = new Set();
  const indexes = [];
  for (const card of cards) {
    const at = hand.findIndex((c, i) => c === card && !used.has(i));
    if (at >= 0) {
      used.add(at);
      indexes.push(at);
    }
  }
  return indexes;
}

// -- reading the model --------------------------------------------------------------------------

/**
 * The viewer's hand in the chosen order (none for a spectator).
 * @param {TableState | null} [state]
 * @returns {string[]}
 */
export function sortedHand(state = current.state) {
  return state && state.hand ? arrangeHand(state.hand, current.sort, current.order) : [];
}

/** The selected cards of the hand. */
export function selectedCards() {
  const hand = sortedHand();
  return current.selected.map((i) => hand[i]).filter(Boolean);
}

/** It is this browser's seat's turn, and the state lists its legal moves. */
export function myTurn() {
  const s = current.state;
  return Boolean(s) && !s?.over && current.seat !== null && s?.turn === current.seat
    && Array.isArray(s?.legal);
}

/**
 * "You" for this browser's seat, else the seat's name.
 * @param {number | null | undefined} seat
 */
export function who(seat) {
  if (seat === null || seat === undefined) return 'A player';
  return seat === current.seat ? YOU : current.names[seat];
}

// -- changing the model -------------------------------------------------------------------------

/** @param {ReadonlyArray<SeatEntry | undefined>} seats */
function setNames(seats) {
  current.names = shownNames([...seats]);
  current.marks = seatMarks([...current.names]);
}

/** The names from the state's seats, or the summary's while no deal is on the table. */
export function namesFromSummary() {
  const summary = current.summary;
  if (!summary) return;
  const seats = (current.state && current.state.seats) || summary.seats || [];
  setNames(Array.from({ length: summary.players }, (_, seat) => seats[seat]));
}

/** @param {TableSummary} summary */
export function setSummary(summary) {
  current.summary = summary;
}

/** @param {RulesInfo} info */
export function setRules(info) {
  current.info = info;
  current.sides = sidesOf(current.summary ? current.summary.players : 0, info.sides);
}

/** @param {SortOrder} sort */
export function setSort(sort) {
  current.sort = sort;
}

/**
 * This browser sits at `seat` with `token`, or watches (both null).
 * @param {number | null} seat
 * @param {string | null} token
 */
export function sitAs(seat, token) {
  current.seat = seat;
  current.token = token;
}

/**
 * The state the server sent, with its sequence number; the selection stays on the same
 * cards where they are still in hand (and is cleared by a new deal).
 * @param {TableState} state
 * @param {number} seq
 */
export function applyState(state, seq) {
  const before = current.state;
  const kept = before && before.hand ? current.selected.map((i) => sortedHand(before)[i]) : [];
  current.state = state;
  current.seq = seq;
  current.legal = readLegal(state.legal || []);
  if (state.seats) setNames(state.seats);
  if (typeof state.next === 'string' && state.next) current.next = state.next;
  current.selected = before && before.deal !== state.deal ? [] : indexesOf(kept, sortedHand(state));
  redraw('table');
}

/** No deal on the table (a table waiting for people). */
export function forgetState() {
  current.state = null;
}

/**
 * Who sits where and who is connected changed.
 * @param {SeatEntry[]} seats
 */
export function setSeats(seats) {
  if (current.summary) current.summary.seats = seats;
  if (!current.state) {
    namesFromSummary();
    return;
  }
  current.state = { ...current.state, seats };
  setNames(seats);
  redraw('players');
}

/**
 * The next game at this table is made.
 * @param {string} table
 */
export function setNext(table) {
  current.next = table;
  if (current.state) current.state = { ...current.state, next: table };
  redraw('again');
}

/**
 * Selects the card at `index` of the sorted hand, or unselects it.
 * @param {number} index
 */
export function toggleSelected(index) {
  current.selected = current.selected.includes(index)
    ? current.selected.filter((i) => i !== index) : [...current.selected, index];
  redraw('hand');
}

export function clearSelected() {
  current.selected = [];
  redraw('hand');
}

/** Sorts the hand the other way (or, from the viewer's own order, as sorted before), keeping
 * the selection on the same cards. */
export function toggleSort() {
  const cards = selectedCards();
  if (current.order) current.order = null;
  else current.sort = current.sort === 'suit' ? 'rank' : 'suit';
  current.selected = indexesOf(cards, sortedHand());
  redraw('sort');
}

/**
 * The viewer's own order of the hand (null: sorted), keeping the selection on the same cards.
 * @param {readonly string[] | null} order
 * @param {boolean} [draw] draw the hand again
 */
export function setOrder(order, draw = true) {
  const cards = selectedCards();
  current.order = order;
  current.selected = indexesOf(cards, sortedHand());
  if (draw) redraw('sort');
}
