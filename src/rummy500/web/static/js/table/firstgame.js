// A first game: the hint shown at every turn of the viewer's (what the expert computer player
// would do, and why, its cards marked on the table), and a line on what each button does
// under the buttons. A setting. The guided first deal (/learn, js/learn.js) is offered from
// the table's Rules.

import { onSettings, setting } from '../settings.js';
import { h } from '../dom.js';
import { askHint, startHintMarks } from './hint.js';
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

/** The Rules dialog offers the guided first deal, at its top. */
function offerLesson() {
  const dialog = document.getElementById('rules-dialog');
  if (!dialog || dialog.querySelector('.learn-offer')) return;
  const offer = h('p', { class: 'learn-offer' }, 'New to 500 Rum? ',
    h('a', { href: '/learn', target: '_blank', rel: 'noopener' }, 'Learn to play: a guided first deal'),
    ' (opens beside this table).');
  const heading = dialog.querySelector('h2');
  if (heading) heading.after(offer);
  else dialog.prepend(offer);
}

export function startFirstGame() {
  startHintMarks();
  document.getElementById('rules-button')?.addEventListener('click', offerLesson);
  afterRedraw('table', hintEachTurn);
  onSettings(() => {
    hintEachTurn();
    if (model.state) redraw('actions');
  });
  document.body.classList.toggle('first-game', setting('firstGame'));
}
