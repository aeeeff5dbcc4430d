// The table page's redraws (table/redraw.js): the parts of one change are drawn at once, and
// the watchers after them run once, in a microtask, the readers of the layout last.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  afterRedraw, beforeChange, beforeRedraw, onRedraw, redraw, settle, whenDrawn,
} from '../../src/rummy500/web/static/js/table/redraw.js';

/** @type {string[]} */
const seen = [];
const note = (/** @type {string} */ what) => () => { seen.push(what); };

onRedraw('table', note('draw table'));
onRedraw('hand', note('draw hand'));
onRedraw('actions', note('draw actions'));
beforeRedraw('table', note('before table'));
beforeChange(['table', 'sort'], note('first'));
const mark = note('mark');
afterRedraw('table', mark);
afterRedraw('hand', mark);
afterRedraw('actions', note('buttons'));
whenDrawn(note('read'));

test('a change’s watchers wait for all its parts and run once, the readers last', async () => {
  seen.length = 0;
  redraw('table');
  redraw('hand');
  redraw('table');
  assert.deepEqual(seen, ['first', 'before table', 'draw table', 'draw hand', 'before table', 'draw table']);
  await Promise.resolve();
  assert.deepEqual(seen.slice(6), ['mark', 'read']);
});

test('the next change starts afresh: its first watcher runs again', async () => {
  seen.length = 0;
  redraw('actions');
  await Promise.resolve();
  redraw('table');
  await Promise.resolve();
  assert.deepEqual(seen, ['draw actions', 'buttons', 'read', 'first', 'before table', 'draw table', 'mark', 'read']);
});

test('a part drawn again by a watcher joins the change; settle ends it at once', () => {
  seen.length = 0;
  let again = true;
  afterRedraw('hand', () => {
    if (again) {
      again = false;
      redraw('actions');
    }
  });
  redraw('hand');
  settle();
  assert.deepEqual(seen, ['draw hand', 'mark', 'draw actions', 'buttons', 'read']);
  settle();
  assert.equal(seen.length, 5);
});
