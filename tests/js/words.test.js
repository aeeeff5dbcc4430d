// The table in plain words: moves as the log says them, hints, sides, deal endings and the
// winner (src/rummy500/web/static/js/words.js).

import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  YOU, capital, dealEnding, describe, moveLine, moveParts, outcomeLine, runningTotals, sideName,
  sideOfSeat, sidesOf, signed, verb,
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

test('verbs agree with "You"', () => {
  assert.equal(verb(YOU, 'draws'), 'draw');
  assert.equal(verb(YOU, 'lays off'), 'lay off');
  assert.equal(verb('Ann', 'lays off'), 'lays off');
});

test('a draw names the card only to the one who drew it', () => {
  const before = state({ phase: 'draw' });
  const after = state({ hand: ['2c', '9h', 'Qs'] });
  assert.equal(moveLine(YOU, 0, 'draw', before, after), 'You draw Q♠ from the stock.');
  assert.equal(moveLine('Ann', 0, 'draw', null, null), 'Ann draws from the stock.');
});

test('a deep take lists the cards above it and the card to use', () => {
  const before = state({ phase: 'draw' });
  const after = state({ must_use: '4d', turn: 1 });
  assert.equal(moveLine('Bob', 1, 'take 4d', before, after),
    'Bob takes 4♦ and the 2 cards above it (9♠ K♣) from the pile, and must use 4♦ this turn.');
  assert.equal(moveLine(YOU, 0, 'take Kc', before, state()), 'You take K♣ from the pile.');
  assert.equal(moveLine(YOU, 0, 'take 4d', null, null), 'You take 4♦ from the pile.');
});

test('melds and lay-offs say their meld and points; going out is said', () => {
  const before = state();
  const after = state({ melds: [{ id: 'm1', cards: ['7h', '7d', '7s'], by: [0, 0, 0] }], credit: [21, 0, 0] });
  assert.equal(moveLine(YOU, 0, 'meld 7h 7d 7s', before, after), 'You meld 7♥ 7♦ 7♠ (m1, 21 points).');
  const laid = state({ melds: after.melds, credit: [21, 7, 0] });
  assert.equal(moveLine('Bob', 1, 'layoff 7c m1', after, laid), 'Bob lays off 7♣ on m1 (7 points).');
  assert.equal(moveLine('Bob', 1, 'rummy layoff 7c m1', null, null), 'Bob calls rummy and lays off 7♣ from the pile on m1.');
  const ended = state({ deals: [{ scores: [1, 2, 3], melded: [0, 0, 0], in_hand: [0, 0, 0], went_out: 0 }] });
  assert.equal(moveLine(YOU, 0, 'discard 9h', before, ended), 'You discard 9♥, and go out.');
  assert.equal(moveLine('Ann', 0, 'pass', null, null), 'Ann passes (no rummy call).');
  assert.equal(moveLine('Ann', 0, 'end', null, null), 'Ann takes nothing from the pile, which ends the deal.');
});

test('a hint is described as advice', () => {
  const advice = {
    draw: 'draw from the stock',
    'take 7h/2': 'take 7♥ from the pile',
    'meld 5c 6c *=7c': 'meld 5♣ 6♣ joker as 7♣',
    'layoff 8h m2': 'lay off 8♥ on m2',
    'discard *': 'discard joker',
    end: 'take nothing from the pile (ending the deal)',
    shout: 'shout',
  };
  for (const [move, words] of Object.entries(advice)) assert.equal(describe(move), words);
});

test('scores are signed with a minus sign; words start with a capital', () => {
  assert.deepEqual([35, -10, 0].map(signed), ['+35', '−10', '0']);
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

test('running totals add each deal', () => {
  assert.deepEqual(runningTotals([{ scores: [10, -5] }, { scores: [20, 30] }], 2), [[10, -5], [30, 25]]);
});

test('the deal ending and the leader or winner', () => {
  const names = ['Ann', 'Bob', 'Cy'];
  const sides = [[0], [1], [2]];
  assert.equal(dealEnding({ went_out: 1 }, names, 1), 'You went out');
  assert.equal(dealEnding({ went_out: null }, names, 1), 'nobody went out');
  assert.equal(outcomeLine(state({ totals: [40, 90, 10] }), sides, names, 0, 500), 'Bob leads with 90 (to 500).');
  assert.equal(outcomeLine(state({ totals: [90, 90, 10] }), sides, names, 0), 'You and Bob lead with 90.');
  assert.equal(outcomeLine(state({ totals: [0, 0, 0] }), sides, names, 0, 500), 'Level at 0 each (to 500).');
  assert.equal(outcomeLine(state({ over: true, winner: 0, totals: [510, 290, 10] }), sides, names, 0),
    'You win the game by 220 points.');
  assert.equal(outcomeLine(state({ over: true, winner: 1, totals: [510, 511, 10] }), sides, names, 0),
    'Bob wins the game by 1 point.');
  assert.equal(outcomeLine(state({ over: true, winner: null }), sides, names, 0), 'The game is a draw.');
});
