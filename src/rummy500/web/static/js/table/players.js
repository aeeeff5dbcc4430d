// The seats around the table, each panel in its place (around.js: the viewer at the foot, the
// seat opposite at the top), saying name, side, dealer, cards in hand, points on the table, who
// is here; and the status line saying whose turn it is and what they may do.

import { seatBadge } from '../board.js';
import { cardBack, pretty } from '../cards.js';
import { $, h, plural } from '../dom.js';
import { drawInPlace, setText } from './inplace.js';
import { sideOfSeat, standing } from '../words.js';
import { shortMove } from '../recent.js';
import { dealNumber, model, myTurn, who } from './model.js';
import { lastMoveOf } from './recent.js';
import { narrowGrid, seatPlaces, wideGrid, wideRows } from './around.js';

/** @typedef {import('../protocol.js').SeatEntry} SeatEntry */
/** @typedef {import('../protocol.js').TableState} TableState */

/**
 * Where a seat's person is, or which computer plays it.
 * @param {SeatEntry} entry
 */
function presenceOf(entry) {
  if (entry.left) return 'left the table: a computer plays the seat';
  if (entry.kind === 'bot') return `computer${entry.bot ? ` (${entry.bot})` : ''}`;
  if (entry.connected) return 'here';
  if (entry.standin) return 'away: a computer plays for them';
  return model.summary && model.summary.takeover_s === 0
    ? 'away' : 'away (a computer plays for them if they stay away)';
}

export function renderPlayers() {
  const s = model.state;
  if (!s) return;
  const box = $('#players');
  // Five seats and more: narrower panels (seats.css).
  box.classList.toggle('many', s.players >= 5);
  setTableGrid(s.players);
  // Drawn in place: the panels of seats whose facts did not change are not written.
  drawInPlace(box, (panels) => drawPanels(panels, s));
}

/**
 * @param {HTMLElement} box
 * @param {TableState} s
 */
function drawPanels(box, s) {
  const me = model.seat;
  const sides = model.sides;
  const areas = new Map(seatPlaces(s.players, me).map((place) => [place.seat, place]));
  // Read in the order of play from the viewer's left, the viewer last.
  const order = [];
  const start = me === null ? 0 : (me + 1) % s.players;
  for (let i = 0; i < s.players; i += 1) order.push((start + i) % s.players);
  const mySide = me === null ? -1 : sideOfSeat(me, sides);
  for (const seat of order) {
    const place = areas.get(seat);
    /** @type {SeatEntry} */
    const entry = (s.seats || [])[seat] || {};
    const side = sideOfSeat(seat, sides);
    const partner = sides[side] && sides[side].length > 1 && side === mySide && seat !== me;
    const tags = [];
    if (seat === me) tags.push(h('span', { class: 'tag you' }, 'you'));
    if (partner) tags.push(h('span', { class: 'tag partner' }, 'partner'));
    else if (sides[side] && sides[side].length > 1) tags.push(h('span', { class: `tag side side-${side}` }, `side ${'AB'[side] || side + 1}`));
    if (seat === s.dealer) tags.push(h('span', { class: 'tag dealer', title: 'dealer' }, 'dealer'));
    const presence = presenceOf(entry);
    const turn = s.turn === seat && !s.over;
    const count = s.hand_sizes[seat];
    const last = lastMoveOf(seat);
    const panel = h('div', {
      class: `player${turn ? ' turn' : ''}${seat === me ? ' me' : ''}${partner ? ' partner' : ''}${entry.connected === false && entry.kind !== 'bot' ? ' away' : ''}`,
      'aria-label': `${model.names[seat]}${seat === me ? ' (you)' : ''}: ${plural(count, 'card')} in hand, ${s.credit[seat]} on the table${turn ? ', to play' : ''}; ${presence}${last ? `; last move: ${shortMove(last)}` : ''}`,
      role: 'group',
      dataset: { seat: String(seat), at: place ? place.side : '' },
    },
    h('div', { class: 'player-head' }, seatBadge(seat, model.marks, model.names), h('span', { class: 'player-name' }, model.names[seat]), turn ? h('span', { class: 'turn-mark', 'aria-hidden': 'true' }, '▶') : null),
    h('div', { class: 'player-tags' }, tags),
    h('div', { class: 'player-facts' },
      h('span', { class: 'count' }, cardBack('mini'), ` ${count}`),
      h('span', { class: 'credit', title: 'points on the table this deal' }, String(s.credit[seat]), h('span', { class: 'word' }, ' on the table'))),
    h('div', { class: 'last-move', title: last ? `last move: ${shortMove(last)}` : null },
      last ? shortMove(last) : (turn ? 'to play' : '')),
    h('div', { class: `presence ${entry.kind === 'bot' ? 'bot' : entry.connected ? 'here' : 'gone'}`, title: presence }, presence));
    // Set through the style object: the page's policy refuses style attributes.
    if (place) panel.style.gridArea = place.panel;
    box.append(panel);
  }
}

/**
 * The table's grid for `players` seats, on a wide screen and on a phone (seats.css reads them).
 * @param {number} players
 */
function setTableGrid(players) {
  const board = $('#play > .board');
  if (!board || board.dataset.players === String(players)) return;
  board.dataset.players = String(players);
  board.classList.add('around');
  // Up to four seats the table has room for larger cards (seats.css).
  $('#play').classList.toggle('few-seats', players <= 4);
  board.style.setProperty('--wide-areas', wideGrid(players));
  board.style.setProperty('--wide-rows', wideRows(players));
  board.style.setProperty('--narrow-areas', narrowGrid(players));
}

/** @param {TableState} s */
function phaseWords(s) {
  if (s.over) return `The game is over. ${standing(s)}`;
  const mine = myTurn();
  const name = who(s.turn);
  if (s.phase === 'draw') {
    return mine ? 'Your turn: draw from the stock, or take a card from the pile (with every card above it).'
      : `${name} to draw.`;
  }
  if (s.phase === 'play') {
    if (mine) {
      const must = s.must_use ? ` You must use ${pretty(s.must_use)} this turn.` : '';
      return `Your turn: meld and lay off as you like, then discard.${must}`;
    }
    return `${name} to play${s.must_use ? ` (must use ${pretty(s.must_use)})` : ''}.`;
  }
  if (s.phase === 'rummy') {
    return mine ? 'Rummy! You may claim cards from the pile that meld or lay off, or pass.'
      : `${name} may call rummy.`;
  }
  return '';
}

export function renderStatus() {
  const s = model.state;
  if (!s) return;
  setText($('#status'), `Deal ${dealNumber(s)}. ${phaseWords(s)}`);
  $('#status').classList.toggle('yours', myTurn());
}
