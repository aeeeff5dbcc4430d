// The table page's model: names shown, deals, the selection kept across states
// (src/rummy500/web/static/js/table/model.js), and the seats' marks (board.js).

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { seatMarks } from '../../src/rummy500/web/static/js/board.js';
import {
  applyState, clearSelected, dealNumber, hasDeal, indexesOf, model, myTurn, seatLabel,
  selectedCards, setSummary, shownNames, sitAs, sortedHand, toggleSelected, toggleSort, who,
} from '../../src/rummy500/web/static/js/table/model.js';

function state(over = {}) {
  return {
    phase: 'play', turn: 0, dealer: 1, players: 2, deal: 1, hand: ['Kd', '2c', 'Ah'], hand_sizes: [3, 7],
    pile: [], stock: 20, melds: [], credit: [0, 0], legal: ['discard Kd'],
    seats: [{ kind: 'person', name: 'Ann' }, { kind: 'bot', bot: 'expert', name: 'Expert' }],
    ...over,
  };
}

test('seats without a name are called by their number; equal names get their seats', () => {
  assert.equal(seatLabel(0, { kind: 'person', name: 'Ann' }), 'Ann');
  assert.equal(seatLabel(1, { kind: 'bot' }), 'Computer 2');
  assert.equal(seatLabel(2, undefined), 'Seat 3');
  assert.deepEqual(shownNames([{ name: 'Expert' }, { name: 'Ann' }, { name: 'Expert' }]),
    ['Expert 1', 'Ann', 'Expert 3']);
});

test('seat marks are initials, numbered when two are alike', () => {
  assert.deepEqual(seatMarks(['Ann Lee', 'Bob', 'Bo']), ['AL', 'B2', 'B3']);
});

test('a state has a deal once dealt; the deal number counts finished deals', () => {
  assert.equal(hasDeal(state()), true);
  assert.equal(hasDeal(state({ phase: 'waiting' })), false);
  assert.equal(hasDeal(state({ dealer: null })), false);
  assert.equal(hasDeal(null), false);
  assert.equal(dealNumber(state({ deals: [{}, {}] })), 3);
  assert.equal(dealNumber(state({ deals: [{}, {}], over: true })), 2);
});

test('cards are found again in a new hand, each once', () => {
  assert.deepEqual(indexesOf(['7h', '2c'], ['2c', '7h', '9s']), [1, 0]);
  assert.deepEqual(indexesOf(['7h', '7h'], ['7h', '9s']), [0]);
  assert.deepEqual(indexesOf(['Qs'], ['7h']), []);
});

test('the selection follows its cards through new states and sorting, not a new deal', () => {
  setSummary({ status: 'playing', players: 2, seats: [] });
  sitAs(0, 'token');
  applyState(state(), 1);
  assert.deepEqual(sortedHand(), ['2c', 'Kd', 'Ah']);
  assert.equal(myTurn(), true);
  assert.equal(who(0), 'You');
  assert.equal(who(1), 'Expert');
  toggleSelected(1);
  assert.deepEqual(selectedCards(), ['Kd']);
  applyState(state({ hand: ['Kd', '2c', 'Ah', '3c'] }), 2);
  assert.deepEqual(selectedCards(), ['Kd']);
  toggleSort();
  assert.equal(model.sort, 'rank');
  assert.deepEqual(selectedCards(), ['Kd']);
  applyState(state({ deal: 2, hand: ['Kd', '2c'] }), 3);
  assert.deepEqual(selectedCards(), [], 'a new deal clears the selection');
  toggleSelected(0);
  toggleSelected(0);
  assert.deepEqual(model.selected, []);
  toggleSelected(1);
  clearSelected();
  assert.deepEqual(model.selected, []);
  applyState(state({ turn: 1 }), 4);
  assert.equal(myTurn(), false);
});
