// Reading and writing cards as NOTATION.md writes them (src/rummy500/web/static/js/cards.js).

import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  isRed, parseCard, plainFace, pretty, prettyList, rankLabel, sortCards, spoken,
} from '../../src/rummy500/web/static/js/cards.js';

test('a card is read into its rank and suit', () => {
  assert.deepEqual(parseCard('7h'), { text: '7h', joker: false, rank: 7, suit: 'h', declared: null });
  assert.deepEqual(parseCard('Tc'), { text: 'Tc', joker: false, rank: 10, suit: 'c', declared: null });
  assert.equal(parseCard('As').rank, 1);
  assert.equal(parseCard('Kd').rank, 13);
});

test('a joker is read with what it was declared to be', () => {
  assert.deepEqual(parseCard('*'), { text: '*', joker: true, rank: 0, suit: '', declared: null });
  const declared = parseCard('*=6h');
  assert.equal(declared.joker, true);
  assert.equal(declared.declared?.rank, 6);
  assert.equal(declared.declared?.suit, 'h');
});

test('cards are written with suit symbols, ten as 10, and spoken in words', () => {
  const cases = [
    ['7h', '7♥', '7 of hearts'], ['Ts', '10♠', '10 of spades'], ['Qc', 'Q♣', 'queen of clubs'],
    ['Ad', 'A♦', 'ace of diamonds'], ['*', 'joker', 'joker'], ['*=6h', 'joker as 6♥', 'joker as 6 of hearts'],
  ];
  for (const [text, written, said] of cases) {
    assert.equal(pretty(text), written);
    assert.equal(spoken(text), said);
  }
  assert.equal(prettyList(['Ah', '2h', '*=3h']), 'A♥ 2♥ joker as 3♥');
  assert.deepEqual([10, 11, 1].map(rankLabel), ['10', 'J', 'A']);
});

test('a declared joker is written as a plain joker in a move', () => {
  assert.deepEqual(['*=6h', '*', '6h'].map(plainFace), ['*', '*', '6h']);
});

test('hearts, diamonds and jokers declared red are red', () => {
  const red = ['7h', '7d', '7s', '*', '*=2d'].filter((text) => isRed(parseCard(text)));
  assert.deepEqual(red, ['7h', '7d', '*=2d']);
});

test('a hand sorts by suit (clubs, diamonds, hearts, spades) or by rank, jokers last', () => {
  const hand = ['Kd', '*', '2c', 'Ah', '2h', 'Tc'];
  assert.deepEqual(sortCards(hand), ['2c', 'Tc', 'Kd', 'Ah', '2h', '*']);
  assert.deepEqual(sortCards(hand, 'suit'), sortCards(hand));
  assert.deepEqual(sortCards(hand, 'rank'), ['Ah', '2c', '2h', 'Tc', 'Kd', '*']);
  assert.deepEqual(hand, ['Kd', '*', '2c', 'Ah', '2h', 'Tc'], 'the hand itself is left as it was');
});
