// The score pad's set-up: the game (a preset of the lobby's list and its house rules), the
// players' names and the first dealer, for a new pad; and the tables of every preset fetched
// once, so that a new pad works offline.

import { $, h, replace } from '../dom.js';
import { newPad, tablesUrl } from './model.js';
import { getTables, rememberNames, rememberedNames } from './store.js';
import { openPad } from './home.js';

/** @type {any} the lobby's list of presets and rule options, once fetched */
let catalogued = null;

async function catalogue() {
  if (!catalogued) {
    const response = await fetch('/api/rules');
    catalogued = await response.json();
  }
  return catalogued;
}

/** @param {{names?: string[], rules?: import('./model.js').RulesSpec, dealer?: number}} [seed] */
export async function showSetup(seed = {}) {
  $('#home').hidden = true;
  $('#game').hidden = true;
  $('#setup').hidden = false;
  let info;
  try {
    info = await catalogue();
  } catch {
    $('#setup-error').textContent = 'The list of games is not on this phone yet: open the pad once while online.';
    return;
  }
  const preset = /** @type {HTMLSelectElement} */ ($('#preset'));
  replace(preset, ...info.presets.map((/** @type {any} */ p) => h('option', { value: p.name }, `${p.name}: ${p.description}`)));
  preset.value = seed.rules ? seed.rules.preset : 'classic';
  const names = seed.names || rememberedNames();
  const count = /** @type {HTMLSelectElement} */ ($('#count'));
  const sync = () => {
    const chosen = info.presets.find((/** @type {any} */ p) => p.name === preset.value);
    const max = chosen.partnership ? 4 : chosen.max_players;
    const min = chosen.partnership ? 4 : info.min_players;
    const was = Number(count.value) || names.length || 2;
    replace(count, ...Array.from({ length: max - min + 1 }, (_, i) => h('option', { value: String(min + i) }, String(min + i))));
    count.value = String(Math.min(max, Math.max(min, was)));
    syncNames();
    renderOptions(chosen, info.options, seed.rules && seed.rules.preset === chosen.name ? seed.rules.options : {});
  };
  const syncNames = () => {
    const n = Number(count.value);
    const box = $('#names');
    const kept = [...box.querySelectorAll('input')].map((i) => /** @type {HTMLInputElement} */ (i).value);
    replace(box, ...Array.from({ length: n }, (_, seat) => h('div', { class: 'field' },
      h('label', { for: `name-${seat}` }, `Seat ${seat + 1}`),
      h('input', { id: `name-${seat}`, autocomplete: 'off', maxlength: '24', value: kept[seat] ?? names[seat] ?? '', placeholder: `Player ${seat + 1}` }))));
    const dealer = /** @type {HTMLSelectElement} */ ($('#first-dealer'));
    replace(dealer, ...Array.from({ length: n }, (_, seat) => h('option', { value: String(seat) }, `Seat ${seat + 1}`)));
    dealer.value = String(Math.min(seed.dealer ?? 0, n - 1));
    const chosen = info.presets.find((/** @type {any} */ p) => p.name === preset.value);
    $('#sides').textContent = chosen.partnership ? 'Partners sit opposite: seats 1 and 3 play against seats 2 and 4.' : '';
  };
  preset.onchange = sync;
  count.onchange = syncNames;
  if (seed.names) count.value = String(seed.names.length);
  sync();
  /** @type {HTMLInputElement} */ ($('#name-0')).focus();
}

/**
 * The rule options of the lobby's list, each at the preset's value.
 * @param {any} preset
 * @param {any[]} options
 * @param {Record<string, unknown>} chosen
 */
function renderOptions(preset, options, chosen) {
  replace($('#options'), ...options.map((option) => {
    const id = `option-${option.name}`;
    const value = option.name in chosen ? chosen[option.name] : preset.values[option.name];
    let input;
    if (option.kind === 'bool') {
      input = h('input', { id, type: 'checkbox', dataset: { option: option.name, kind: 'bool' } });
      /** @type {HTMLInputElement} */ (input).checked = Boolean(value);
    } else if (option.kind === 'choice') {
      input = h('select', { id, dataset: { option: option.name, kind: 'choice' } },
        ...option.choices.map((/** @type {any} */ c) => h('option', { value: JSON.stringify(c) }, String(c))));
      /** @type {HTMLSelectElement} */ (input).value = JSON.stringify(value);
    } else {
      input = h('input', { id, type: 'number', inputmode: 'numeric', dataset: { option: option.name, kind: 'number' }, value: value === null ? '' : String(value) });
    }
    return h('div', { class: `field option ${option.kind}` }, h('label', { for: id }, option.label), input);
  }));
}

export async function startPad(/** @type {Event} */ event) {
  event.preventDefault();
  const info = await catalogue();
  const preset = /** @type {HTMLSelectElement} */ ($('#preset')).value;
  const chosen = info.presets.find((/** @type {any} */ p) => p.name === preset);
  /** @type {Record<string, unknown>} */
  const options = {};
  for (const input of /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll('#options [data-option]'))) {
    const name = /** @type {string} */ (input.dataset.option);
    let value;
    if (input.dataset.kind === 'bool') value = input.checked;
    else if (input.dataset.kind === 'choice') value = JSON.parse(input.value);
    else value = input.value.trim() === '' ? null : Number(input.value);
    if (JSON.stringify(value) !== JSON.stringify(chosen.values[name])) options[name] = value;
  }
  const names = [...document.querySelectorAll('#names input')].map((input, seat) =>
    /** @type {HTMLInputElement} */ (input).value.trim() || `Player ${seat + 1}`);
  if (new Set(names).size !== names.length) {
    $('#setup-error').textContent = 'Give each player a different name.';
    return;
  }
  rememberNames(names);
  const dealer = Number(/** @type {HTMLSelectElement} */ ($('#first-dealer')).value);
  const rules = { preset, options };
  try {
    await getTables(rules, names.length);
  } catch (error) {
    $('#setup-error').textContent = String(/** @type {Error} */ (error).message);
    return;
  }
  $('#setup-error').textContent = '';
  await openPad(newPad(rules, names, dealer));
}

/** Fetch the engine's tables of every preset once, so that any new pad works offline. */
export async function warmTables() {
  if (!('caches' in window) || !navigator.onLine) return;
  let info;
  try {
    info = await catalogue();
  } catch {
    return;
  }
  for (const preset of info.presets) {
    const counts = preset.partnership ? [4] : Array.from({ length: preset.max_players - 1 }, (_, i) => i + 2);
    for (const players of counts) {
      const url = tablesUrl({ preset: preset.name, options: {} }, players);
      if (await caches.match(url)) continue;
      try {
        await fetch(url);
      } catch {
        return;
      }
    }
  }
  document.body.dataset.warm = 'yes';
}
