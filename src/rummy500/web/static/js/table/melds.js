// The melds on the table: while the viewer plays, each is a button to lay the selected card
// off on, the ones it fits highlighted.

import { renderMelds } from '../board.js';
import { $ } from '../dom.js';
import { layoffTargets } from '../moves.js';
import { model, myTurn, selectedCards } from './model.js';
import { layOff } from './play.js';

export function renderTableMelds() {
  const s = model.state;
  if (!s) return;
  const playing = myTurn() && s.phase === 'play';
  const targets = playing ? layoffTargets(model.legal, selectedCards()) : new Set();
  renderMelds($('#melds'), s.melds, model.names, model.marks, playing ? {
    target: (/** @type {string} */ id) => targets.has(id),
    choose: (/** @type {string} */ id) => layOff(id),
  } : {});
}
