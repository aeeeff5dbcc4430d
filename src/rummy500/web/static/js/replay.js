// Replays (/t/<id>/replay for a finished table, /replay for a record file): the engine replays
// the record on the server; this page steps through the positions with every hand shown.

import { getJSON, postJSON } from './api.js';
import { renderHand, renderMelds, renderPile, seatBadge, seatMarks } from './board.js';
import { cardBack } from './cards.js';
import { $, field, h, plural, replace } from './dom.js';
import { markMove, offerReview, reviewAt } from './review.js';
import { signed } from './words.js';

/**
 * One position of a replay, with every hand shown.
 * @typedef {object} Step
 * @property {string} text
 * @property {number} stock
 * @property {string[]} pile
 * @property {string | null} [must_use]
 * @property {import('./protocol.js').Meld[]} melds
 * @property {string[][]} hands
 * @property {number} turn
 * @property {string} phase
 * @property {number[]} credit
 */
/**
 * A deal's sheet as the replay gives it: the table's sheet, line by line, read by nobody's seat.
 * @typedef {{ text: string, sides: string[], lines: { side: number, what: string, points: number, text: string }[],
 *   scores: number[], totals_after: number[], standing: string }} ReplaySheet
 */
/**
 * The answer of POST /api/replay.
 * @typedef {object} Replay
 * @property {string[]} names
 * @property {string[]} sides the sides' names
 * @property {boolean} [partnership]
 * @property {number} players
 * @property {{ preset: string }} rules
 * @property {string} outcome
 * @property {{ number: number, steps: Step[], sheet?: ReplaySheet | null }[]} deals
 */

/**
 * The replay shown (data is null until a record is loaded) and where in it.
 * @type {{ data: Replay, deal: number, step: number, timer: ReturnType<typeof setInterval> | undefined,
 *   marks: string[] }}
 */
const view = { data: /** @type {Replay} */ (/** @type {unknown} */ (null)), deal: 0, step: 0, timer: undefined, marks: [] };

async function start() {
  const parts = location.pathname.split('/').filter(Boolean);
  bindControls();
  if (parts[0] === 't' && parts[1]) {
    const table = decodeURIComponent(parts[1]);
    $('#title').textContent = 'Replay of a table';
    try {
      const [summary, record] = await Promise.all([
        getJSON(`/api/tables/${encodeURIComponent(table)}`),
        getJSON(`/api/tables/${encodeURIComponent(table)}/record`),
      ]);
      const names = summary.seats.map((/** @type {import('./protocol.js').SeatEntry} */ s, /** @type {number} */ i) => s.name || (s.kind === 'bot' ? `Computer ${i + 1}` : `Seat ${i + 1}`));
      await load({ record, names });
      offerReview(table, { names, goTo, redraw: () => { drawStepList(); goTo(view.deal, view.step); } });
    } catch (error) {
      fail(error.status === 409 ? 'This game is not over yet: its replay opens when it ends.' : error.message);
    }
    return;
  }
  $('#upload').hidden = false;
  const input = /** @type {HTMLInputElement} */ ($('#record-file'));
  input.addEventListener('change', () => input.files && input.files[0] && readFile(input.files[0]));
  const drop = $('#drop');
  drop.addEventListener('dragover', (event) => { event.preventDefault(); drop.classList.add('over'); });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', (event) => {
    event.preventDefault();
    drop.classList.remove('over');
    const file = event.dataTransfer && event.dataTransfer.files[0];
    if (file) readFile(file);
  });
}

/** @param {string} text */
function fail(text) {
  $('#replay-error').textContent = text;
}

/** @param {File} file */
async function readFile(file) {
  fail('');
  if (file.size > 4 * 1024 * 1024) {
    fail('That file is larger than 4 MiB: it is not a game record.');
    return;
  }
  const text = await file.text();
  let record;
  try {
    record = JSON.parse(text);
  } catch {
    fail(`${file.name} is not JSON, so it is not a game record.`);
    return;
  }
  try {
    await load(record);
    $('#title').textContent = `Replay of ${file.name}`;
    $('#upload').hidden = true;
    $('#another').hidden = false;
  } catch (error) {
    fail(error.message);
  }
}

/** @param {unknown} body the record, or {record, names} */
async function load(body) {
  view.data = await postJSON('/api/replay', body);
  view.marks = seatMarks(view.data.names);
  replace($('#deal-select'), view.data.deals.map((d, i) => h('option', { value: String(i) }, `${d.number} of ${view.data.deals.length}`)));
  // The game's result is told at the end of its last deal, not before the first.
  $('#outcome').textContent = `${view.data.players} players, ${view.data.rules.preset}, ${plural(view.data.deals.length, 'deal')}.`;
  $('#viewer').hidden = false;
  goTo(0, 0);
  $('#next-step').focus();
}

