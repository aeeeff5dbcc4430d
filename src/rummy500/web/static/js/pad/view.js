// The score pad's game on screen: the totals, the past deals, the game's end, and the deal
// being entered or changed, with its cards, its sheet and what is wrong with it.

import { $, h, replace } from '../dom.js';
import { cardsView, cardGrid } from './grid.js';
import { isEmptyDeal, sideNames } from './model.js';
import { scoreGame, scoreDeal } from './score.js';
import { addPiece, deal, persist, takeBack, usedAt } from './entry.js';
import { state } from './state.js';

/** @typedef {import('./model.js').Pad} Pad */
/** @typedef {import('./score.js').Tables} Tables */
/** @typedef {import('./state.js').Target} Target */

const LINE_WORDS = /** @type {Record<string, string>} */ ({
  on_table: 'on the table', doubled: 'melds of four counted double', in_hand: 'in hand',
  hands_won: 'hand added to', going_out: 'going out', game_bonus: 'winning the game',
});

const fmt = (/** @type {number} */ n) => (n < 0 ? `−${-n}` : String(n));
export const signed = (/** @type {number} */ n) => (n > 0 ? `+${n}` : fmt(n));

export function changed() {
  persist();
  render();
}

// -- rendering --------------------------------------------------------------------------

export function render() {
  const pad = state.pad;
  $('#home').hidden = pad !== null || !$('#setup').hidden;
  if (!pad || !state.tables) return;
  $('#game').hidden = false;
  $('#setup').hidden = true;
  const tables = state.tables;
  const game = scoreGame(tables, pad.deals, pad.players);
  const sides = sideNames(tables, pad.players);
  renderTotals(pad, tables, game, sides);
  renderDeals(game, sides);
  renderEnd(pad, game, sides);
  renderEditor(pad, tables, game, sides);
  renderLog(pad);
  document.title = `Score pad: ${sides.join(', ')}`;
}

/**
 * @param {Pad} pad
 * @param {Tables} tables
 * @param {ReturnType<typeof scoreGame>} game
 * @param {string[]} sides
 */
function renderTotals(pad, tables, game, sides) {
  const best = Math.max(...game.totals);
  const target = tables.end.target;
  replace($('#totals'), ...sides.map((name, side) => h('li', {
    class: game.totals[side] === best && game.played ? 'leader' : '', dataset: { side: String(side), total: String(game.totals[side]) },
  }, h('span', { class: 'who' }, name), h('strong', { class: 'total' }, fmt(game.totals[side])))));
  const rules = `${pad.rules.preset}${Object.keys(pad.rules.options).length ? ' with house rules' : ''}`;
  const goal = target !== null ? `to ${target}` : `${tables.end.deal_limit} deals`;
  $('#pad-rules').textContent = `${rules}, ${goal}`;
}

/**
 * @param {ReturnType<typeof scoreGame>} game
 * @param {string[]} sides
 */
function renderDeals(game, sides) {
  replace($('#deals'), ...game.sheets.map((sheet, index) => h('li', {},
    h('button', {
      type: 'button', class: `deal-row${state.editing === index ? ' open' : ''}`, 'aria-pressed': String(state.editing === index),
      onclick: () => openPast(index),
    }, `Deal ${index + 1}: `, sheet.score.scores.map((s, side) => `${sides[side]} ${signed(s)}`).join(', ')))));
}

/**
 * @param {Pad} pad
 * @param {ReturnType<typeof scoreGame>} game
 * @param {string[]} sides
 */
function renderEnd(pad, game, sides) {
  const end = $('#game-end');
  end.hidden = !game.over;
  if (!game.over) return;
  replace($('#winner'), game.winner === null ? `The game is over: a draw at ${fmt(game.totals[0])}.`
    : `${sides[game.winner]} won the game with ${fmt(game.totals[game.winner])}.`);
  void pad;
}

