// The deal sheet, shown once when a deal ends (remembered across reloads), and the winner's
// sheet when the game is over.

import { prettyList } from '../cards.js';
import { $, h, replace } from '../dom.js';
import { capital, signed, standing, total } from '../words.js';
import { replayPath, tableId } from './address.js';
import { againParts } from './again.js';
import { focusTable } from './focus.js';
import { model, who } from './model.js';

const SHEETS_KEY = `rummy500.sheets.${tableId}`;

let shownWinner = false;

/** From this many players a sheet is a grid: a column for each side, a row for each kind of line. */
const COMPACT_PLAYERS = 5;

/** The rows of a compact sheet, in the order of a sheet's lines. */
const KINDS = [['on_table', 'On the table'], ['doubled', 'Melds of four doubled'], ['in_hand', 'In hand'],
  ['hands_won', 'Hands added'], ['going_out', 'Going out'], ['game_bonus', 'Winning the game']];

/**
 * A sheet for many sides: each side a column, each kind of line a row (several lines of one
 * kind, such as the hands added to the side that went out, share their cell), then the deal's
 * score and the total. It scrolls sideways in its own box on a narrow screen.
 * @param {import('../protocol.js').DealResult} deal
 */
function sheetGrid(deal) {
  const kinds = KINDS.filter(([what]) => deal.lines.some((line) => line.what === what));
  const cell = (/** @type {string} */ what, /** @type {number} */ side) => {
    const lines = deal.lines.filter((line) => line.what === what && line.side === side);
    if (!lines.length) return h('td', { class: 'none' }, '');
    const points = lines.reduce((sum, line) => sum + line.points, 0);
    return h('td', { title: lines.map((line) => `${line.text} ${signed(line.points)}`).join('; ') }, signed(points));
  };
  return h('div', { class: 'sheet-grid-box', tabindex: '0', role: 'region', 'aria-label': `Deal ${deal.deal}, side by side` },
    h('table', { class: 'sheet grid' },
      h('caption', { class: 'sr-only' }, `Deal ${deal.deal}: a column for each side`),
      h('thead', {}, h('tr', {}, h('td', {}), deal.sides.map((name) => h('th', { scope: 'col' }, name)))),
      h('tbody', {}, kinds.map(([what, words]) => h('tr', { class: what },
        h('th', { scope: 'row' }, words), deal.sides.map((_, side) => cell(what, side))))),
      h('tfoot', {},
        h('tr', { class: 'sum' }, h('th', { scope: 'row' }, 'This deal'), deal.scores.map((score) => h('td', {}, signed(score)))),
        h('tr', { class: 'total' }, h('th', { scope: 'row' }, 'Total'), deal.totals_after.map((t) => h('td', {}, total(t)))))));
}

/**
 * Shows the sheet of a deal that ended since this page last showed one. On arrival
 * (`first`), deals that ended before are not shown again, unless the game is over.
 * @param {boolean} first
 */
export function sheetsCheck(first) {
  const s = model.state;
  if (!s) return;
  const count = (s.deals || []).length;
  const seen = Number(sessionStorage.getItem(SHEETS_KEY) || (first ? count : 0));
  if (first && !sessionStorage.getItem(SHEETS_KEY)) {
    sessionStorage.setItem(SHEETS_KEY, String(count));
    if (s.over) showSheet(count - 1);
    return;
  }
  if (count > seen) {
    sessionStorage.setItem(SHEETS_KEY, String(count));
    showSheet(count - 1);
  } else if (s.over && !sheetDialog().open && !shownWinner) {
    showSheet(count - 1);
  }
}

let bound = false;

function sheetDialog() {
  const dialog = /** @type {HTMLDialogElement} */ ($('#sheet'));
  if (!bound) {
    bound = true;
    // Closed, the sheet gives the focus back to the table (the button it came from is gone).
    dialog.addEventListener('close', focusTable);
  }
  return dialog;
}

/** @param {number} index the deal, from 0 */
function showSheet(index) {
  const s = model.state;
  if (!s) return;
  const deals = s.deals || [];
  const dialog = sheetDialog();
  if (index < 0 || !deals[index]) {
    if (!s.over) return;
  }
  const deal = deals[index];
  /** @type {Array<HTMLElement | null>} */
  const parts = [];
  if (s.over) {
    shownWinner = true;
    parts.push(h('h2', { id: 'sheet-heading', class: 'winner' }, standing(s)));
  } else {
    parts.push(h('h2', { id: 'sheet-heading' }, `Deal ${index + 1} is over`));
  }
  if (deal) {
    parts.push(h('p', { class: 'ending' }, `${capital(deal.ended)}.`));
    const compact = s.players >= COMPACT_PLAYERS;
    dialog.classList.toggle('compact', compact);
    if (compact) parts.push(sheetGrid(deal));
    else parts.push(h('table', { class: 'sheet lines' },
      h('caption', { class: 'sr-only' }, `Deal ${deal.deal}, line by line`),
      deal.sides.map((name, side) => h('tbody', { class: 'sheet-side' },
        h('tr', { class: 'side-name' }, h('th', { scope: 'colgroup', colspan: '2' }, name)),
        deal.lines.filter((line) => line.side === side).map((line) => h('tr', { class: line.what },
          h('th', { scope: 'row' }, line.text), h('td', {}, signed(line.points)))),
        h('tr', { class: 'sum' }, h('th', { scope: 'row' }, 'This deal'), h('td', {}, signed(deal.scores[side]))),
        h('tr', { class: 'total' }, h('th', { scope: 'row' }, 'Total'), h('td', {}, total(deal.totals_after[side])))))));
    const hands = deal.hands.map((cards, seat) => (cards.length ? h('li', {}, `${who(seat)}: `,
      h('span', { class: 'cards' }, prettyList(cards)), ` (${deal.in_hand[seat]})`) : null)).filter(Boolean);
    if (hands.length) parts.push(h('h3', {}, 'Cards left in hand'), h('ul', { class: `left-in-hand${compact ? ' compact' : ''}` }, hands));
  }
  if (!s.over && deal) parts.push(h('p', { class: 'muted' }, deal.standing));
  const close = h('button', { type: 'button', class: 'primary', id: 'sheet-close' }, s.over ? 'Close' : 'Next deal');
  close.addEventListener('click', () => dialog.close());
  // The buttons stay at the foot of the dialog, in sight however long the sheet.
  parts.push(h('div', { class: 'sheet-foot' },
    s.over ? h('div', { id: 'sheet-again' }, againParts()) : null,
    h('p', { class: 'dialog-buttons' }, close,
      s.over ? h('a', { href: replayPath(), class: 'button-link' }, 'Replay the game') : null,
      s.over ? h('a', { href: `${replayPath()}#review`, class: 'button-link' }, 'Review the game') : null)));
  replace(dialog, parts);
  if (!dialog.open) dialog.showModal();
  // The sheet is read from its heading: the focus goes to its button without scrolling there.
  close.focus({ preventScroll: true });
  dialog.scrollTop = 0;
}
