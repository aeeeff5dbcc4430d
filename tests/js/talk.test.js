// The pure parts of talk, pacing and undo at the table (talkwords.js): which chat lines are
// new, how the deal pause and the turn clock are said, and when undo is offered.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  andList, clockText, logText, unseenLines, waitingWords,
} from '../../src/rummy500/web/static/js/talkwords.js';

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

