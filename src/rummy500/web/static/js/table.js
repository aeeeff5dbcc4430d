// The table page (/t/<id>): join or watch, then play through PROTOCOL.md's WebSocket. The page
// holds no rules: it shows the state the server sends, offers the engine's legal moves, and
// shows the engine's reason when a move is refused. Its parts live in table/: the model of
// the table (model.js) and one module for each piece of the page; this module starts the
// page and says how each part is drawn again when the model changes.

import { ApiError, getJSON } from './api.js';
import { $ } from './dom.js';
import { setAttr } from './table/inplace.js';
import { seatAt } from './seats.js';
import { renderActions } from './table/actions.js';
import { apiPath, replayPath, tableId } from './table/address.js';
import { renderAgain } from './table/again.js';
import { bindInvitations, loadRules, openDialog } from './table/dialogs.js';
import { connect } from './table/frames.js';
import { SORT_KEY, renderMine, switchSort } from './table/hand.js';
import { showJoin } from './table/join.js';
import { shortcut } from './table/keys.js';
import { renderTableMelds } from './table/melds.js';
import { model, namesFromSummary, setSort, setSummary } from './table/model.js';
import { fatal } from './table/notices.js';
import { send, stopConnection } from './table/outbox.js';
import { renderPlayers } from './table/players.js';
import { onRedraw } from './table/redraw.js';
import { renderTableParts } from './table/drawing.js';
import { bindSettings } from './settingsform.js';
import { startAttention } from './table/attention.js';
import { bindDrawer } from './table/drawer.js';
import { bindReorder } from './table/reorder.js';
import { startFirstGame } from './table/firstgame.js';
import { startFocus } from './table/focus.js';
import { startMeldRoom } from './table/meldroom.js';
import { startMotion } from './table/motion.js';
import { startRecent } from './table/recent.js';
import { startChat } from './table/chat.js';
import { startPacing } from './table/pacing.js';
import { startUndo } from './table/undo.js';
import { startDealEnd } from './table/dealend.js';

const WATCH_KEY = `rummy500.watch.${tableId}`;

function renderTable() {
  renderTableParts();
  const link = /** @type {HTMLAnchorElement} */ ($('#replay-link'));
  const over = Boolean(model.state && model.state.over);
  if (link.hidden !== !over) link.hidden = !over;
  setAttr(link, 'href', replayPath());
  renderAgain();
}

startRecent();
startFocus();
startMotion();
startMeldRoom();
startAttention();
startFirstGame();
startChat();
startPacing();
startUndo();
startDealEnd();
onRedraw('table', renderTable);
onRedraw('hand', renderMine);
onRedraw('hand', renderTableMelds);
onRedraw('sort', renderMine);
onRedraw('actions', renderActions);
onRedraw('players', renderPlayers);
onRedraw('again', renderAgain);

function bindStatic() {
  $('#rules-button').addEventListener('click', () => openDialog('#rules-dialog'));
  $('#keys-button').addEventListener('click', () => openDialog('#keys-dialog'));
  bindSettings();
  bindDrawer();
  bindReorder();
  $('#sort-button').addEventListener('click', switchSort);
  $('#typed').addEventListener('submit', (event) => {
    event.preventDefault();
    const input = /** @type {HTMLInputElement} */ ($('#move-input'));
    const text = input.value.trim();
    if (!text) return;
    if (send(text)) input.value = '';
  });
  $('#watch-button').addEventListener('click', () => {
    sessionStorage.setItem(WATCH_KEY, '1');
    connect(null, null);
  });
  document.addEventListener('keydown', shortcut);
  bindInvitations();
}

async function start() {
  setSort(localStorage.getItem(SORT_KEY) === 'rank' ? 'rank' : 'suit');
  bindStatic();
  if (!tableId) {
    fatal('This address names no table. Start one from the lobby.');
    return;
  }
  // The seat's connection opens while the table's summary and rules are asked for: its
  // first state is drawn as soon as all three have come.
  const known = getJSON(apiPath()).then(async (summary) => {
    setSummary(summary);
    await loadRules();
    namesFromSummary();
  });
  const stored = seatAt(tableId);
  const watching = !stored && sessionStorage.getItem(WATCH_KEY);
  if (stored) connect(stored.token, stored.seat, known);
  else if (watching) connect(null, null, known);
  try {
    await known;
  } catch (error) {
    stopConnection();
    fatal(error instanceof ApiError && error.status === 404
      ? 'There is no such table. Check the link, or start a new table from the lobby.'
      : String(/** @type {Error} */ (error).message));
    return;
  }
  if (!stored && !watching) showJoin(connect);
}

start();
