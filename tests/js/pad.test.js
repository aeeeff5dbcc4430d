// The score pad page's own modules: cards typed in the notation, the pad's file written and
// read back, the CSV, and the look-ups of score.js on a small table written here by hand (the
// engine's real tables are checked against the engine by tests/test_pad_page.py).

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { fromFile, parseCards, parsePiece, toCsv, toFile } from '../../src/rummy500/web/static/js/pad/model.js';
import { couldGrow, meldKey, scoreDeal } from '../../src/rummy500/web/static/js/pad/score.js';

test('cards are read in every way the notation writes them', () => {
  assert.equal(parsePiece('10s'), 'Ts');
  assert.equal(parsePiece('a♠'), 'As');
  assert.equal(parsePiece('*=6H'), '*=6h');
  assert.equal(parsePiece('*'), '*');
  assert.equal(parsePiece('1s'), null);
  assert.equal(parsePiece('*=*'), null);
  assert.deepEqual(parseCards('7h, 7d  7s'), { cards: ['7h', '7d', '7s'], bad: null });
  assert.deepEqual(parseCards('7h Zz 7s'), { cards: ['7h'], bad: 'Zz' });
});

test('a pad file is read back as it was written', () => {
  const file = {
    format: 'rummy500-pad', version: 1, rules: { preset: 'persian', options: { target_score: 300 } },
    players: ['Ann', 'Bob', 'Cy', 'Di'],
    deals: [{
      dealer: 0, went_out: 2, melds: [{ seat: 0, cards: '7h 7d 7s' }, { seat: 2, cards: '4c 5c 6c' }],
      layoffs: [{ seat: 1, cards: '7c', on: 1 }], hands: ['Kd', '5d Qs', '', '9d 9s Jh'], points: [null, null, null, null],
    }],
  };
  const pad = fromFile(file);
  assert.deepEqual(toFile(pad), file);
  assert.equal(pad.current.dealer, 1);
  assert.throws(() => fromFile({ ...file, players: ['Ann'] }), /2 to 8 names/);
  assert.throws(() => fromFile({ format: 'other' }), /not a score pad file/);
  assert.throws(() => fromFile({ ...file, deals: [{ ...file.deals[0], hands: ['Zz', '', '', ''] }] }),
    /deal 1, hand 0: "Zz" is not a card/);
});

test('the CSV has a row a deal, names quoted where they need it', () => {
  const csv = toCsv(['Ann, the elder', 'Bob'], [{ score: { scores: [10, -5] }, totalsAfter: [10, -5] }]);
  assert.equal(csv, 'deal,"Ann, the elder score",Bob score,"Ann, the elder total",Bob total\n1,10,-5,10,-5\n');
});

const TABLES = {
  format: 'rummy500-pad-tables', rules: { preset: 'classic' }, players: 2, decks: 1, jokers: 'none',
  copies: { '7h': 1, '7d': 1, '7s': 1, '7c': 1, Kd: 1 }, in_hand: { '7h': 7, '7d': 7, '7s': 7, '7c': 7, Kd: 10 },
  joker_on_table: 0, min_natural: 0,
  melds: { '7c 7d 7h': { kind: 'set', points: [7, 7, 7], doubles: false },
    '7c 7d 7h 7s': { kind: 'set', points: [7, 7, 7, 7], doubles: false },
    '7d 7h 7s': { kind: 'set', points: [7, 7, 7], doubles: false } },
  sides: [0, 1], side_count: 2,
  sheets: { none: [], 1: [
    { seat: 0, side: 0, what: 'on_table', from: 'on_table', of: 0, sign: 1 },
    { seat: 0, side: 0, what: 'in_hand', from: 'in_hand', of: 0, sign: -1 },
    { seat: 1, side: 1, what: 'on_table', from: 'on_table', of: 1, sign: 1 },
    { seat: 1, side: 1, what: 'in_hand', from: 'in_hand', of: 1, sign: -1 }] },
  end: { target: 500, deal_limit: 50, dead_deals: 3, final_bonus: 0 },
};

test('a deal is scored by looking its melds up whole, each card to whoever laid it', () => {
  assert.equal(meldKey(['7s', '7h', '7d']), '7d 7h 7s');
  assert.ok(couldGrow(TABLES, ['7h', '7d']));
  assert.ok(!couldGrow(TABLES, ['7h', 'Kd']));
  const deal = { dealer: 0, went_out: 1, melds: [{ seat: 1, cards: ['7h', '7d', '7s'] }],
    layoffs: [{ seat: 0, on: 1, cards: ['7c'] }], hands: [['Kd'], []], points: [null, null] };
  const score = scoreDeal(TABLES, deal, ['Ann', 'Bob']);
  assert.deepEqual(score.scores, [7 - 10, 21]);
  assert.deepEqual(score.problems, []);
  const twice = { ...deal, hands: [['Kd', '7h'], []] };
  assert.deepEqual(scoreDeal(TABLES, twice, ['Ann', 'Bob']).problems,
    ['7h is entered 2 times, and the pack holds it once']);
  const given = { ...deal, layoffs: [], hands: [[], []], points: [40, null] };
  assert.deepEqual(scoreDeal(TABLES, given, ['Ann', 'Bob']).scores, [40, 21]);
});