/**
 * @param {Pad} pad
 * @param {Tables} tables
 * @param {ReturnType<typeof scoreGame>} game
 * @param {string[]} sides
 */
function renderEditor(pad, tables, game, sides) {
  const editor = $('#deal-editor');
  const entering = state.editing < 0;
  editor.hidden = entering && game.over;
  if (editor.hidden) return;
  const d = deal();
  const number = entering ? pad.deals.length + 1 : state.editing + 1;
  $('#deal-heading').textContent = `Deal ${number}: ${pad.players[d.dealer]} deals${entering ? '' : ' (changing)'}`;
  // Who and what the cards go to.
  replace($('#targets'), ...pad.players.map((name, seat) => h('div', { class: 'target-row', role: 'group', 'aria-label': name },
    h('span', { class: 'target-name' }, name, d.went_out === seat ? h('span', { class: 'out-tag' }, ' out') : null),
    targetButton({ kind: 'meld', seat }, 'melds'),
    targetButton({ kind: 'hand', seat }, 'hand'))));
  const target = state.target;
  const what = target.kind === 'hand' ? `${pad.players[target.seat]}'s hand`
    : target.kind === 'layoff' ? `${pad.players[target.seat]}'s lay-off on meld ${target.on}`
      : `${pad.players[target.seat]}'s melds`;
  $('#target-words').textContent = state.jokerPending ? 'Tap the card the joker stands for.' : `Cards go to ${what}.`;
  replace($('#grid'), cardGrid(tables, (piece) => tap(piece), (card) => usedAt(card).length));
  // What is entered, seat by seat.
  const score = scoreDeal(tables, d, pad.players);
  replace($('#entered'), ...pad.players.map((name, seat) => h('li', { class: 'entered-seat' },
    h('span', { class: 'target-name' }, name, ':'),
    d.points[seat] !== null ? h('span', {}, ` ${fmt(/** @type {number} */ (d.points[seat]))} points given`) : null,
    d.melds.map((m, index) => (m.seat === seat ? h('span', { class: `meld-entry${score.meldProblems[index] ? ' wrong' : ''}` },
      h('span', { class: 'meld-no' }, `m${index + 1}`),
      cardsView(m.cards, (pos) => { takeBack('meld', index, pos); changed(); }),
      d.layoffs.map((l, li) => (l.on === index + 1 ? h('span', { class: 'layoff' }, `+ ${pad.players[l.seat]}: `,
        cardsView(l.cards, (pos) => { takeBack('layoff', li, pos); changed(); })) : null)),
      h('button', {
        type: 'button', class: 'quiet small', 'aria-label': `Lay off on meld ${index + 1} for ${pad.players[state.target.seat]}`,
        onclick: () => { state.target = { kind: 'layoff', seat: state.target.seat, on: index + 1 }; state.openMeld = null; render(); },
      }, 'lay off here')) : null)),
    d.hands[seat].length ? h('span', { class: 'hand-entry' }, h('span', { class: 'meld-no' }, 'hand'),
      cardsView(d.hands[seat], (pos) => { takeBack('hand', seat, pos); changed(); })) : null)));
  // Who went out.
  const out = /** @type {HTMLSelectElement} */ ($('#went-out'));
  replace(out, h('option', { value: '' }, 'Nobody (the stock ran out)'),
    ...pad.players.map((name, seat) => h('option', { value: String(seat) }, name)));
  out.value = d.went_out === null ? '' : String(d.went_out);
  // Points given as numbers.
  replace($('#points'), ...pad.players.map((name, seat) => h('label', { class: 'points-field' }, `${name} `,
    h('input', {
      type: 'number', inputmode: 'numeric', step: '1', value: d.points[seat] === null ? '' : String(d.points[seat]),
      'aria-label': `${name}'s points for the deal, counted by hand`, dataset: { seat: String(seat) },
    }))));
  // The sheet, live.
  const sheet = entering ? score : game.sheets[state.editing] ? scoreDeal(tables, d, pad.players) : score;
  replace($('#sheet-lines'), ...sheet.lines.map((line) => h('li', { class: line.what },
    h('span', {}, line.seat === null ? `${sides[line.side]}: ${LINE_WORDS[line.what]}`
      : line.what === 'hands_won' ? `${pad.players[line.seat]}: ${LINE_WORDS[line.what]} ${sides[line.side]}`
        : `${pad.players[line.seat]}: ${LINE_WORDS[line.what] || line.what}`),
    h('span', { class: 'points' }, signed(line.points)))));
  replace($('#sheet-scores'), ...sheet.scores.map((s, side) => h('li', { dataset: { side: String(side), score: String(s) } },
    h('span', {}, sides[side]), h('strong', {}, signed(s)))));
  const problems = [...score.problems];
  d.points.forEach((p, seat) => {
    if (p !== null && (d.hands[seat].length || d.melds.some((m) => m.seat === seat) || d.layoffs.some((l) => l.seat === seat))) {
      problems.push(`${pad.players[seat]} has cards entered and points given: clear one of them`);
    }
  });
  replace($('#problems'), ...problems.map((p) => h('li', {}, p)));
  $('#message').textContent = state.message;
  const done = /** @type {HTMLButtonElement} */ ($('#deal-done'));
  done.textContent = entering ? 'Deal done' : 'Save changes';
  done.setAttribute('aria-disabled', String(problems.length > 0 || (entering && isEmptyDeal(d))));
  $('#cancel-edit').hidden = entering;
  $('#new-meld').setAttribute('aria-disabled', String(state.target.kind !== 'meld'));
  /** @type {HTMLButtonElement} */ ($('#undo')).disabled = state.undo.length === 0;
}

