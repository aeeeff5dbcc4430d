// The heights of the wide table's rows (src/rummy500/web/static/js/table/around.js's
// wideRows): one for each row of its areas, the melds' rows sharing the board's room, the
// panels' rows and the centre's as short as they can be.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { wideGrid, wideRows } from '../../src/rummy500/web/static/js/table/around.js';

test('every row of the wide grid has its height: melds share the room, panels take their own', () => {
  for (let players = 2; players <= 8; players += 1) {
    const rows = wideGrid(players).match(/"[^"]*"/g) || [];
    const heights = wideRows(players).split(' ');
    assert.equal(heights.length, rows.length, `${players} players`);
    rows.forEach((row, i) => {
      const melds = /\bm(t|l|r|me)\d*\b/.test(row);
      assert.equal(heights[i], melds ? 'auto' : 'min-content', `${players} players, row ${row}`);
    });
  }
});
