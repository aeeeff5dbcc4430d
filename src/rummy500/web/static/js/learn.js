// The guided first game (/learn): the table page showing one real deal, step by step, at the
// learner's pace. The server sends every step (web/learn.py: the engine deals a fixed pack
// and checks each scripted move; the lessons' words and the moves' words are the server's):
// the page draws each step's state as the table draws a state, marks the cards the step
// means, and goes Next or Back. A step's state offers the one move the lesson asks for next
// (its `legal`), so the learner may also make it with the table's own controls: the table
// sends it through a stand-in for the connection (below), which goes to the next step when
// it is that move. The page holds no rule.

import { getJSON } from './api.js';
import { cardFace, prettyList } from './cards.js';
import { $, h, replace } from './dom.js';
import { bindSettings } from './settingsform.js';
import { describe, signed, total } from './words.js';
import { bindDrawer } from './table/drawer.js';
import { loadRules, openDialog } from './table/dialogs.js';
import { renderMine, switchSort } from './table/hand.js';
import { markTargets } from './table/marks.js';
import { startMeldRoom } from './table/meldroom.js';
import { renderTableMelds } from './table/melds.js';
import { applyState, model, namesFromSummary, setSummary, sitAs } from './table/model.js';
import { clearMessage, fatal, message, show } from './table/notices.js';
import { settle, useConnection } from './table/outbox.js';
import { afterRedraw, onRedraw } from './table/redraw.js';
import { renderTableParts } from './table/drawing.js';

/** @typedef {import('./protocol.js').TableState} TableState */
/** @typedef {import('./protocol.js').DealResult} DealSheet */

/**
 * @typedef {object} Step
 * @property {string} title
 * @property {string[]} text
 * @property {{ seat: number, move: string }[]} moves made on coming to this step
 * @property {string[]} said the moves in the table's words
 * @property {string[]} marks the cards the step means ("stock" for the stock)
 * @property {TableState} state the learner's view of the table at this step
 */

export const MARK = 'lesson-mark';
const LEARNER = 0;

/** A wide screen (the lesson beside the table), or a phone (the lesson under the hand). */
const wide = window.matchMedia('(min-width: 761px)');

/** @type {Step[]} */
let steps = [];
let at = 0;

/** The step's cards marked on the table, once it is drawn. */
function markStep() {
  const step = steps[at];
  if (!step) return;
  const cards = step.marks.filter((mark) => mark !== 'stock');
  markTargets({ cards, melds: [], stock: step.marks.includes('stock') }, MARK, ', the lesson means this');
  const sheets = step.state.deals || [];
  if (sheets.length) $('#status').textContent = sheets[sheets.length - 1].text;
}

/** What Next does: the move the lesson asks for, in words. */
function nextWords() {
  if (!steps[at + 1]) return 'Done';
  const move = asked();
  return move ? `Next: ${describe(move)}` : 'Next';
}

/**
 * A finished deal's sheet as the lesson shows it: each side's lines, its score, the standing.
 * @param {DealSheet} sheet
 */
function sheetTable(sheet) {
  const sides = sheet.sides && sheet.sides.length ? sheet.sides : sheet.scores.map((_, side) => `Side ${side + 1}`);
  return h('div', { class: 'lesson-sheet' },
    h('p', { class: 'lesson-sheet-head' }, `Deal ${sheet.deal}: ${sheet.ended}.`),
    h('table', { class: 'scores' },
      h('caption', { class: 'sr-only' }, 'The deal’s sheet'),
      h('tbody', {}, sides.map((name, side) => [
        ...sheet.lines.filter((line) => line.side === side).map((line) => h('tr', {},
          h('th', { scope: 'row' }, line.text), h('td', { class: 'num' }, signed(line.points)))),
        h('tr', { class: 'lesson-sheet-score' }, h('th', { scope: 'row' }, `${name}: this deal`),
          h('td', { class: 'num' }, signed(sheet.scores[side]))),
        h('tr', {}, h('th', { scope: 'row' }, `${name}: total`), h('td', { class: 'num' }, total(sheet.totals_after[side]))),
      ]))),
    sheet.hands.map((hand, seat) => (hand.length
      ? h('div', { class: 'lesson-held' }, h('p', {}, `${model.names[seat]} held, counted against them:`),
        h('div', { class: 'lesson-held-cards', role: 'list' }, hand.map((card) => {
          const face = cardFace(card, { size: 'meld' });
          face.setAttribute('role', 'listitem');
          return face;
        })))
      : null)),
    h('p', { class: 'muted' }, sheet.standing));
}

function renderLesson() {
  const step = steps[at];
  const panel = $('#lesson');
  const cards = step.marks.filter((mark) => mark !== 'stock');
  const sheets = step.state.deals || [];
  replace($('#lesson-body'),
    h('p', { class: 'lesson-count muted' }, `Step ${at + 1} of ${steps.length}`),
    h('h2', { id: 'lesson-heading', tabindex: '-1' }, step.title),
    step.said.length ? h('p', { class: 'lesson-said' }, step.said.map((line) => `${line}.`).join(' ')) : null,
    step.text.map((line) => h('p', {}, line)),
    cards.length || step.marks.includes('stock')
      ? h('p', { class: 'lesson-marked muted' }, 'Marked on the table: ',
        [cards.length ? prettyList(cards) : '', step.marks.includes('stock') ? 'the stock' : ''].filter(Boolean).join(' and '), '.')
      : null,
    at === steps.length - 1 && sheets.length ? sheetTable(sheets[sheets.length - 1]) : null);
  /** @type {HTMLButtonElement} */ ($('#lesson-back')).disabled = at === 0;
  const next = /** @type {HTMLButtonElement} */ ($('#lesson-next'));
  next.textContent = nextWords();
  next.hidden = at === steps.length - 1;
  $('#lesson-done').hidden = at !== steps.length - 1;
  panel.dataset.step = String(at);
}

