// The game review on a finished table's replay (/t/<id>/replay): asked for from the server,
// which judges each decision in its computer players' workers; this page polls its progress,
// then draws each deal's graph of expected points, marks the labelled moves in the move list
// and, at a reviewed decision, says what was played and what the search found better.

import { getJSON, postJSON } from './api.js';
import { $, h, plural, replace } from './dom.js';
import { capital, describe } from './words.js';

/**
 * One reviewed decision (as `rummy500 review --json` writes it).
 * @typedef {{ deal: number, index: number, seat: number, side: number, turn: number, move: string, best: string,
 *   move_points: number, best_points: number, loss: number, error: number, label: string | null, worlds: number,
 *   words: string }} Decision
 */
/**
 * The review of a table, once done.
 * @typedef {{ state: 'done', players: number, names: string[], worlds: number,
 *   thresholds: Record<string, number>, decisions: Decision[],
 *   seats: { seat: number, decisions: number, accuracy: number | null, lost: number, labels: Record<string, number> }[] }} Review
 */
/**
 * What the replay page lends the review: the seats' names, and a way to show a position.
 * @typedef {{ names: string[], goTo: (deal: number, step: number) => void, redraw: () => void }} Hooks
 */

const MARKS = /** @type {Record<string, string>} */ ({ inaccuracy: '?!', mistake: '?', blunder: '??' });
const POLL_MS = 700;
const SVG = 'http://www.w3.org/2000/svg';

/** @type {{ table: string, hooks: Hooks | null, review: Review | null, byPlace: Map<string, Decision> }} */
const state = { table: '', hooks: null, review: null, byPlace: new Map() };

/** @param {number} deal the deal's index, from 0 @param {number} index the move's index in the deal */
const place = (deal, index) => `${deal} ${index}`;

/**
 * Offer the review of ``table`` (shown at once when the server keeps it already; started
 * at once when the page was opened for it, /t/<id>/replay#review).
 * @param {string} table
 * @param {Hooks} hooks
 */
export async function offerReview(table, hooks) {
  state.table = table;
  state.hooks = hooks;
  const section = $('#review');
  section.hidden = false;
  $('#review-start').addEventListener('click', () => ask());
  try {
    const known = await getJSON(reviewPath());
    if (known.state === 'done') show(known);
    else if (known.state === 'running') follow(known);
    else if (location.hash === '#review') await ask();
    else if (known.state === 'failed') status(known.message);
  } catch (error) {
    status(error instanceof Error ? error.message : String(error));
  }
}

const reviewPath = () => `/api/tables/${encodeURIComponent(state.table)}/review`;

async function ask() {
  status('Asking for the review…');
  try {
    const answer = await postJSON(reviewPath(), {});
    if (answer.state === 'done') show(answer);
    else follow(answer);
  } catch (error) {
    status(error instanceof Error ? error.message : String(error));
  }
}

/** @param {string} text */
function status(text) {
  $('#review-status').textContent = text;
}

/** @param {{ state: string, done?: number, total?: number, message?: string }} answer */
async function follow(answer) {
  const button = /** @type {HTMLButtonElement} */ ($('#review-start'));
  const bar = /** @type {HTMLProgressElement} */ ($('#review-progress'));
  button.hidden = true;
  bar.hidden = false;
  let now = answer;
  while (now.state === 'running') {
    bar.max = Math.max(1, now.total || 0);
    bar.value = now.done || 0;
    status(now.total ? `Reviewing: ${now.done} of ${plural(now.total, 'decision')} judged…` : 'Reviewing: finding the decisions…');
    await new Promise((done) => setTimeout(done, POLL_MS));
    try {
      now = await getJSON(reviewPath());
    } catch (error) {
      now = { state: 'failed', message: error instanceof Error ? error.message : String(error) };
    }
  }
  bar.hidden = true;
  if (now.state === 'done') show(/** @type {Review} */ (/** @type {unknown} */ (now)));
  else {
    button.hidden = false;
    status(now.message || 'The review stopped.');
  }
}

/** @param {Review} review */
function show(review) {
  state.review = review;
  state.byPlace = new Map(review.decisions.map((d) => [place(d.deal - 1, d.index), d]));
  $('#review-start').hidden = true;
  $('#review-progress').hidden = true;
  const labelled = review.decisions.filter((d) => d.label).length;
  status(`Reviewed: ${plural(review.decisions.length, 'decision')}, ${plural(labelled, 'move')} labelled.`);
  const names = state.hooks ? state.hooks.names : review.names;
  const t = review.thresholds;
  replace($('#review-about'),
    `Each decision judged by the search over up to ${review.worlds} deals dealt again from what its player could see (never the hidden cards). `,
    `A move that lost at least ${t.inaccuracy} expected deal points is an inaccuracy (?!), ${t.mistake} a mistake (?), ${t.blunder} a blunder (??). `,
    'Marked moves in the list take you to the position before them.');
  replace($('#review-seats'), h('table', { class: 'review-seats' },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Player'), h('th', { scope: 'col' }, 'Accuracy'),
      h('th', { scope: 'col' }, 'Points lost'), h('th', { scope: 'col' }, '?! ? ??'))),
    h('tbody', {}, review.seats.map((s) => h('tr', {},
      h('th', { scope: 'row' }, names[s.seat]),
      h('td', {}, s.accuracy === null ? '–' : `${Math.round(s.accuracy)}%`),
      h('td', {}, s.lost.toFixed(0)),
      h('td', {}, ['inaccuracy', 'mistake', 'blunder'].map((label) => s.labels[label] || 0).join(' ')))))));
  if (state.hooks) state.hooks.redraw();
}