/**
 * @param {Target} target
 * @param {string} label
 */
function targetButton(target, label) {
  const t = state.target;
  const on = t.kind === target.kind && t.seat === target.seat;
  const name = /** @type {Pad} */ (state.pad).players[target.seat];
  return h('button', {
    type: 'button', class: 'target', 'aria-pressed': String(on), id: `target-${target.kind}-${target.seat}`,
    'aria-label': `${name}: ${label}`,
    onclick: () => { state.target = target; state.openMeld = null; state.jokerPending = false; render(); },
  }, label);
}

/** @param {Pad} pad */
function renderLog(pad) {
  $('#log-section').hidden = pad.log.length === 0;
  replace($('#log'), ...pad.log.map((entry) => h('li', {}, `${new Date(entry.at).toLocaleString()}: ${entry.text}`)));
}

/**
 * A card of the grid tapped.
 * @param {string} piece
 */
function tap(piece) {
  const tables = /** @type {Tables} */ (state.tables);
  if (piece === '*' && tables.jokers === 'wild' && state.target.kind !== 'hand') {
    state.jokerPending = !state.jokerPending;
    render();
    return;
  }
  const taken = addPiece(state.jokerPending && piece !== '*' ? `*=${piece}` : piece);
  if (taken) state.jokerPending = false;
  changed();
  const again = document.getElementById(`card-${piece === '*' ? 'joker' : piece}`);
  if (again) again.focus();
}

// -- a past deal opened to be changed -------------------------------------------------

/** @param {number} index */
function openPast(index) {
  const pad = /** @type {Pad} */ (state.pad);
  if (state.editing === index) {
    closeEditor();
    return;
  }
  state.editing = index;
  state.draft = structuredClone(pad.deals[index]);
  state.wentOutChosen = true;
  state.openMeld = null;
  state.target = { kind: 'meld', seat: 0 };
  render();
  $('#deal-editor').scrollIntoView({ block: 'start' });
  $('#deal-heading').focus();
}

export function closeEditor() {
  state.editing = -1;
  state.draft = null;
  state.wentOutChosen = false;
  state.openMeld = null;
  render();
}
