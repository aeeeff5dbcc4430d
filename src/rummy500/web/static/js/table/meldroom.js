// Room for each seat's melds on a wide screen, where the board is one screen tall and the
// melds' rows share what the panels and the centre leave (seats.css, around.js's wideRows).
// Seats whose melds need more than their share draw their meld cards more compactly, a level
// at a time (shorter cards that show their corners, then smaller ones in a tighter fan); a
// seat that compacts gives the others the room it no longer needs. Only when the most
// compact cards do not fit either do that seat's melds scroll, by whole rows (snapped, so no
// card is ever cut by the edge), with a mark under them saying how many more there are; they
// stay where the viewer scrolled them, but show a piece just laid or laid off on. On a phone
// the page scrolls and every row is as tall as it needs: nothing to do there.
// Each fitting starts from the roomiest, so a seat's melds are never more compact than the
// room of the moment asks; each level tried costs a layout of the page, so a change that
// leaves the melds and the board as they were (a card selected) puts the last fitting back.

import { h } from '../dom.js';
import { afterRedraw } from './redraw.js';

/** The most compact level (seats.css: .seat-melds[data-fit]). */
const MOST_COMPACT = 3;

/** @typedef {{ level: number, rows: number | null, cue: string, rowHeight?: number }} Fitting */

/** The last fitting, by seat, and what it was made for. */
let last = { key: '', seats: /** @type {Map<string, Fitting>} */ (new Map()) };
/** How many cards each piece of each seat's melds held at the last fitting, by seat. */
let lastCards = /** @type {Map<string, number[]>} */ (new Map());
/** Where the viewer scrolled each seat's melds that scroll, by seat: kept through a fitting. */
const scrolledTo = /** @type {Map<string, number>} */ (new Map());
/** The board's size, as its observer last saw it (read there, it costs no layout). */
let boardSize = '';

/** @returns {HTMLElement[]} */
function seatGroups() {
  return [...document.querySelectorAll('#melds .seat-melds')].map((el) => /** @type {HTMLElement} */ (el));
}

/** @param {HTMLElement} group how much of its melds the group does not show, in pixels */
function lacking(group) {
  return group.scrollHeight - group.clientHeight;
}

/** @param {HTMLElement} group the share of its melds the group does not show */
function shortness(group) {
  return lacking(group) / group.scrollHeight;
}

/**
 * What a fitting depends on: the board's size, the card size asked for, each seat's pieces.
 * @param {HTMLElement[]} groups
 */
function fittingKey(groups) {
  const pieces = groups.map((g) => `${g.dataset.seat}:${g.childElementCount}:${g.querySelectorAll('.card').length}`);
  return [boardSize, document.documentElement.dataset.cards || '', ...pieces].join(' ');
}

/**
 * The mark under a seat's melds that scroll: the drawing keeps it (data-extra).
 * @param {HTMLElement} group
 */
function cueOf(group) {
  const list = /** @type {HTMLElement} */ (group.parentElement);
  const found = list.querySelector(`:scope > .meld-more[data-for="${group.dataset.seat}"]`);
  if (found) return /** @type {HTMLElement} */ (found);
  const cue = h('button', { type: 'button', class: 'meld-more', tabindex: '-1', 'aria-hidden': 'true',
    dataset: { extra: '', for: group.dataset.seat || '' } });
  // Through the style object: the page's policy refuses style attributes.
  cue.style.gridArea = group.style.gridArea;
  cue.addEventListener('click', () => showNextRow(group));
  cue.hidden = true;
  list.append(cue);
  return cue;
}

/**
 * The pieces not wholly shown, above and below what the group shows.
 * @param {HTMLElement} group
 */
function hiddenPieces(group) {
  const box = group.getBoundingClientRect();
  const top = box.top + group.clientTop;
  const bottom = top + group.clientHeight;
  const pieces = [...group.children].map((piece) => piece.getBoundingClientRect());
  return { above: pieces.filter((r) => r.top < top - 1), below: pieces.filter((r) => r.bottom > bottom + 1), top };
}