function bindControls() {
  $('#deal-select').addEventListener('change', () => goTo(Number(field('#deal-select').value), 0));
  $('#first-step').addEventListener('click', () => goTo(view.deal, 0));
  $('#prev-step').addEventListener('click', () => step(-1));
  $('#next-step').addEventListener('click', () => step(1));
  $('#last-step').addEventListener('click', () => goTo(view.deal, steps().length - 1));
  $('#step-range').addEventListener('input', () => goTo(view.deal, Number(field('#step-range').value)));
  $('#play-steps').addEventListener('click', togglePlay);
  document.addEventListener('keydown', (event) => {
    const target = /** @type {HTMLElement | null} */ (event.target);
    if (!view.data || (target && (target.tagName === 'INPUT' || target.tagName === 'SELECT'))) return;
    if (event.key === 'ArrowRight') { event.preventDefault(); step(1); }
    if (event.key === 'ArrowLeft') { event.preventDefault(); step(-1); }
    if (event.key === 'Home') { event.preventDefault(); goTo(view.deal, 0); }
    if (event.key === 'End') { event.preventDefault(); goTo(view.deal, steps().length - 1); }
  });
}

function steps() {
  return view.data.deals[view.deal].steps;
}

/** @param {number} by */
function step(by) {
  const last = steps().length - 1;
  const next = view.step + by;
  if (next > last && view.deal < view.data.deals.length - 1) goTo(view.deal + 1, 0);
  else if (next < 0 && view.deal > 0) goTo(view.deal - 1, view.data.deals[view.deal - 1].steps.length - 1);
  else goTo(view.deal, Math.max(0, Math.min(last, next)));
}

function togglePlay() {
  const button = $('#play-steps');
  if (view.timer) {
    clearInterval(view.timer);
    view.timer = undefined;
  } else {
    view.timer = setInterval(() => {
      const atEnd = view.deal === view.data.deals.length - 1 && view.step === steps().length - 1;
      if (atEnd) togglePlay();
      else step(1);
    }, 900);
  }
  button.setAttribute('aria-pressed', String(Boolean(view.timer)));
  button.textContent = view.timer ? 'Pause' : 'Play';
}

/**
 * @param {number} deal
 * @param {number} index
 */
function goTo(deal, index) {
  const changedDeal = deal !== view.deal || !$('#steps').children.length;
  view.deal = deal;
  view.step = index;
  field('#deal-select').value = String(deal);
  const list = steps();
  const range = /** @type {HTMLInputElement} */ ($('#step-range'));
  range.max = String(list.length - 1);
  range.value = String(index);
  $('#step-count').textContent = `move ${index} of ${list.length - 1}`;
  if (changedDeal) drawStepList();
  for (const item of /** @type {HTMLCollectionOf<HTMLElement>} */ ($('#steps').children)) item.classList.toggle('current', Number(item.dataset.step) === index);
  const current = $('#steps li.current');
  if (current) current.scrollIntoView({ block: 'nearest' });
  drawPosition(list[index], index === list.length - 1);
  reviewAt(deal, index);
}

function drawStepList() {
  const box = $('#steps');
  box.replaceChildren();
  steps().forEach((s, i) => {
    const b = h('button', { type: 'button' }, s.text);
    b.addEventListener('click', () => goTo(view.deal, i));
    const item = h('li', { dataset: { step: String(i) } }, b);
    if (i > 0) markMove(item, view.deal, i - 1);
    box.append(item);
  });
}

/**
 * @param {Step} s
 * @param {boolean} last
 */
function drawPosition(s, last) {
  const data = view.data;
  $('#step-text').textContent = s.text;
  replace($('#stock'), h('div', { class: 'stock-box', 'aria-label': `Stock: ${plural(s.stock, 'card')}` },
    cardBack('pile'), h('span', { class: 'stock-count' }, `Stock ${s.stock}`)));
  renderPile($('#pile'), s.pile, { mustUse: s.must_use });
  renderMelds($('#melds'), s.melds, data.names, view.marks);
  const hands = $('#hands');
  hands.replaceChildren();
  s.hands.forEach((cards, seat) => {
    const box = h('div', { class: `seat-hand${s.turn === seat && s.phase !== 'over' ? ' turn' : ''}` },
      h('div', { class: 'player-head' }, seatBadge(seat, view.marks, data.names), h('span', {}, data.names[seat]),
        h('span', { class: 'muted' }, ` ${plural(cards.length, 'card')}, ${s.credit[seat]} on the table`),
        s.turn === seat && s.phase !== 'over' ? h('span', { class: 'turn-mark' }, '▶ to play') : null),
      h('div', { class: 'seat-cards' }));
    renderHand($('.seat-cards', box), cards, { size: 'pile', label: `${data.names[seat]}'s hand` });
    hands.append(box);
  });
  const sheet = $('#sheet');
  const deal = data.deals[view.deal];
  if (last && deal.sheet) {
    const ended = deal.sheet;
    replace(sheet, h('h2', {}, ended.text),
      h('table', { class: 'sheet lines' },
        ended.sides.map((name, side) => h('tbody', { class: 'sheet-side' },
          h('tr', { class: 'side-name' }, h('th', { scope: 'colgroup', colspan: '2' }, name)),
          ended.lines.filter((line) => line.side === side).map((line) => h('tr', { class: line.what },
            h('th', { scope: 'row' }, line.text), h('td', {}, signed(line.points)))),
          h('tr', { class: 'sum' }, h('th', { scope: 'row' }, 'This deal'), h('td', {}, signed(ended.scores[side]))),
          h('tr', { class: 'total' }, h('th', { scope: 'row' }, 'Total'), h('td', {}, String(ended.totals_after[side]).replace('-', '−')))))),
      h('p', {}, ended.standing));
    sheet.hidden = false;
  } else {
    sheet.hidden = true;
  }
}

start();
