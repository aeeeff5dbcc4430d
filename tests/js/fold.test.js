// Version 3's updates folded into the state held (js/fold.js): the page keeps the same state
// the server would send whole.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { fold, follows } from '../../src/rummy500/web/static/js/fold.js';

test('set replaces whole values and append extends lists, leaving the old state alone', () => {
  const before = { turn: 0, hand: ['7h'], history: [{ text: 'a' }], deals: [], legal: ['draw'] };
  const after = fold(before, {
    set: { turn: 1, legal: null }, append: { history: [{ text: 'b' }], deals: [{ deal: 1 }] },
  });
  assert.deepEqual(after, {
    turn: 1, hand: ['7h'], history: [{ text: 'a' }, { text: 'b' }], deals: [{ deal: 1 }], legal: null,
  });
  assert.deepEqual(before.history, [{ text: 'a' }]);
  assert.equal(before.turn, 0);
});

test('a new deal sets its history in place of the last deal\'s', () => {
  const before = { deal: 1, history: [{ text: 'Deal 1' }, { text: 'x' }] };
  const after = fold(before, { set: { deal: 2, history: [{ text: 'Deal 2' }] }, append: {} });
  assert.deepEqual(after.history, [{ text: 'Deal 2' }]);
});

test('an update follows only the change right after the one held', () => {
  assert.equal(follows(4, { seq: 5 }), true);
  assert.equal(follows(4, { seq: 6 }), false);
  assert.equal(follows(4, { seq: 4 }), false);
  assert.equal(follows(-1, { seq: 0 }), false);
});
