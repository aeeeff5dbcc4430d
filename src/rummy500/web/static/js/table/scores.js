// The score table beside the game: each deal's scores with the running totals, the leader,
// and the points on the table this deal.

import { $, h } from '../dom.js';
import { updateChildren } from './inplace.js';
import { sideName, signed, standing, total } from '../words.js';
import { finishedDeal } from './dealend.js';
import { model, who } from './model.js';

/** More sides than this get a row each (a column each would not fit the panel or a phone). */
const WIDE = 4;

export function renderScores() {
  const s = model.state;
  if (!s) return;
  const sides = model.sides;
  const names = sides.map((_, side) => sideName(side, sides, model.names, model.seat));
  const table = sides.length > WIDE ? scoresByPlayer(names, s.deals || [], s.totals || []) : h('table', { class: 'scores' },
    h('caption', { class: 'sr-only' }, 'Scores by deal'),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Deal'), names.map((n) => h('th', { scope: 'col' }, n)))),
    h('tbody', {}, (s.deals || []).map((deal, i) => h('tr', {},
      h('th', { scope: 'row' }, String(i + 1)),
      deal.scores.map((score, side) => h('td', {}, h('span', { class: 'score' }, signed(score)), h('span', { class: 'running' }, ` ${total(deal.totals_after[side])}`)))))),
    h('tfoot', {}, h('tr', {}, h('th', { scope: 'row' }, 'Total'), (s.totals || []).map((t) => h('td', {}, total(t))))));
  updateChildren($('#scores'), table,
    h('p', { class: 'muted' }, standing(s, model.info.target_score)),
    onTable(s));
}

/**
 * The points each seat laid on the table: in the finished deal while it stays on the table,
 * else in the deal in play.
 * @param {import('../protocol.js').TableState} s
 */
function onTable(s) {
  const ended = finishedDeal(s);
  const points = ended ? ended.melded : s.credit;
  const when = ended ? `in deal ${ended.deal}` : 'this deal';
  return h('p', { class: 'muted small' }, `On the table ${when}: `,
    points.map((c, seat) => `${who(seat)} ${c}`).join(', '), '.');
}

/**
 * The scores with a row for each player: the deals' scores side by side (wrapping), then the total.
 * @param {string[]} names
 * @param {{ scores: number[] }[]} deals
 * @param {number[]} totals
 */
function scoresByPlayer(names, deals, totals) {
  return h('table', { class: 'scores by-player' },
    h('caption', { class: 'sr-only' }, 'Scores by player'),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Player'), h('th', { scope: 'col' }, 'Deals'), h('th', { scope: 'col' }, 'Total'))),
    h('tbody', {}, names.map((name, side) => h('tr', {},
      h('th', { scope: 'row' }, name),
      h('td', { class: 'deals' }, deals.length ? deals.map((deal, i) => h('span', { class: 'score', title: `Deal ${i + 1}` }, `${signed(deal.scores[side])} `)) : '—'),
      h('td', { class: 'total' }, total(totals[side] ?? 0))))));
}
