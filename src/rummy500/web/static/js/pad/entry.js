// The score pad's deal being entered or changed: the cards tapped or typed, where each goes,
// what each takes back, and the undo list; kept in this browser after each change.

import { couldGrow, meldKey, physical } from './score.js';
import { sendSoon } from './share.js';
import { state } from './state.js';
import { savePad } from './store.js';

/** @typedef {import('./model.js').Pad} Pad */
/** @typedef {import('./score.js').PadDeal} PadDeal */
/** @typedef {import('./score.js').Tables} Tables */

/** @returns {PadDeal} */
export function deal() {
  const pad = /** @type {Pad} */ (state.pad);
  return state.editing >= 0 ? /** @type {PadDeal} */ (state.draft) : pad.current;
}

export function remember() {
  state.undo.push(JSON.stringify({ pad: state.pad, draft: state.draft, openMeld: state.openMeld }));
  if (state.undo.length > 40) state.undo.shift();
}

/** The undo list is kept with the pad, so that a reload can still take back the last entry. */
export function undoKey() {
  return `rummy500.pad.undo:${/** @type {Pad} */ (state.pad).id}`;
}

export function persist() {
  if (!state.pad) return;
  savePad(state.pad);
  sendSoon(state.pad);
  try {
    localStorage.setItem(undoKey(), JSON.stringify(state.undo.slice(-20)));
    if (state.editing < 0) {
      localStorage.setItem(`rummy500.pad.entry:${state.pad.id}`,
        JSON.stringify({ target: state.target, openMeld: state.openMeld, wentOutChosen: state.wentOutChosen }));
    }
  } catch { /* full: undo stays for this visit */ }
}

/**
 * Where the entry of `pad`'s current deal stood (whose cards, which meld), kept across a
 * reload so that the next card goes on where the last one went.
 * @param {Pad} pad
 */
export function restoreEntry(pad) {
  state.target = { kind: 'meld', seat: 0 };
  state.openMeld = null;
  state.wentOutChosen = pad.current.went_out !== null;
  try {
    const kept = JSON.parse(localStorage.getItem(`rummy500.pad.entry:${pad.id}`) || 'null');
    if (!kept || !kept.target || !(kept.target.seat < pad.players.length)) return;
    state.target = kept.target;
    state.wentOutChosen = Boolean(kept.wentOutChosen);
    const open = kept.openMeld;
    if (typeof open === 'number' && pad.current.melds[open] && pad.current.melds[open].seat === kept.target.seat) {
      state.openMeld = open;
    }
  } catch { /* the entry starts afresh */ }
}

/** Who went out, when the scorekeeper has not said: the one seat left holding no cards. */
export function guessWentOut() {
  if (state.wentOutChosen) return;
  const d = deal();
  const empty = d.hands.flatMap((hand, seat) => (hand.length === 0 && d.points[seat] === null ? [seat] : []));
  d.went_out = empty.length === 1 ? empty[0] : null;
}

/**
 * Where a physical card is already used in the deal, in words.
 * @param {string} card
 */
export function usedAt(card) {
  const d = deal();
  const names = /** @type {Pad} */ (state.pad).players;
  /** @type {string[]} */
  const places = [];
  d.melds.forEach((m, i) => m.cards.forEach((p) => { if (physical(p) === card) places.push(`meld ${i + 1} by ${names[m.seat]}`); }));
  d.layoffs.forEach((l) => l.cards.forEach((p) => { if (physical(p) === card) places.push(`a lay-off by ${names[l.seat]}`); }));
  d.hands.forEach((hand, seat) => hand.forEach((p) => { if (physical(p) === card) places.push(`${names[seat]}'s hand`); }));
  return places;
}

/**
 * A card tapped (or typed): it goes where the target says, if the packs hold another.
 * @param {string} piece
 * @returns {boolean} whether it was taken
 */
export function addPiece(piece) {
  const tables = /** @type {Tables} */ (state.tables);
  const card = physical(piece);
  const held = tables.copies[card] || 0;
  const places = usedAt(card);
  if (places.length >= held) {
    const what = card === '*' ? 'every joker' : card;
    state.message = held ? `${what} is already used (${places.join('; ')}), and the pack${tables.decks > 1 ? 's hold' : ' holds'} ${card === '*' ? held : (held === 1 ? 'it once' : `it ${held} times`)}.`
      : `${what}: there is no such card in this game.`;
    return false;
  }
  const d = deal();
  const { target } = state;
  if (target.kind === 'hand') {
    remember();
    d.points[target.seat] = null;
    d.hands[target.seat].push(piece);
  } else if (target.kind === 'layoff') {
    remember();
    d.points[target.seat] = null;
    const found = d.layoffs.find((l) => l.seat === target.seat && l.on === target.on);
    if (found) found.cards.push(piece);
    else d.layoffs.push({ seat: target.seat, on: /** @type {number} */ (target.on), cards: [piece] });
  } else {
    const open = state.openMeld === null ? null : d.melds[state.openMeld];
    if (open && open.seat === target.seat && couldGrow(tables, [...open.cards, piece])) {
      remember();
      open.cards.push(piece);
    } else if (open && open.seat === target.seat && !tables.melds[meldKey(open.cards)] && open.cards.length) {
      state.message = `${piece} does not go with ${open.cards.join(' ')}: no meld holds them. Tap New meld to start another.`;
      return false;
    } else {
      remember();
      d.points[target.seat] = null;
      d.melds.push({ seat: target.seat, cards: [piece] });
      state.openMeld = d.melds.length - 1;
    }
  }
  state.message = '';
  guessWentOut();
  return true;
}

/**
 * Take back one card that was entered (the caller shows the change).
 * @param {'meld' | 'layoff' | 'hand'} kind
 * @param {number} index the meld, lay-off or seat
 * @param {number} position
 */
export function takeBack(kind, index, position) {
  remember();
  const d = deal();
  if (kind === 'meld') {
    d.melds[index].cards.splice(position, 1);
    if (!d.melds[index].cards.length) {
      d.melds.splice(index, 1);
      d.layoffs = d.layoffs.filter((l) => l.on !== index + 1).map((l) => (l.on > index + 1 ? { ...l, on: l.on - 1 } : l));
      state.openMeld = null;
    }
  } else if (kind === 'layoff') {
    d.layoffs[index].cards.splice(position, 1);
    if (!d.layoffs[index].cards.length) d.layoffs.splice(index, 1);
  } else {
    d.hands[index].splice(position, 1);
  }
  guessWentOut();
}
