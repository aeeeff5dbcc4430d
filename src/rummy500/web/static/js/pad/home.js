// The score pad's home: the pads kept in this browser, each to open again or delete, and a
// pad opened (kept, made at the set-up, or imported from a file).

import { $, h, replace } from '../dom.js';
import { fromFile } from './model.js';
import { showShare } from './share.js';
import { persist, restoreEntry, undoKey } from './entry.js';
import { state } from './state.js';
import { deletePad, getTables, loadPads } from './store.js';
import { render } from './view.js';

/** @typedef {import('./model.js').Pad} Pad */

/**
 * Open a pad: its tables first (kept, or asked of the server).
 * @param {Pad} pad
 */
export async function openPad(pad) {
  try {
    state.tables = await getTables(pad.rules, pad.players.length);
  } catch (error) {
    showHomeError(String(/** @type {Error} */ (error).message || error));
    return;
  }
  state.pad = pad;
  try {
    state.undo = JSON.parse(localStorage.getItem(undoKey()) || '[]');
  } catch {
    state.undo = [];
  }
  state.editing = -1;
  state.draft = null;
  restoreEntry(pad);
  persist();
  history.replaceState(null, '', `/pad#${pad.id}`);
  $('#home').hidden = true;
  render();
  showShare(pad);
  $('#totals-heading').focus();
}

/** @param {string} text */
function showHomeError(text) {
  $('#home-error').textContent = text;
}

export function renderHome() {
  state.pad = null;
  $('#game').hidden = true;
  $('#setup').hidden = true;
  $('#home').hidden = false;
  $('#follow').hidden = true;
  const pads = Object.values(loadPads()).sort((a, b) => b.created - a.created);
  $('#past-section').hidden = pads.length === 0;
  replace($('#past-pads'), ...pads.map((pad) => h('li', {},
    h('button', { type: 'button', class: 'past-pad', onclick: () => openPad(pad) },
      `${pad.players.join(', ')}: ${pad.rules.preset}, ${pad.deals.length} deal${pad.deals.length === 1 ? '' : 's'}, `
      + `${new Date(pad.created).toLocaleDateString()}`),
    h('button', {
      type: 'button', class: 'quiet small', 'aria-label': `Delete the pad of ${pad.players.join(', ')}`,
      onclick: () => { if (confirm('Delete this pad?')) { deletePad(pad.id); renderHome(); } },
    }, 'Delete'))));
}

/** @param {File} file */
export async function importFile(file) {
  try {
    const pad = fromFile(JSON.parse(await file.text()));
    await openPad(pad);
  } catch (error) {
    showHomeError(`That file cannot be opened: ${/** @type {Error} */ (error).message}`);
  }
}
