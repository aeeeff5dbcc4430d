// The score pad page (/pad): a game played with real cards, scored deal by deal with the
// engine's tables (score.js), kept in this browser (store.js), working offline (sw.js).
//
// The page's modules: state.js (what is open), entry.js (the deal being entered), view.js (the
// game on screen), home.js (the pads kept), setup.js (a new pad); this one binds the page's
// controls to them and starts the page.

import { $, h } from '../dom.js';
import { dealerOf, emptyDeal, isEmptyDeal, newPad, parseCards, sideNames, toCsv, toFile } from './model.js';
import { scoreGame, scoreDeal } from './score.js';
import { follow, sharePad } from './share.js';
import { addPiece, deal, guessWentOut, remember } from './entry.js';
import { openPad, importFile, renderHome } from './home.js';
import { showSetup, startPad, warmTables } from './setup.js';
import { state } from './state.js';
import { loadPads, savePad } from './store.js';
import { changed, closeEditor, render, signed } from './view.js';

/** @typedef {import('./model.js').Pad} Pad */
/** @typedef {import('./score.js').PadDeal} PadDeal */
/** @typedef {import('./score.js').Tables} Tables */

// -- actions ----------------------------------------------------------------------------

function dealDone() {
  const pad = /** @type {Pad} */ (state.pad);
  const tables = /** @type {Tables} */ (state.tables);
  if ($('#deal-done').getAttribute('aria-disabled') === 'true') {
    state.message = isEmptyDeal(deal()) ? 'Enter the deal first: tap the cards each player put down and kept.'
      : 'The deal cannot be right yet: see what is wrong above.';
    render();
    return;
  }
  remember();
  if (state.editing >= 0) {
    const sides = sideNames(tables, pad.players);
    const before = scoreDeal(tables, pad.deals[state.editing], pad.players).scores;
    const after = scoreDeal(tables, /** @type {PadDeal} */ (state.draft), pad.players).scores;
    pad.deals[state.editing] = /** @type {PadDeal} */ (state.draft);
    pad.log.push({ at: Date.now(), text: `deal ${state.editing + 1} changed: ${sides.map((s, i) => `${s} ${signed(before[i])} → ${signed(after[i])}`).join(', ')}` });
    state.editing = -1;
    state.draft = null;
  } else {
    pad.deals.push(pad.current);
    pad.current = emptyDeal(pad.players.length, dealerOf(pad, pad.deals.length));
  }
  state.wentOutChosen = false;
  state.openMeld = null;
  state.target = { kind: 'meld', seat: 0 };
  state.message = '';
  changed();
  $('#totals-heading').focus();
}

function undo() {
  const last = state.undo.pop();
  if (!last) return;
  const saved = JSON.parse(last);
  state.pad = saved.pad;
  state.draft = saved.draft;
  state.openMeld = saved.openMeld;
  state.message = 'The last entry was taken back.';
  changed();
}

/**
 * @param {string} name
 * @param {string} text
 * @param {string} type
 */
function download(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = h('a', { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function fileName() {
  const pad = /** @type {Pad} */ (state.pad);
  return `score-pad-${new Date(pad.created).toISOString().slice(0, 10)}-${pad.players.join('-').replace(/[^\w-]+/g, '')}`;
}

function bind() {
  $('#new-pad').addEventListener('click', () => showSetup());
  $('#setup-form').addEventListener('submit', startPad);
  $('#setup-cancel').addEventListener('click', () => renderHome());
  $('#import-file').addEventListener('change', (event) => {
    const input = /** @type {HTMLInputElement} */ (event.target);
    if (input.files && input.files[0]) importFile(input.files[0]);
    input.value = '';
  });
  $('#deal-done').addEventListener('click', dealDone);
  $('#cancel-edit').addEventListener('click', closeEditor);
  $('#undo').addEventListener('click', undo);
  $('#new-meld').addEventListener('click', () => {
    if (state.target.kind !== 'meld') {
      state.message = 'New meld is for a player\'s melds: tap their "melds" first.';
    } else {
      state.openMeld = null;
      state.message = `The next card starts a new meld for ${/** @type {Pad} */ (state.pad).players[state.target.seat]}.`;
    }
    render();
  });
  $('#type-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const input = /** @type {HTMLInputElement} */ ($('#type-cards'));
    const { cards, bad } = parseCards(input.value);
    if (bad !== null) {
      state.message = `"${bad}" is not a card: write cards like 7h Ts Qd As, *=6h for a wild joker as 6h, * for a Persian joker.`;
      render();
      return;
    }
    if (state.target.kind === 'meld') state.openMeld = null;
    let taken = 0;
    for (const card of cards) {
      if (!addPiece(card)) break;
      taken += 1;
    }
    if (taken === cards.length) input.value = '';
    changed();
  });
  $('#went-out').addEventListener('change', (event) => {
    remember();
    const value = /** @type {HTMLSelectElement} */ (event.target).value;
    deal().went_out = value === '' ? null : Number(value);
    state.wentOutChosen = true;
    changed();
  });
  $('#points').addEventListener('change', (event) => {
    const input = /** @type {HTMLInputElement} */ (event.target);
    const seat = Number(input.dataset.seat);
    remember();
    const value = input.value.trim();
    deal().points[seat] = value === '' || !Number.isFinite(Number(value)) ? null : Math.trunc(Number(value));
    guessWentOut();
    changed();
  });
  $('#export-file').addEventListener('click', () => {
    download(`${fileName()}.json`, `${JSON.stringify(toFile(/** @type {Pad} */ (state.pad)), null, 1)}\n`, 'application/json');
  });
  $('#export-csv').addEventListener('click', () => {
    const pad = /** @type {Pad} */ (state.pad);
    const tables = /** @type {Tables} */ (state.tables);
    const game = scoreGame(tables, pad.deals, pad.players);
    download(`${fileName()}.csv`, toCsv(sideNames(tables, pad.players), game.sheets), 'text/csv');
  });
  $('#play-again').addEventListener('click', () => {
    const pad = /** @type {Pad} */ (state.pad);
    openPad(newPad(pad.rules, pad.players, (pad.firstDealer + 1) % pad.players.length));
  });
  $('#share').addEventListener('click', () => {
    const pad = state.pad;
    if (pad) sharePad(pad, () => savePad(pad));
  });
  $('#home-link').addEventListener('click', (event) => {
    event.preventDefault();
    history.replaceState(null, '', '/pad');
    renderHome();
  });
  document.addEventListener('keydown', (event) => {
    if ((event.ctrlKey || event.metaKey) && event.key === 'z' && state.pad && !(event.target instanceof HTMLInputElement)) {
      event.preventDefault();
      undo();
    }
  });
}

async function main() {
  bind();
  const id = location.hash.slice(1);
  const pads = loadPads();
  if (id.startsWith('follow=')) follow(id.slice('follow='.length));
  else if (id && pads[id]) await openPad(pads[id]);
  else renderHome();
  if ('serviceWorker' in navigator) {
    navigator.serviceWorker.register('/pad-sw.js', { scope: '/pad' }).then(() => navigator.serviceWorker.ready)
      .then(() => warmTables()).catch(() => {});
  }
  document.body.dataset.ready = 'yes';
}

main();
