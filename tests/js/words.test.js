// The words the page makes itself: move texts in parts, hints, sides and the standing
// (src/rummy500/web/static/js/words.js). The log's and the sheets' words come from the server.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  capital, describe, moveParts, sideName, sideOfSeat, sidesOf, signed, standing, total,
} from '../../src/rummy500/web/static/js/words.js';

/** A state with the fields the words read; `over` overrides them. */
function state(over = {}) {
  return {
    phase: 'play', turn: 0, dealer: 2, players: 3, deal: 1, hand: ['2c', '9h'], hand_sizes: [2, 7, 7],
    pile: ['4d', '9s', 'Kc'], stock: 20, melds: [], credit: [0, 0, 0], deals: [], totals: [0, 0, 0],
    ...over,
  };
}

test('a move is split into its kind, cards and meld', () => {
  assert.deepEqual(moveParts('meld 7h 7d 7s'), { kind: 'meld', cards: ['7h', '7d', '7s'], meld: null });
  assert.deepEqual(moveParts('layoff 8h m2'), { kind: 'layoff', cards: ['8h'], meld: 'm2' });
  assert.deepEqual(moveParts('rummy layoff *=9s m3'), { kind: 'rummy layoff', cards: ['*=9s'], meld: 'm3' });
  assert.deepEqual(moveParts('  draw '), { kind: 'draw', cards: [], meld: null });
});

test('a hint is described as advice', () => {
  const advice = {
    draw: 'draw from the stock',
    'take 7h/2': 'take 7♥ from the pile',
    'meld 5c 6c *=7c': 'meld 5♣ 6♣ joker(7♣)', // as the log writes a meld
    'layoff *=9s m3': 'lay off joker as 9♠ on m3', // and a lay-off
    'layoff 8h m2': 'lay off 8♥ on m2',
    'discard *': 'discard joker',
    end: 'take nothing from the pile (ending the deal)',
    shout: 'shout',
  };
  for (const [move, words] of Object.entries(advice)) assert.equal(describe(move), words);
});

test('scores are signed with a minus sign; words start with a capital', () => {
  assert.deepEqual([35, -10, 0].map(signed), ['+35', '−10', '0']);
  assert.deepEqual([35, -10, 0].map(total), ['35', '−10', '0']);
  assert.deepEqual(['you went out', ''].map(capital), ['You went out', '']);
});

test('sides: a side per seat, or partners, named with "You" first', () => {
  assert.deepEqual(sidesOf(3, []), [[0], [1], [2]]);
  assert.deepEqual(sidesOf(4, [[0, 2], [1, 3]]), [[0, 2], [1, 3]]);
  const names = ['Ann', 'Bob', 'Cy', 'Di'];
  assert.equal(sideName(0, [[0, 2], [1, 3]], names, 2), 'You & Ann');
  assert.equal(sideName(1, [[0, 2], [1, 3]], names, 2), 'Bob & Di');
  assert.equal(sideOfSeat(3, [[0, 2], [1, 3]]), 1);
});

test('the standing is the one of the last sheet, as the server wrote it', () => {
  assert.equal(standing(state({ deals: [] }), 500), 'Level at 0 each (to 500).');
  const sheet = { standing: 'Bob leads with 90 (to 500).' };
  assert.equal(standing(state({ deals: [{ standing: 'Level at 0 each.' }, sheet] })), 'Bob leads with 90 (to 500).');
});
