// The legal moves read for the page's controls, and the text of a take
// (src/rummy500/web/static/js/moves.js).

import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  couldMeld, layoffTargets, layoffsFor, meldsFor, readLegal, takeText,
} from '../../src/rummy500/web/static/js/moves.js';

const DRAWING = ['draw', 'take 9s', 'take 7h/2', 'take *'];
const PLAYING = [
  'meld 7h 7d 7s', 'meld 5c 6c *=7c', 'meld 5c 6c *=4c', 'layoff 8h m1', 'layoff 8h m2',
  'layoff *=9s m3', 'discard 7h', 'discard *',
];

test('the draw phase offers the stock and the listed takes', () => {
  const info = readLegal(DRAWING);
  assert.equal(info.draw, true);
  assert.equal(info.end, false);
  assert.deepEqual([...info.takes], ['9s', '7h/2', '*']);
  assert.equal(info.all.has('take 9s'), true);
});

test('an empty or missing list offers nothing', () => {
  for (const legal of [[], null, undefined]) {
    const info = readLegal(legal);
    assert.equal(info.draw || info.end || info.pass, false);
    assert.equal(info.melds.length + info.layoffs.length + info.claims.length, 0);
  }
});

test('melds, lay-offs, discards and rummy claims are sorted out', () => {
  const info = readLegal([...PLAYING, 'rummy meld 9s 9d 9c', 'rummy layoff 4h m2', 'pass', 'end']);
  assert.equal(info.melds.length, 3);
  assert.deepEqual(info.layoffs[0], { text: 'layoff 8h m1', card: '8h', meld: 'm1' });
  assert.deepEqual([...info.discards], ['7h', '*']);
  assert.deepEqual(info.claims.map((c) => [c.kind, c.meld]), [['rummy meld', null], ['rummy layoff', 'm2']]);
  assert.equal(info.pass && info.end, true);
});

test('the melds made of exactly the selected cards, one per joker reading', () => {
  const info = readLegal(PLAYING);
  assert.deepEqual(meldsFor(info, ['7s', '7h', '7d']).map((m) => m.text), ['meld 7h 7d 7s']);
  assert.deepEqual(meldsFor(info, ['*', '5c', '6c']).map((m) => m.text),
    ['meld 5c 6c *=7c', 'meld 5c 6c *=4c']);
  assert.deepEqual(meldsFor(info, ['7h', '7d']), []);
});

test('a selected card lays off on the melds the engine lists for it', () => {
  const info = readLegal(PLAYING);
  assert.deepEqual(layoffsFor(info, '8h').map((l) => l.meld), ['m1', 'm2']);
  assert.deepEqual(layoffsFor(info, '8h', 'm2').map((l) => l.text), ['layoff 8h m2']);
  assert.deepEqual(layoffsFor(info, '*').map((l) => l.text), ['layoff *=9s m3']);
  assert.deepEqual([...layoffTargets(info, ['8h'])], ['m1', 'm2']);
  assert.deepEqual([...layoffTargets(info, ['8h', '7h'])], [], 'two cards lay off nowhere');
});

test('selected cards could still make a meld while some legal meld holds them all', () => {
  const info = readLegal(PLAYING);
  assert.equal(couldMeld(info, ['7h', '7d']), true);
  assert.equal(couldMeld(info, ['*', '6c']), true);
  assert.equal(couldMeld(info, ['7h', '6c']), false);
  assert.equal(couldMeld(info, ['7h', '7h']), false, 'each card of a meld counts once');
  assert.equal(couldMeld(info, []), false);
});

test('a take names the pile card, and the lower of two copies with /2', () => {
  const pile = ['7h', '2c', '7h', 'Kd'];
  assert.equal(takeText(pile, 3), 'take Kd');
  assert.equal(takeText(pile, 2), 'take 7h');
  assert.equal(takeText(pile, 0), 'take 7h/2');
  assert.equal(takeText(['*', '5s', '*'], 0), 'take *');
});
