// The keyboard: one key for each action of the table (the Keys dialog lists them).

import { $ } from '../dom.js';
import { switchSort } from './hand.js';
import { askHint } from './hint.js';
import { clearSelected, model, myTurn } from './model.js';
import { clearMessage } from './notices.js';
import { send } from './outbox.js';
import { discard, layOff, meld } from './play.js';

/** @param {string} selector */
function focusFirst(selector) {
  const el = /** @type {HTMLElement | null} */ (document.querySelector(selector));
  if (el) el.focus();
  return Boolean(el);
}

/** @param {KeyboardEvent} event */
export function shortcut(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = /** @type {HTMLElement | null} */ (event.target);
  if (target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT')) {
    if (event.key === 'Escape') target.blur();
    return;
  }
  // No move by key while a dialog or the finished deal is in front of the table.
  if (document.querySelector('dialog[open]') || document.body.classList.contains('deal-end')) return;
  const s = model.state;
  if (!s || model.seat === null) return;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  /** @type {Record<string, () => unknown>} */
  const actions = {
    d: () => myTurn() && s.phase === 'draw' && send('draw'),
    e: () => myTurn() && model.legal.end && send('end'),
    m: () => myTurn() && s.phase === 'play' && meld(),
    l: () => myTurn() && s.phase === 'play' && layOff(null),
    x: () => myTurn() && s.phase === 'play' && discard(),
    p: () => myTurn() && model.legal.pass && send('pass'),
    i: () => askHint(),
    s: () => switchSort(),
    h: () => focusFirst('#hand button[tabindex="0"]') || focusFirst('#hand button'),
    f: () => focusFirst('#pile button[tabindex="0"]') || focusFirst('#pile button'),
    g: () => focusFirst('#melds button[tabindex="0"]') || focusFirst('#melds button'),
    '/': () => $('#move-input').focus(),
    '?': () => /** @type {HTMLDialogElement} */ ($('#keys-dialog')).showModal(),
    Escape: () => { clearSelected(); clearMessage(); },
  };
  if (key in actions) {
    event.preventDefault();
    actions[key]();
  }
}
