// The buttons under the hand for the viewer's turn (draw, meld, lay off, discard, rummy
// claims, pass, hint), each with its key, offered from the engine's legal moves.

import { pretty, prettyList } from '../cards.js';
import { $, h } from '../dom.js';
import { drawInPlace, updateChildren } from './inplace.js';
import { couldMeld, layoffTargets, meldsFor } from '../moves.js';
import { replayPath } from './address.js';
import { askHint } from './hint.js';
import { clearSelected, model, myTurn, selectedCards } from './model.js';
import { canSend, send } from './outbox.js';
import { discard, layOff, meld } from './play.js';

/** What each control does, in a few words (its title, and its line in a first game). */
/** @type {Record<string, string>} */
const CONTROL_WORDS = {
  draw: 'take the top card of the stock into your hand',
  end: 'take nothing: with the stock empty, the deal ends here',
  meld: 'put the selected cards on the table as a new meld (three or more of a kind, or a run in one suit)',
  layoff: 'add the selected card to a meld on the table (anyone’s)',
  discard: 'put the selected card on the discard pile, which ends your turn',
  clear: 'unselect the selected cards',
  pass: 'let the rummy call go',
  hint: 'ask what the expert computer player would do, and why',
  rummy: 'claim cards from the pile that the player before you could have used',
};

/** The controls drawn, with their words, for the help line: label, words, id. */
/** @type {[string, string, string][]} */
let used = [];

/**
 * @typedef {object} ButtonOptions
 * @property {boolean} [primary]
 * @property {boolean} [enabled]
 * @property {string} [hint] the button's title
 * @property {string | null} [move] the move it sends (data-move)
 * @property {string | null} [name] what it does (data-action)
 */

/**
 * @param {string} label
 * @param {string | null} key
 * @param {() => unknown} action
 * @param {ButtonOptions} [options]
 */
function button(label, key, action, { primary = false, enabled = true, hint = '', move = null, name = null } = {}) {
  const what = CONTROL_WORDS[name || (move || '').split(' ')[0]] || '';
  const help = what ? `help-${name || (move || '').split(' ')[0]}` : null;
  if (help && !used.some((row) => row[2] === help)) used.push([label, what, help]);
  const el = h('button', { type: 'button', class: primary ? 'primary' : '', 'aria-keyshortcuts': key || null,
    disabled: !enabled || !canSend(), title: [hint, what].filter(Boolean).join(': ') || null,
    'aria-describedby': help,
    dataset: { ...(move ? { move } : {}), ...(name ? { action: name } : {}) } },
  label, key ? h('kbd', { 'aria-hidden': 'true' }, key) : null);
  el.addEventListener('click', action);
  return el;
}

export function renderActions() {
  const s = model.state;
  if (!s || model.seat === null) return;
  used = [];
  // Drawn in place: the focused button stays (each button's listener is its move's or its
  // action's, which a kept button keeps).
  try {
    drawInPlace($('#actions'), (box) => fillActions(s, box));
  } finally {
    explainControls();
  }
}

/** What each control of the turn does, in a line under them (shown in a first game; read
 * by screen readers always, through aria-describedby). */
function explainControls() {
  const rows = used.map(([label, what, id]) => h('li', { id }, h('strong', {}, label.replace(/…$/, '')), `: ${what}.`));
  updateChildren($('#control-help'), rows.length ? h('ul', {}, rows) : null);
}

/**
 * @param {import('../protocol.js').TableState} s
 * @param {HTMLElement} box
 */
function fillActions(s, box) {
  const typed = $('#typed');
  if (typed.hidden !== Boolean(s.over)) typed.hidden = Boolean(s.over);
  if (s.over) {
    box.append(h('p', { class: 'muted' }, 'The game is over.'),
      h('a', { href: replayPath(), class: 'button-link' }, 'Replay the game'),
      h('a', { href: `${replayPath()}#review`, class: 'button-link' }, 'Review the game'),
      h('a', { href: '/', class: 'button-link' }, 'Back to the lobby'));
    return;
  }
  if (!myTurn()) {
    box.append(h('p', { class: 'muted' }, `Waiting for ${s.turn === null ? 'the next deal' : model.names[s.turn]}… You can select and sort your cards meanwhile.`));
    return;
  }
  const selected = selectedCards();
  const info = model.legal;
  if (s.phase === 'draw') {
    if (info.draw) box.append(button('Draw from the stock', 'D', () => send('draw'), { primary: true, move: 'draw' }));
    if (info.end) box.append(button('Take nothing (ends the deal)', 'E', () => send('end'), { move: 'end' }));
    box.append(h('span', { class: 'muted' }, info.takes.size
      ? ' or take a highlighted pile card.' : ' (no card of the pile can be used now).'));
  } else if (s.phase === 'play') {
    const melds = meldsFor(info, selected);
    const could = couldMeld(info, selected);
    box.append(button(melds.length ? 'Meld' : 'Meld…', 'M', meld, {
      primary: melds.length > 0, enabled: selected.length >= 3 || melds.length > 0, name: 'meld',
      hint: melds.length ? '' : (could ? 'select the rest of the meld' : 'select three or more cards that form a meld'),
    }));
    const targets = layoffTargets(info, selected);
    // Nothing to lay off on before the first meld is on the table.
    const melded = (s.melds || []).length > 0;
    box.append(button('Lay off', 'L', () => layOff(null), {
      primary: targets.size > 0, enabled: selected.length === 1 && melded, name: 'layoff',
      hint: melded ? '' : 'no meld on the table yet',
    }));
    const discardable = selected.length === 1 && info.discards.has(selected[0] === '*' ? '*' : selected[0]);
    box.append(button('Discard', 'X', discard, { primary: discardable, enabled: selected.length === 1, name: 'discard' }));
    if (selected.length) box.append(button('Clear', 'Esc', clearSelected, { name: 'clear' }));
    const advice = [];
    if (!selected.length) advice.push('Select cards in your hand.');
    else if (selected.length === 1 && targets.size) advice.push(`${pretty(selected[0])} goes on ${[...targets].join(', ')}.`);
    else if (selected.length >= 1 && could && !melds.length) advice.push('Part of a meld: select the rest.');
    box.append(h('span', { class: 'muted' }, ` ${advice.join(' ')}`));
  } else if (s.phase === 'rummy') {
    for (const claim of info.claims) {
      const words = claim.kind === 'rummy meld'
        ? `Rummy: meld ${prettyList(claim.cards)}` : `Rummy: lay off ${pretty(claim.cards[0])} on ${claim.meld}`;
      box.append(button(words, null, () => send(claim.text), { primary: true, move: claim.text }));
    }
    if (info.pass) box.append(button('Pass', 'P', () => send('pass'), { move: 'pass' }));
  }
  box.append(button('Hint', 'I', askHint, { hint: 'what the expert computer player would do', name: 'hint' }));
}