/**
 * Mark a move of the move list with its label (the list's item for step ``index + 1``).
 * @param {HTMLElement} item
 * @param {number} deal
 * @param {number} index the move's index in the deal
 */
export function markMove(item, deal, index) {
  const decision = state.byPlace.get(place(deal, index));
  if (!decision || !decision.label || !state.hooks) return;
  const hooks = state.hooks;
  const who = hooks.names[decision.seat];
  const mark = h('button', { type: 'button', class: `review-mark ${decision.label}`,
    'aria-label': `${capital(decision.label)} by ${who}, ${Math.round(decision.loss)} points: show the better move` },
  MARKS[decision.label]);
  mark.addEventListener('click', () => hooks.goTo(deal, index));
  item.classList.add('labelled', decision.label);
  item.append(mark);
}

/**
 * Show the review at step ``step`` of deal ``deal``: the graph with its cursor, and the
 * decision taken from this position, if one was reviewed.
 * @param {number} deal
 * @param {number} step
 */
export function reviewAt(deal, step) {
  const detail = $('#review-detail');
  if (!state.review || !state.hooks) {
    detail.hidden = true;
    return;
  }
  drawGraph(deal, step);
  const decision = state.byPlace.get(place(deal, step));
  if (!decision) {
    detail.hidden = true;
    return;
  }
  const who = state.hooks.names[decision.seat];
  const points = (/** @type {number} */ n) => `${n >= 0 ? '+' : '−'}${Math.abs(n).toFixed(1)}`;
  const same = decision.move === decision.best;
  replace(detail,
    h('p', { class: 'review-played' }, h('strong', {}, `${who} played: `), describe(decision.move),
      ` (expected ${points(decision.move_points)} deal points)`),
    same ? h('p', {}, 'The search found nothing better.')
      : h('p', { class: 'review-better' }, h('strong', {}, 'Better: '), describe(decision.best),
        ` (expected ${points(decision.best_points)}): ${decision.loss.toFixed(1)} ± ${decision.error.toFixed(1)} points lost`,
        decision.label ? h('span', { class: `review-label ${decision.label}` }, `, ${decision.label} ${MARKS[decision.label]}`) : ' (too close to call a fault)',
        '.'),
    same || !decision.words ? null : h('p', { class: 'muted' }, capital(decision.words) + '.'));
  detail.hidden = false;
}

/**
 * @param {string} tag
 * @param {Record<string, string | number>} attrs
 * @param {...Element} children
 */
function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  el.append(...children);
  return el;
}

/**
 * The graph of deal ``deal``: each side's expected deal points at each of its decisions
 * (the best move's), the labelled moves marked, the position shown under a cursor.
 * @param {number} deal
 * @param {number} step
 */
function drawGraph(deal, step) {
  const review = /** @type {Review} */ (state.review);
  const names = state.hooks ? state.hooks.names : review.names;
  const own = review.decisions.filter((d) => d.deal === deal + 1);
  const figure = $('#review-graph');
  if (!own.length) {
    replace(figure, h('p', { class: 'muted' }, 'No decision of this deal was reviewed.'));
    return;
  }
  const width = 600;
  const height = 160;
  const pad = 8;
  const last = Math.max(step, ...own.map((d) => d.index + 1));
  const values = own.flatMap((d) => [d.best_points, d.move_points]);
  const top = Math.max(10, ...values);
  const bottom = Math.min(-10, ...values);
  const x = (/** @type {number} */ i) => pad + (i / Math.max(1, last)) * (width - 2 * pad);
  const y = (/** @type {number} */ v) => pad + ((top - v) / (top - bottom)) * (height - 2 * pad);
  const sides = [...new Set(own.map((d) => d.side))].sort();
  const parts = [svg('line', { x1: pad, x2: width - pad, y1: y(0), y2: y(0), class: 'zero' })];
  for (const side of sides) {
    const mine = own.filter((d) => d.side === side);
    parts.push(svg('polyline', { class: `series side-${side}`, points: mine.map((d) => `${x(d.index).toFixed(1)},${y(d.best_points).toFixed(1)}`).join(' ') }));
  }
  for (const d of own.filter((each) => each.label)) {
    parts.push(svg('circle', { class: `point ${d.label}`, cx: x(d.index).toFixed(1), cy: y(d.move_points).toFixed(1), r: 5 }));
  }
  parts.push(svg('line', { class: 'cursor', x1: x(step), x2: x(step), y1: pad, y2: height - pad }));
  const labelled = own.filter((d) => d.label).length;
  const sideNames = sides.map((side) => own.filter((d) => d.side === side).map((d) => names[d.seat])[0]);
  const said = `Deal ${deal + 1}: expected deal points at each decision of ${sideNames.join(' and ')}, `
    + `from ${bottom.toFixed(0)} to ${top.toFixed(0)}; ${plural(labelled, 'labelled move')}.`;
  const chart = svg('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': said, class: 'review-chart' });
  chart.append(...parts);
  replace(figure, chart,
    h('figcaption', {}, sides.map((side, i) => h('span', { class: `legend side-${side}` }, sideNames[i])),
      h('span', { class: 'muted' }, ` Expected deal points (${top.toFixed(0)} at the top, ${bottom.toFixed(0)} at the foot); dots: labelled moves.`)));
}
