// The deal sheet, shown once when a deal ends (remembered across reloads), and the winner's
// sheet when the game is over.

import { $, h, replace } from '../dom.js';
import { capital, dealEnding, outcomeLine, runningTotals, sideName, signed } from '../words.js';
import { replayPath, tableId } from './address.js';
import { againParts } from './again.js';
import { model, who } from './model.js';

const SHEETS_KEY = `rummy500.sheets.${tableId}`;

let shownWinner = false;

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

function sheetDialog() {
  return /** @type {HTMLDialogElement} */ ($('#sheet'));
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
  const sides = model.sides;
  const running = runningTotals(deals, sides.length);
  const totals = s.over && index === deals.length - 1 ? (s.totals || []) : running[index];
  /** @type {Array<HTMLElement | null>} */
  const parts = [];
  if (s.over) {
    shownWinner = true;
    parts.push(h('h2', { id: 'sheet-heading', class: 'winner' }, outcomeLine(s, sides, model.names, model.seat)));
  } else {
    parts.push(h('h2', { id: 'sheet-heading' }, `Deal ${index + 1} is over`));
  }
  if (deal) {
    parts.push(h('p', { class: 'ending' }, `${capital(dealEnding(deal, model.names, model.seat))}.`));
    parts.push(h('table', { class: 'sheet' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Player'), h('th', { scope: 'col' }, 'On the table'), h('th', { scope: 'col' }, 'In hand'))),
      h('tbody', {}, deal.melded.map((melded, seat) => h('tr', {},
        h('th', { scope: 'row' }, who(seat)), h('td', {}, String(melded)), h('td', {}, deal.in_hand[seat] ? `−${deal.in_hand[seat]}` : '0'))))));
    parts.push(h('table', { class: 'sheet' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, sides.some((m) => m.length > 1) ? 'Side' : 'Player'), h('th', { scope: 'col' }, 'This deal'), h('th', { scope: 'col' }, 'Total'))),
      h('tbody', {}, deal.scores.map((score, side) => h('tr', {},
        h('th', { scope: 'row' }, sideName(side, sides, model.names, model.seat)), h('td', {}, signed(score)), h('td', {}, String(totals[side])))))));
  }
  if (!s.over) parts.push(h('p', { class: 'muted' }, outcomeLine({ ...s, totals: running[index] }, sides, model.names, model.seat, model.info.target_score)));
  const close = h('button', { type: 'button', class: 'primary', id: 'sheet-close' }, s.over ? 'Close' : 'Next deal');
  close.addEventListener('click', () => dialog.close());
  if (s.over) parts.push(h('div', { id: 'sheet-again' }, againParts()));
  parts.push(h('p', { class: 'dialog-buttons' }, close,
    s.over ? h('a', { href: replayPath(), class: 'button-link' }, 'Replay the game') : null));
  replace(dialog, parts);
  if (!dialog.open) dialog.showModal();
  close.focus();
}
