// The pure functions of the table's features (issue 20): each seat's last move and the cards
// just drawn (recent.js), the hand in the viewer's own order (handorder.js), the cards that
// can meld (meldable.js), and the settings read back from storage (settings.js).

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { arrangeHand, dropIndex, moveCard } from '../../src/rummy500/web/static/js/handorder.js';
import { meldableFaces } from '../../src/rummy500/web/static/js/meldable.js';
import { readLegal } from '../../src/rummy500/web/static/js/moves.js';
import { freshCards, lastMoves, newCards, shortMove } from '../../src/rummy500/web/static/js/recent.js';
import { DEFAULTS, readSettings } from '../../src/rummy500/web/static/js/settings.js';

test('each seat’s last move is the last history entry that names it', () => {
  const history = [
    { deal: 1, dealer: 1, text: 'Deal 1: Bo deals.' },
    { seat: 2, move: 'take 7h', text: 'Cy takes 7♥ from the pile' },
    { seat: 2, move: 'discard 2c', text: 'Cy discards 2♣' },
    { seat: 0, move: 'draw', text: 'You draw 5♣ from the stock', drawn: '5c' },
    { seat: 0, move: 'rummy meld 9h Th Jh', text: 'x' },
    { seat: 0, move: 'discard Kd', text: 'You discard K♦' },
    { seat: 1, move: 'draw', text: 'Bo draws from the stock' },
  ];
  assert.deepEqual(lastMoves(history, 3), ['discard Kd', 'draw', 'discard 2c']);
  assert.deepEqual(lastMoves([], 2), [null, null]);
});

test('moves in a few words', () => {
  assert.equal(shortMove('draw'), 'drew from the stock');
  assert.equal(shortMove('take 7h/2'), 'took 7♥');
  assert.equal(shortMove('meld 5s 6s 7s'), 'melded 5♠ 6♠ 7♠');
  assert.equal(shortMove('layoff Th m2'), 'laid off 10♥ on m2');
  assert.equal(shortMove('discard *'), 'discarded joker');
  assert.equal(shortMove('end'), 'took nothing');
  assert.equal(shortMove('rummy layoff 8c m1'), 'rummy! laid off 8♣ on m1');
});

test('the card just drawn is marked until the viewer’s next move, and a new deal clears it', () => {
  const before = { deal: 1, hand: ['2c', '7h'] };
  const drew = { deal: 1, hand: ['2c', '7h', 'Kd'] };
  assert.deepEqual(newCards(drew.hand, before.hand), ['Kd']);
  assert.deepEqual(freshCards(before, drew, 'draw', 'discard 9s', []), ['Kd']);
  // Another seat moves: the mark stays.
  assert.deepEqual(freshCards(drew, drew, 'draw', 'draw', ['Kd']), ['Kd']);
  // The viewer discards: gone.
  assert.deepEqual(freshCards(drew, { deal: 1, hand: ['2c', '7h'] }, 'discard Kd', 'draw', ['Kd']), []);
  assert.deepEqual(freshCards(drew, { deal: 2, hand: ['3c'] }, null, 'draw', ['Kd']), []);
  // A take marks every card taken.
  assert.deepEqual(freshCards(before, { deal: 1, hand: ['2c', '7h', '9s', '9d'] }, 'take 9s', null, []), ['9s', '9d']);
});

test('the hand in the viewer’s order, new cards after it', () => {
  const hand = ['Kd', '2c', 'Ah', '7s'];
  assert.deepEqual(arrangeHand(hand, 'suit', null), ['2c', 'Kd', 'Ah', '7s']);
  assert.deepEqual(arrangeHand(hand, 'suit', ['7s', 'Kd', 'Qs']), ['7s', 'Kd', '2c', 'Ah']);
  assert.deepEqual(arrangeHand(['*', '*', '3h'], 'suit', ['*', '3h']), ['*', '3h', '*']);
});

test('a card moved, and where a drop lands', () => {
  assert.deepEqual(moveCard(['a', 'b', 'c', 'd'], 0, 3), ['b', 'c', 'd', 'a']);
  assert.deepEqual(moveCard(['a', 'b', 'c', 'd'], 3, 1), ['a', 'd', 'b', 'c']);
  assert.deepEqual(moveCard(['a', 'b'], 5, 0), ['a', 'b']);
  assert.equal(dropIndex(0, 3, true), 3); // after the last of four: the end
  assert.equal(dropIndex(3, 1, false), 1); // before the second
  assert.equal(dropIndex(1, 2, false), 1); // just after itself: no move
});

test('the cards of the legal melds, a declared joker as a joker', () => {
  const info = readLegal(['discard 2c', 'meld 5s 6s 7s', 'meld 5s 6s *=7s', 'layoff 8s m1']);
  assert.deepEqual([...meldableFaces(info)].sort(), ['*', '5s', '6s', '7s']);
  assert.equal(meldableFaces(readLegal(['draw'])).size, 0);
});

test('settings read back with defaults for anything missing or wrong', () => {
  assert.deepEqual(readSettings(null), DEFAULTS);
  assert.deepEqual(readSettings('not json'), DEFAULTS);
  assert.deepEqual(readSettings('[1]'), DEFAULTS);
  const read = readSettings(JSON.stringify({ sound: true, theme: 'light', deck: 'six', motion: 'no' }));
  assert.equal(read.sound, true);
  assert.equal(read.theme, 'light');
  assert.equal(read.deck, 'two');
  assert.equal(read.motion, true);
});

test('your tables in words: who plays, the score, where the table stands', async () => {
  const { scoreWords, sidesOfTable, stateWords, seatName } = await import('../../src/rummy500/web/static/js/mytables.js');
  const two = {
    status: 'playing', players: 2, deal: 3, totals: [120, -15],
    seats: [{ kind: 'person', name: 'Ann' }, { kind: 'bot', bot: 'expert', name: 'Expert' }],
  };
  assert.equal(scoreWords(two, 0), 'you 120, Expert −15');
  assert.equal(stateWords(two), 'deal 3 in play');
  const partners = {
    status: 'over', players: 4, deal: 6, totals: [510, 300],
    seats: [{ name: 'Ann' }, { name: 'Bo' }, { name: 'Cleo' }, { kind: 'bot', bot: 'simple' }],
  };
  assert.deepEqual(sidesOfTable(partners), [[0, 2], [1, 3]]);
  assert.equal(scoreWords(partners, 2), 'Ann & you 510, Bo & computer (simple) 300');
  assert.equal(stateWords(partners), 'over');
  const waiting = { status: 'waiting', players: 3, totals: [0, 0, 0], seats: [{ name: 'Ann' }, { open: true }, { kind: 'bot' }] };
  assert.equal(stateWords(waiting), 'waiting for players (2 of 3 seats taken)');
  assert.equal(scoreWords(waiting, 0), 'you, open seat 2, computer');
  assert.equal(seatName({ kind: 'person' }, 1, 0), 'open seat 2');
});
