// A first game: the hint shown at every turn of the viewer's (what the expert computer player
// would do, and why), and a line on what each button does under the buttons. A setting.

import { onSettings, setting } from '../settings.js';
import { askHint } from './hint.js';
import { model, myTurn } from './model.js';
import { afterRedraw, redraw } from './redraw.js';

let askedAt = -1;

function hintEachTurn() {
  document.body.classList.toggle('first-game', setting('firstGame'));
  if (!setting('firstGame') || !myTurn() || model.seq === askedAt) return;
  if (document.querySelector('dialog[open]')) return;
  askedAt = model.seq;
  askHint();
}

export function startFirstGame() {
  afterRedraw('table', hintEachTurn);
  onSettings(() => {
    hintEachTurn();
    if (model.state) redraw('actions');
  });
  document.body.classList.toggle('first-game', setting('firstGame'));
}
