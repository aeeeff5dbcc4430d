// The pure parts of talk, pacing and undo at the table (talkwords.js): which chat lines are
// new, how the deal pause and the turn clock are said, and when undo is offered.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  REACTIONS, andList, clockText, logText, shownText, unseenLines, waitingWords,
} from '../../src/rummy500/web/static/js/talkwords.js';
import { moveTargets } from '../../src/rummy500/web/static/js/table/marks.js';

const line = (n, seat = 0, text = `line ${n}`) => ({ n, seat, name: `P${seat}`, text, at: '' });

test('a chat line heard twice shows once', () => {
  const seen = new Set([1, 2]);
  assert.deepEqual(unseenLines([line(1), line(2), line(3), line(4)], seen).map((l) => l.n), [3, 4]);
  assert.deepEqual(unseenLines([], seen), []);
  assert.equal(logText(line(5, 1, 'hi')), 'P1: hi');
});

test('the pause names who it waits for, the viewer as you', () => {
  assert.equal(andList(['Ann']), 'Ann');
  assert.equal(andList(['Ann', 'Bo', 'Cy']), 'Ann, Bo and Cy');
  const names = ['Ann', 'Bo', 'Cy'];
  assert.equal(waitingWords([0, 2], names, 2, 12.2),
    'The computer players wait for Ann and you to continue (at most 13 s).');
  assert.equal(waitingWords([1], names, null, null), 'The computer players wait for Bo to continue.');
  assert.equal(waitingWords([], names, 0, 5), '');
});

test('the clock shows minutes and seconds, never below zero', () => {
  assert.equal(clockText(90), '1:30');
  assert.equal(clockText(4.2), '0:05');
  assert.equal(clockText(-3), '0:00');
});


test('a reaction shows its words without the emoji the server puts before them', () => {
  const react = (what, text) => ({ ...line(7), react: what, text });
  assert.equal(shownText(react('hello', '👋 Hello!')), 'Hello!');
  assert.equal(shownText(react('hurry', '⏳ Your turn!')), 'Your turn!');
  assert.equal(shownText(react('gg', '🤝\u{FE0F} Good game!')), 'Good game!');
  assert.equal(shownText(react('laugh', '😄')), 'Laugh');
  assert.equal(shownText(line(8, 0, 'I ♥ 7♥')), 'I ♥ 7♥'); // a line is shown as it was said
  for (const [, words] of REACTIONS) assert.doesNotMatch(words, /\p{Extended_Pictographic}/u);
});

test('a hint marks the cards, the meld or the stock its move names', () => {
  assert.deepEqual(moveTargets('draw'), { cards: [], melds: [], stock: true });
  assert.deepEqual(moveTargets('take 7h/2'), { cards: ['7h'], melds: [], stock: false });
  assert.deepEqual(moveTargets('meld 5h *=6h 7h'), { cards: ['5h', '*', '7h'], melds: [], stock: false });
  assert.deepEqual(moveTargets('layoff 8h m2'), { cards: ['8h'], melds: ['m2'], stock: false });
  assert.deepEqual(moveTargets('discard Kc'), { cards: ['Kc'], melds: [], stock: false });
});
