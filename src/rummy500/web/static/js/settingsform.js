// The Settings dialog of a page: each setting a field that takes effect at once and is kept in
// this browser (settings.js).

import { $, h, replace } from './dom.js';
import { allSettings, setSetting } from './settings.js';

/** @typedef {import('./settings.js').Settings} Settings */

/**
 * @typedef {object} Field
 * @property {keyof Settings} name
 * @property {string} label
 * @property {string} [help]
 * @property {[string, string][]} [choices] value and words, for a choice
 */

/** @type {Field[]} */
const FIELDS = [
  { name: 'theme', label: 'Theme', choices: [['auto', 'As the system is set'], ['dark', 'Dark (green felt)'], ['light', 'Light']] },
  { name: 'deck', label: 'Card colours', choices: [['two', 'Two colours: ♥ ♦ red, ♠ ♣ black'], ['four', 'Four colours: ♦ blue, ♣ green']] },
  { name: 'cardSize', label: 'Card size', help: 'The cards grow with the screen; this makes them smaller or larger still.', choices: [['small', 'Small'], ['normal', 'Normal'], ['large', 'Large']] },
  { name: 'motion', label: 'Cards move', help: 'Never when the system asks for reduced motion.' },
  { name: 'title', label: 'On your turn, the tab’s title and icon change' },
  { name: 'sound', label: 'On your turn, a short chime' },
  { name: 'vibrate', label: 'On your turn, a vibration (phones)' },
  { name: 'firstGame', label: 'First game: a hint at every turn, and what each button does', help: 'The hint is what the expert computer player would do.' },
];

/** @param {Field} field */
function fieldRow(field) {
  const id = `setting-${field.name}`;
  const value = allSettings()[field.name];
  const help = field.help ? h('span', { id: `${id}-help`, class: 'help' }, field.help) : null;
  if (field.choices) {
    const select = /** @type {HTMLSelectElement} */ (h('select', { id, 'aria-describedby': help ? `${id}-help` : null },
      field.choices.map(([v, words]) => h('option', { value: v }, words))));
    select.value = String(value);
    select.addEventListener('change', () => setSetting(field.name, /** @type {any} */ (select.value)));
    return h('div', { class: 'setting' }, h('label', { for: id }, field.label), select, help);
  }
  const box = /** @type {HTMLInputElement} */ (h('input', { id, type: 'checkbox', checked: Boolean(value), 'aria-describedby': help ? `${id}-help` : null }));
  box.addEventListener('change', () => setSetting(field.name, /** @type {any} */ (box.checked)));
  return h('div', { class: 'setting check' }, box, h('label', { for: id }, field.label), help);
}

/**
 * Fills the dialog `#settings-dialog` with `names` (every setting when none given) and opens
 * it from `#settings-button`.
 * @param {(keyof Settings)[]} [names]
 */
export function bindSettings(names) {
  const dialog = /** @type {HTMLDialogElement} */ ($('#settings-dialog'));
  const fields = FIELDS.filter((f) => !names || names.includes(f.name));
  const draw = () => replace(dialog,
    h('h2', { id: 'settings-heading' }, 'Settings'),
    h('p', { class: 'muted' }, 'Kept in this browser, for every table.'),
    fields.map(fieldRow),
    h('form', { method: 'dialog', class: 'dialog-buttons' }, h('button', { class: 'primary' }, 'Close')));
  $('#settings-button').addEventListener('click', () => {
    draw();
    dialog.showModal();
    dialog.scrollTop = 0;
  });
}
