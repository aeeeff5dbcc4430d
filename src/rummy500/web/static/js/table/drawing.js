// The table's parts drawn from the state, in order: the seats, the status line, the stock and
// the pile, the melds, the hand and the scores. The table page and the first game's page draw
// the same table.

import { renderMine } from './hand.js';
import { renderTableMelds } from './melds.js';
import { renderPiles } from './pile.js';
import { renderPlayers, renderStatus } from './players.js';
import { renderScores } from './scores.js';

export function renderTableParts() {
  renderPlayers();
  renderStatus();
  renderPiles();
  renderTableMelds();
  renderMine();
  renderScores();
}
