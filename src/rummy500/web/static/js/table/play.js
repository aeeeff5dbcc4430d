// The selected cards turned into a move: meld them, lay one off, discard one. Where a joker
// could stand for more than one card, the viewer chooses; a move the engine does not list is
// still sent, and the engine says why not.

import { pretty, prettyList } from '../cards.js';
import { $, h, replace } from '../dom.js';
import { layoffsFor, meldsFor } from '../moves.js';
import { keepFocus } from './focus.js';
import { model, selectedCards } from './model.js';
import { message } from './notices.js';
import { send } from './outbox.js';

/**
 * Offers the moves of `options` as buttons under `title`.
 * @param {string} title
 * @param {{ label: string, move: string }[]} options
 */
export function choose(title, options) {
  const box = $('#chooser');
  const cancel = h('button', { type: 'button' }, 'Cancel');
  cancel.addEventListener('click', () => { box.hidden = true; keepFocus(); });
  replace(box, h('p', {}, title), h('div', { class: 'choices' }, options.map((o) => {
    const b = h('button', { type: 'button', class: 'primary', dataset: { move: o.move } }, o.label);
    b.addEventListener('click', () => { box.hidden = true; send(o.move); });
    return b;
  }), cancel));
  box.hidden = false;
  /** @type {HTMLElement} */ (box.querySelector('button')).focus();
}

export function meld() {
  const selected = selectedCards();
  const options = meldsFor(model.legal, selected);
  if (options.length === 1) send(options[0].text);
  else if (options.length > 1) {
    choose('The joker stands for:', options.map((o) => ({
      label: prettyList(o.cards.filter((c) => c.startsWith('*='))), move: o.text,
    })));
  } else if (selected.length) send(`meld ${selected.join(' ')}`);
  else message('Select the cards to meld first.', 'refusal');
}

/**
 * Lays the selected card off on `meldId`; with null, on the one meld it fits, or asks which.
 * @param {string | null} meldId
 */
export function layOff(meldId) {
  const selected = selectedCards();
  if (selected.length !== 1) {
    message('Select one card of your hand, then the meld to lay it off on.', 'refusal');
    if (meldId === null) $('#hand').focus();
    return;
  }
  const card = selected[0];
  const options = layoffsFor(model.legal, card, meldId);
  if (meldId === null) {
    const melds = [...new Set(options.map((o) => o.meld))];
    if (melds.length === 1 && options.length === 1) { send(options[0].text); return; }
    if (melds.length === 0) {
      message(`${pretty(card)} fits no meld on the table now.`, 'refusal');
      return;
    }
    message(`Choose the meld for ${pretty(card)}: ${melds.join(', ')} (highlighted).`, 'info');
    const target = /** @type {HTMLElement | null} */ (document.querySelector('#melds button.meld.target'));
    if (target) {
      for (const b of $('#melds').querySelectorAll('button.meld')) /** @type {HTMLElement} */ (b).tabIndex = -1;
      target.tabIndex = 0;
      target.focus();
    }
    return;
  }
  if (options.length === 1) send(options[0].text);
  else if (options.length > 1) {
    choose(`On ${meldId}, the joker stands for:`, options.map((o) => ({ label: pretty(o.card), move: o.text })));
  } else send(`layoff ${card} ${meldId}`);
}

export function discard() {
  const selected = selectedCards();
  if (selected.length !== 1) {
    message('Select the one card to discard.', 'refusal');
    return;
  }
  send(`discard ${selected[0].startsWith('*') ? '*' : selected[0]}`);
}