/** @param {{ above: DOMRect[], below: DOMRect[] }} hidden */
function cueText({ above, below }) {
  if (below.length) return `▾ ${below.length} more`;
  return above.length ? `▴ ${above.length} above` : '';
}

/** @param {HTMLElement} group */
function showNextRow(group) {
  const hidden = hiddenPieces(group);
  const next = hidden.below[0];
  group.scrollTo({ top: next ? group.scrollTop + next.top - hidden.top : 0, behavior: 'smooth' });
}

/**
 * @param {HTMLElement} group
 * @param {Fitting} fitting
 */
function apply(group, fitting) {
  const level = fitting.level ? String(fitting.level) : undefined;
  if (group.dataset.fit !== level) {
    if (level) group.dataset.fit = level;
    else delete group.dataset.fit;
  }
  const rows = fitting.rows !== null;
  if (group.classList.contains('by-rows') !== rows) group.classList.toggle('by-rows', rows);
  const height = rows ? `${fitting.rows}px` : '';
  if (group.style.maxHeight !== height) group.style.maxHeight = height;
  // As tall as its rows, however short its row of the grid: the board scrolls before a seat's
  // melds cover the next row's panels.
  if (group.style.minHeight !== height) group.style.minHeight = height;
  const rowHeight = rows && fitting.rowHeight ? `${fitting.rowHeight}px` : '';
  if (group.style.getPropertyValue('--row-h') !== rowHeight) group.style.setProperty('--row-h', rowHeight);
  group.onscroll = rows ? () => {
    scrolledTo.set(group.dataset.seat || '', group.scrollTop);
    const cue = cueOf(group);
    cue.textContent = cueText(hiddenPieces(group));
  } : null;
  if (!rows && !group.parentElement?.querySelector(`:scope > .meld-more[data-for="${group.dataset.seat}"]`)) return;
  const cue = cueOf(group);
  cue.hidden = !rows || !fitting.cue;
  if (cue.textContent !== fitting.cue) cue.textContent = fitting.cue;
  cue.style.marginTop = height;
}

/**
 * Whole rows for each group that lacks room at the most compact level: its rows made as tall
 * as its tallest (so that wherever it scrolls to, a row's edge is the box's), as many as fit
 * its room with the mark under them (.by-rows: no padding under the rows, where the next
 * row's edge would show), snapped to rows as it scrolls.
 * @param {HTMLElement[]} groups
 * @param {Map<HTMLElement, Fitting>} fittings
 */
function scrollByRows(groups, fittings) {
  for (const group of groups) {
    const cue = cueOf(group);
    cue.hidden = false;
    cue.textContent = '▾';
  }
  const measured = groups.map((group) => {
    const style = getComputedStyle(group);
    const room = group.getBoundingClientRect().height - cueOf(group).getBoundingClientRect().height;
    const pieces = [...group.children].map((piece) => piece.getBoundingClientRect());
    const rowHeight = Math.ceil(Math.max(...pieces.map((r) => r.height)));
    const pitch = rowHeight + (parseFloat(style.rowGap) || 0);
    const top = parseFloat(style.paddingTop) + parseFloat(style.borderTopWidth);
    const shown = Math.max(1, Math.floor((room - top - rowHeight) / pitch) + 1);
    const rows = Math.ceil(top + shown * pitch - (pitch - rowHeight));
    return { group, rows, rowHeight };
  });
  for (const { group, rows, rowHeight } of measured) {
    const fitting = { level: MOST_COMPACT, rows, rowHeight, cue: '▾' };
    fittings.set(group, fitting);
    apply(group, fitting);
  }
  const cues = measured.map(({ group }) => cueText(hiddenPieces(group)));
  measured.forEach(({ group }, i) => {
    const fitting = /** @type {Fitting} */ (fittings.get(group));
    fitting.cue = cues[i];
    apply(group, fitting);
  });
}

/** @param {HTMLElement} group the cards of each of its pieces */
function cardsOf(group) {
  return [...group.children].map((piece) => piece.querySelectorAll('.card').length);
}

