// The seats around the table (src/rummy500/web/static/js/table/around.js) and the melds split
// as the books lay them, each in front of the seat that laid it (table/pieces.js).

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { narrowGrid, seatPlaces, sideCounts, wideGrid } from '../../src/rummy500/web/static/js/table/around.js';
import { piecesBySeat } from '../../src/rummy500/web/static/js/table/pieces.js';

/** @param {number} players @param {number | null} viewer */
function sides(players, viewer) {
  const out = { me: [], left: [], top: [], right: [] };
  for (const place of seatPlaces(players, viewer)) out[place.side].push(place.seat);
  return out;
}

test('the partner sits opposite: at the top at four players, and at six in pairs', () => {
  assert.deepEqual(sides(4, 0), { me: [0], left: [1], top: [2], right: [3] });
  assert.deepEqual(sides(4, 3), { me: [3], left: [0], top: [1], right: [2] });
  assert.deepEqual(sides(6, 1), { me: [1], left: [3, 2], top: [4], right: [5, 0] });
  assert.deepEqual(sides(2, 1), { me: [1], left: [], top: [0], right: [] });
});

test('the others left and right at three, up the left and down the right at eight', () => {
  assert.deepEqual(sides(3, 0), { me: [0], left: [1], top: [], right: [2] });
  // The seat after the viewer (to their left) sits at the foot of the left side.
  assert.deepEqual(sides(8, 0), { me: [0], left: [2, 1], top: [3, 4, 5], right: [6, 7] });
  assert.deepEqual(sides(5, null), { me: [0], left: [1], top: [2, 3], right: [4] });
});

test('every seat has one place and every place its areas in both grids', () => {
  for (let players = 2; players <= 8; players += 1) {
    const { sides: each, top } = sideCounts(players);
    assert.equal(1 + 2 * each + top, players);
    for (let viewer = 0; viewer < players; viewer += 1) {
      const places = seatPlaces(players, viewer);
      assert.deepEqual(places.map((p) => p.seat).sort((a, b) => a - b), [...Array(players).keys()]);
      for (const grid of [wideGrid(players), narrowGrid(players)]) {
        const rows = grid.match(/"[^"]*"/g) || [];
        const widths = new Set(rows.map((row) => row.slice(1, -1).split(' ').length));
        assert.equal(widths.size, 1, grid);
        for (const place of places) {
          assert.ok(grid.includes(place.panel) && grid.includes(place.melds), `${place.panel} in ${grid}`);
        }
        assert.ok(/\bc\b/.test(grid));
      }
    }
  }
});

test('a meld lies in front of the seat that laid it, a lay-off in front of its own', () => {
  const run = { id: 'm1', cards: ['4h', '5h', '6h', '7h', '8h'], by: [2, 0, 0, 0, 1], owner: 0 };
  const pieces = piecesBySeat([run, { id: 'm2', cards: ['Kc', 'Kd', 'Ks'], by: [1, 1, 1], owner: 1 }]);
  assert.deepEqual(pieces.get(0).map((p) => [p.meld.id, p.own, p.at]), [['m1', true, [0, 1, 2, 3, 4]]]);
  assert.deepEqual(pieces.get(1).map((p) => [p.meld.id, p.own, p.at]), [['m1', false, [4]], ['m2', true, [0, 1, 2]]]);
  assert.deepEqual(pieces.get(2).map((p) => [p.meld.id, p.own, p.at]), [['m1', false, [0]]]);
  // Others laid off as many cards as the melder: the meld is still the melder's.
  const long = { id: 'm3', cards: ['3s', '4s', '5s', '6s', '7s', '8s'], by: [1, 0, 0, 0, 1, 1], owner: 0 };
  const split = piecesBySeat([long]);
  assert.deepEqual(split.get(0).map((p) => [p.meld.id, p.own]), [['m3', true]]);
  assert.deepEqual(split.get(1).map((p) => [p.meld.id, p.own, p.at]), [['m3', false, [0, 4, 5]]]);
});