/** The history of the step's deal, as the log shows it. */
function renderLog() {
  const history = steps[at].state.history || [];
  replace($('#log'), history.map((entry) => h('li', {}, entry.text)),
    (steps[at].state.deals || []).map((sheet) => h('li', { class: 'deal' }, sheet.text)));
}

/**
 * Shows step `index`: the table as it stands then, its lesson, its marks.
 * @param {number} index
 */
function go(index) {
  at = Math.max(0, Math.min(steps.length - 1, index));
  clearMessage();
  applyState(steps[at].state, at);
  document.body.dataset.seq = String(at);
  renderLesson();
  renderLog();
}

/** The move the lesson asks for next, if the learner's. */
function asked() {
  const next = steps[at + 1];
  const mine = next ? next.moves.filter((made) => made.seat === LEARNER) : [];
  return mine.length ? mine[0].move : null;
}

/**
 * What the table's controls send, in place of a table's connection: the move the lesson asks
 * for goes to the next step (the engine made it there); any other is not this lesson's.
 */
const lessonTable = {
  isOpen: true,
  token: /** @type {string | null} */ (null),
  sent: 0,
  start() {},
  stop() {},
  reconnectNow() {},
  /** @param {string} text */
  move(text) {
    const id = `lesson-${(this.sent += 1)}`;
    // Answered once the page has noted the move as on its way, as a server's ack would be.
    queueMicrotask(() => {
      settle(id);
      const wanted = asked();
      if (text === wanted) {
        go(at + 1);
        $('#lesson-heading').focus();
      } else {
        message(wanted ? `Not in this lesson: here it is ${describe(wanted)} (or press Next).` : 'Press Next to go on.', 'refusal');
      }
    });
    return id;
  },
  /** @param {Record<string, unknown>} _fields */
  send(_fields) { return null; },
};

function buildPanel() {
  const back = h('button', { type: 'button', id: 'lesson-back' }, 'Back');
  const next = h('button', { type: 'button', id: 'lesson-next', class: 'primary' }, 'Next');
  back.addEventListener('click', () => go(at - 1));
  next.addEventListener('click', () => {
    go(at + 1);
    // The focus stays on Next while there is one, else on the last step's heading; the page
    // shows the lesson's foot at the screen's foot, and as much of the table above it.
    (at === steps.length - 1 ? $('#lesson-heading') : next).focus({ preventScroll: true });
    if (!wide.matches) panel.scrollIntoView({ block: 'end' });
  });
  const panel = h('section', { id: 'lesson', class: 'lesson', 'aria-labelledby': 'lesson-heading' },
    h('div', { id: 'lesson-body', class: 'lesson-body', 'aria-live': 'polite' }),
    h('div', { class: 'lesson-buttons' }, back, next,
      h('a', { id: 'lesson-done', class: 'button-link primary', href: '/', hidden: true }, 'Play a real game'),
      h('a', { id: 'lesson-leave', class: 'lesson-leave', href: '/' }, 'Leave the lesson')));
  // A wide screen keeps the whole table in sight, the lesson beside it at the top of the side
  // column; a phone has it under the hand, so that the table and the hand come first.
  const place = () => (wide.matches ? $('#side').prepend(panel) : $('#mine').after(panel));
  place();
  wide.addEventListener('change', place);
  document.addEventListener('keydown', (event) => {
    const target = /** @type {HTMLElement} */ (event.target);
    // Arrows step through the lesson from the lesson or the page, not inside the hand's or
    // the melds' own arrow keys.
    if (document.querySelector('dialog[open]') || (target !== document.body && !target.closest('#lesson'))) return;
    if (event.key === 'ArrowRight' && at < steps.length - 1) go(at + 1);
    else if (event.key === 'ArrowLeft' && at > 0) go(at - 1);
  });
}

async function start() {
  document.body.classList.add('learning');
  document.title = 'Learn to play 500 Rum';
  $('#title').textContent = 'Learn to play: a guided first deal';
  $('#rules-button').addEventListener('click', () => openDialog('#rules-dialog'));
  $('#keys-button').hidden = true;
  bindSettings();
  bindDrawer();
  onRedraw('table', renderTableParts);
  onRedraw('hand', renderMine);
  onRedraw('hand', renderTableMelds);
  onRedraw('sort', renderMine);
  startMeldRoom();
  // The marks are drawn again with whatever is drawn again (a card selected, the hand sorted).
  for (const part of /** @type {const} */ (['table', 'hand', 'sort'])) afterRedraw(part, markStep);
  $('#sort-button').addEventListener('click', switchSort);
  let lesson;
  try {
    lesson = await getJSON('/api/learn');
  } catch (error) {
    fatal(`The lesson cannot be loaded: ${/** @type {Error} */ (error).message}`);
    return;
  }
  steps = lesson.steps;
  const first = steps[0].state;
  setSummary(/** @type {any} */ ({ players: lesson.players, rules: lesson.rules, seats: first.seats, status: 'playing' }));
  await loadRules();
  $('#title').textContent = 'Learn to play: a guided first deal';
  namesFromSummary();
  sitAs(LEARNER, null);
  useConnection(/** @type {any} */ (lessonTable));
  buildPanel();
  show('game');
  go(0);
  if (model.state) $('#lesson-next').focus();
}

start();