/**
 * The first piece of the group that changed since the last fitting (a meld laid, a card laid
 * off), or -1.
 * @param {HTMLElement} group
 */
function changedPiece(group) {
  const was = lastCards.get(group.dataset.seat || '');
  if (!was) return -1;
  return cardsOf(group).findIndex((count, i) => count !== was[i]);
}

/**
 * Each seat's melds that scroll where the viewer left them, or showing the piece that just
 * changed in their last row (the cards that fly there land in sight).
 * @param {HTMLElement[]} groups
 * @param {{ group: HTMLElement, piece: number }[]} changed
 */
function keepScrolled(groups, changed) {
  const targets = groups.map((group) => {
    const piece = changed.find((c) => c.group === group)?.piece ?? -1;
    const kept = scrolledTo.get(group.dataset.seat || '') || 0;
    if (piece < 0) return { group, top: kept };
    const view = group.getBoundingClientRect().top + group.clientTop;
    const r = group.children[piece].getBoundingClientRect();
    const bottom = r.bottom - view + group.scrollTop;
    const shown = r.top - view + group.scrollTop >= kept - 1 && bottom <= kept + group.clientHeight + 1;
    return { group, top: shown ? kept : Math.max(0, Math.ceil(bottom - group.clientHeight)) };
  });
  for (const { group, top } of targets) {
    if (Math.abs(group.scrollTop - top) > 1) group.scrollTop = top;
  }
}

/** Fits every seat's melds in its room (see the top of this module). */
export function fitMelds() {
  const groups = seatGroups();
  if (!groups.length) return;
  const changed = groups.map((group) => ({ group, piece: changedPiece(group) })).filter(({ piece }) => piece >= 0);
  lastCards = new Map(groups.map((group) => [group.dataset.seat || '', cardsOf(group)]));
  const key = fittingKey(groups);
  if (key === last.key) {
    for (const group of groups) apply(group, last.seats.get(group.dataset.seat || '') || { level: 0, rows: null, cue: '' });
    return;
  }
  /** @type {Map<HTMLElement, Fitting>} */
  const fittings = new Map(groups.map((group) => [group, { level: 0, rows: null, cue: '' }]));
  const levelOf = (/** @type {HTMLElement} */ group) => fittings.get(group)?.level || 0;
  const compactable = (/** @type {HTMLElement[]} */ some) => some.filter((group) => levelOf(group) < MOST_COMPACT);
  for (const [group, fitting] of fittings) apply(group, fitting);
  if (getComputedStyle(groups[0]).overflowY !== 'visible') {
    // The seats shortest of room a level more compact at once (a layout a level, not a seat;
    // one a little short may find room the others give back); when the seats short of room
    // are at the most compact, the others too, to give them room before any scroll.
    for (let step = 0; step < 3 * MOST_COMPACT; step += 1) {
      const short = groups.filter((group) => lacking(group) > 1);
      const shortest = Math.max(0, ...compactable(short).map(shortness));
      const raise = shortest ? compactable(short).filter((group) => shortness(group) >= shortest / 2)
        : short.length ? compactable(groups) : [];
      if (!raise.length) break;
      for (const group of raise) {
        const fitting = { level: levelOf(group) + 1, rows: null, cue: '' };
        fittings.set(group, fitting);
        apply(group, fitting);
      }
    }
    const still = groups.filter((group) => lacking(group) > 1);
    if (still.length) scrollByRows(still, fittings);
    if (still.length) keepScrolled(still, changed);
  }
  last = { key,
    seats: new Map([...fittings].map(([group, fitting]) => [group.dataset.seat || '', fitting])) };
}

/** The melds are fitted after every change that draws them, and when the board changes size. */
export function startMeldRoom() {
  afterRedraw('table', fitMelds);
  afterRedraw('hand', fitMelds);
  const board = document.querySelector('#play > .board');
  if (!board || typeof ResizeObserver === 'undefined') return;
  new ResizeObserver(([entry]) => {
    boardSize = `${Math.round(entry.contentRect.width)}x${Math.round(entry.contentRect.height)}`;
    fitMelds();
  }).observe(board);
}
