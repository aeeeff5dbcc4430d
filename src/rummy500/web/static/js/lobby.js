// The lobby (/): start a table with any game, players and seats, and return to tables joined.
// The games and rule options come from the server (one home for them); the server checks them.

import { getJSON, postJSON } from './api.js';
import { $, field, h, replace } from './dom.js';
import { scoreWords, stateWords, whenWords } from './mytables.js';
import { allSeats, forgetSeat, keepName, keepSeat, lastName } from './seats.js';
import { setSetting, setting } from './settings.js';
import { bindSettings } from './settingsform.js';
import { capital } from './words.js';

/**
 * The rules catalogue of GET /api/rules.
 * @typedef {object} Catalogue
 * @property {{ name: string, description: string, values: Record<string, unknown> }[]} presets
 * @property {{ name: string, label: string, kind: string, choices: unknown[], empty?: boolean, meaning: string, values: string }[]} options
 * @property {string[]} bots
 * @property {string} default_bot
 * @property {number} min_players
 * @property {number} max_players
 * @property {boolean} [seeds]
 */
/** @typedef {{ kind: string, bot?: string }} SeatSetup */

/** The turn clock a table with other people starts with (seconds): long enough to think a
 * turn over, short enough that nobody can hold a table of strangers up for long. */
const PEOPLE_CLOCK_S = 90;

/**
 * The turn clock the lobby suggests for these seats: none for one person among computer
 * players (nobody waits for them), {@link PEOPLE_CLOCK_S} once other people sit at the table.
 * @param {SeatSetup[]} seats
 * @returns {number}
 */
function suggestedClock(seats) {
  return seats.filter((seat) => seat.kind === 'person').length > 1 ? PEOPLE_CLOCK_S : 0;
}

/**
 * @type {{ catalogue: Catalogue, values: Record<string, any>, seats: SeatSetup[], name: string,
 *   explainTimer: ReturnType<typeof setTimeout> | undefined, clockChosen: boolean,
 *   explainFailed: boolean }}
 */
const form = {
  catalogue: /** @type {Catalogue} */ (/** @type {unknown} */ (null)),
  values: {},       // option name → value shown
  seats: [],        // [{kind, bot}] per seat
  name: lastName(),
  explainTimer: undefined,
  clockChosen: false, // the person set the turn clock: the seats no longer change it
  explainFailed: false, // the words under Create are the rules' explanation's failure
};

async function start() {
  bindSettings(['theme', 'deck', 'motion', 'firstGame']);
  const first = /** @type {HTMLInputElement} */ ($('#first-game'));
  first.checked = setting('firstGame');
  first.addEventListener('change', () => setSetting('firstGame', first.checked));
  listMyTables();
  try {
    form.catalogue = await getJSON('/api/rules');
    // The server takes a shuffle number only when its operator allows it (tests).
    $('#seed-field').hidden = !form.catalogue.seeds;
  } catch (error) {
    $('#create-error').textContent = `The games cannot be loaded: ${error.message}`;
    return;
  }
  const presets = form.catalogue.presets;
  replace($('#preset'), presets.map((p) => h('option', { value: p.name }, title(p.name))));
  $('#preset').addEventListener('change', () => choosePreset(true));
  $('#players').addEventListener('change', () => { resizeSeats(); explainSoon(); });
  $('#reset-options').addEventListener('click', () => choosePreset(true));
  $('#new-table').addEventListener('submit', create);
  $('#turn-clock').addEventListener('input', () => { form.clockChosen = true; });
  choosePreset(true);
}

/** @param {string} name */
function title(name) {
  return name[0].toUpperCase() + name.slice(1);
}

function preset() {
  return form.catalogue.presets.find((p) => p.name === field('#preset').value) || form.catalogue.presets[0];
}

/** @param {boolean} resetOptions */
function choosePreset(resetOptions) {
  const chosen = preset();
  $('#preset-help').textContent = chosen.description;
  if (resetOptions) form.values = { ...chosen.values };
  drawOptions();
  drawPlayers();
  explainSoon();
}

function drawPlayers() {
  const select = field('#players');
  const previous = Number(select.value) || 2;
  const partnership = Boolean(form.values.partnership);
  const most = Number(form.values.max_players) || form.catalogue.max_players;
  const counts = [];
  for (let n = form.catalogue.min_players; n <= most; n += 1) {
    if (!partnership || n === 4) counts.push(n);
  }
  replace(select, counts.map((n) => h('option', { value: String(n) }, String(n))));
  select.value = String(counts.includes(previous) ? previous : counts.includes(2) ? 2 : counts[0]);
  $('#players-help').textContent = partnership
    ? 'Two sides of two, partners sitting opposite (seats 1 and 3 against 2 and 4).'
    : `From ${counts[0]} to ${counts[counts.length - 1]} players.`;
  resizeSeats();
}

function resizeSeats() {
  const count = Number(field('#players').value);
  while (form.seats.length < count) {
    form.seats.push(form.seats.length === 0 ? { kind: 'person' } : { kind: 'bot', bot: form.catalogue.default_bot });
  }
  form.seats.length = count;
  drawSeats();
}

function drawSeats() {
  if (!form.clockChosen) field('#turn-clock').value = String(suggestedClock(form.seats));
  const box = $('#seats');
  const firstPerson = form.seats.findIndex((s) => s.kind === 'person');
  box.replaceChildren();
  form.seats.forEach((seat, index) => {
    const kind = /** @type {HTMLSelectElement} */ (h('select', { id: `seat-kind-${index}`, 'aria-label': `Seat ${index + 1}: who plays` },
      h('option', { value: 'person' }, 'A person'),
      h('option', { value: 'bot' }, 'A computer player')));
    kind.value = seat.kind;
    kind.addEventListener('change', () => {
      form.seats[index] = kind.value === 'bot' ? { kind: 'bot', bot: form.catalogue.default_bot } : { kind: 'person' };
      drawSeats();
    });
    const row = h('div', { class: 'seat-setup' }, h('span', { class: 'seat-no' }, `Seat ${index + 1}`), kind);
    if (seat.kind === 'bot') {
      const level = /** @type {HTMLSelectElement} */ (h('select', { id: `seat-bot-${index}`, 'aria-label': `Seat ${index + 1}: computer player's level` },
        form.catalogue.bots.map((bot) => h('option', { value: bot }, botLabel(bot)))));
      level.value = seat.bot || '';
      level.addEventListener('change', () => { seat.bot = level.value; });
      row.append(level);
    } else if (index === firstPerson) {
      const name = /** @type {HTMLInputElement} */ (h('input', { id: 'my-name', maxlength: '40', value: form.name, placeholder: 'Your name', 'aria-label': 'Your name (you take this seat)', required: true }));
      name.addEventListener('input', () => { form.name = name.value; });
      row.append(name, h('span', { class: 'help' }, 'you'));
    } else {
      row.append(h('span', { class: 'help' }, 'open: whoever has the link takes it'));
    }
    box.append(row);
  });
}

// A meaning that names other options ("with four_of_a_kind_doubles: …") names them by their labels.
/** @param {string} text */
function inWords(text) {
  return form.catalogue.options.filter((other) => other.name.includes('_'))
    .reduce((said, other) => said.replace(new RegExp(`\\b${other.name}\\b`, 'g'), `“${other.label || other.name}”`), text);
}

// A choice as a person writes it: "discard pile", not "discard_pile".
/** @param {string} text */
function spaced(text) {
  return text.replace(/_/g, ' ');
}

/** @param {string} bot */
function botLabel(bot) {
  /** @type {Record<string, string>} */
  const words = {
    random: 'random (plays any legal move)',
    simple: 'simple (a beginner)',
    expert: 'expert (a strong player)',
    mcts: 'mcts (searches; strongest, slowest)',
  };
  return words[bot] || bot;
}

function drawOptions() {
  const box = $('#options');
  box.replaceChildren();
  const base = preset().values;
  for (const option of form.catalogue.options) {
    const value = form.values[option.name];
    const isChanged = JSON.stringify(value) !== JSON.stringify(base[option.name]);
    const id = `opt-${option.name}`;
    /** @type {HTMLInputElement | HTMLSelectElement} */
    let input;
    if (option.kind === 'bool') {
      const box = /** @type {HTMLInputElement} */ (h('input', { id, type: 'checkbox', checked: Boolean(value), 'aria-describedby': `${id}-help` }));
      box.addEventListener('change', () => setOption(option.name, box.checked));
      input = box;
    } else if (option.kind === 'choice') {
      const select = /** @type {HTMLSelectElement} */ (h('select', { id, 'aria-describedby': `${id}-help` },
        option.choices.map((choice) => h('option', { value: String(choice) }, spaced(String(choice))))));
      select.value = String(value);
      input = select;
      select.addEventListener('change', () => {
        const found = option.choices.find((c) => String(c) === select.value);
        setOption(option.name, found);
      });
    } else {
      const number = /** @type {HTMLInputElement} */ (h('input', { id, type: 'number', inputmode: 'numeric', value: value === null ? '' : String(value),
        placeholder: option.empty ? 'none' : '', 'aria-describedby': `${id}-help` }));
      input = number;
      number.addEventListener('change', () => {
        const text = number.value.trim();
        setOption(option.name, text === '' && option.empty ? null : Number(text));
      });
      // The count follows the typing; the options are drawn again when the field is left.
      number.addEventListener('input', () => {
        const text = number.value.trim();
        countChanged({ [option.name]: text === '' && option.empty ? null : Number(text) });
      });
    }
    // The meaning in words: the values of a yes/no option are its box, and a choice's are its list.
    const meaning = capital(inWords(option.meaning));
    const help = h('span', { id: `${id}-help`, class: 'help' },
      option.kind === 'number' ? `${meaning} (${option.values}).` : `${meaning}.`);
    const label = h('label', { for: id }, option.label || option.name);
    box.append(option.kind === 'bool'
      ? h('div', { class: `option check${isChanged ? ' changed' : ''}` }, input, label,
        h('span', { class: 'yes-no', 'aria-hidden': 'true' }, value ? 'yes' : 'no'), help)
      : h('div', { class: `option${isChanged ? ' changed' : ''}` }, label, input, help));
  }
  countChanged();
}

/**
 * Says how many options differ from the preset's; `typing`: values being typed, over the form's.
 * @param {Record<string, unknown>} [typing]
 */
function countChanged(typing = {}) {
  const base = preset().values;
  const values = { ...form.values, ...typing };
  const changed = form.catalogue.options
    .filter((option) => JSON.stringify(values[option.name]) !== JSON.stringify(base[option.name])).length;
  $('#changed-count').textContent = changed ? `${changed} changed` : 'none changed';
}

/**
 * @param {string} name
 * @param {unknown} value
 */
function setOption(name, value) {
  const focused = document.activeElement && document.activeElement.id;
  form.values[name] = value;
  drawOptions();
  if (name === 'partnership' || name === 'max_players') drawPlayers();
  if (focused) {
    const again = document.getElementById(focused);
    if (again) again.focus();
  }
  explainSoon();
}

function rulesObject() {
  const base = preset().values;
  /** @type {Record<string, unknown>} */
  const rules = { preset: preset().name };
  for (const [name, value] of Object.entries(form.values)) {
    if (JSON.stringify(value) !== JSON.stringify(base[name])) rules[name] = value;
  }
  return rules;
}

function explainSoon() {
  clearTimeout(form.explainTimer);
  form.explainTimer = setTimeout(explain, 150);
}

async function explain() {
  try {
    const answer = await postJSON('/api/rules/explain', { rules: rulesObject(), players: Number(field('#players').value) });
    replace($('#explain'), answer.topics.map((/** @type {{ topic: string, text: string }} */ t) => [h('dt', {}, t.topic), h('dd', {}, t.text)]));
    // Only its own failure is taken back: a refusal of Create stays to be read.
    if (form.explainFailed) $('#create-error').textContent = '';
    form.explainFailed = false;
  } catch (error) {
    replace($('#explain'), h('dd', {}, error.message));
    $('#create-error').textContent = error.message;
    form.explainFailed = true;
  }
}

/** @param {SubmitEvent} event */
async function create(event) {
  event.preventDefault();
  form.explainFailed = false; // the words under Create are Create's from now
  const error = $('#create-error');
  const seats = form.seats.map((seat, index) => {
    if (seat.kind === 'bot') return { kind: 'bot', bot: seat.bot };
    const first = form.seats.findIndex((s) => s.kind === 'person') === index;
    return first ? { kind: 'person', name: form.name.trim() } : { kind: 'person' };
  });
  if (!seats.some((s) => s.kind === 'person')) {
    error.textContent = 'One seat at least must be a person: you.';
    return;
  }
  if (!form.name.trim()) {
    error.textContent = 'Say your name first: the other players see it.';
    $('#my-name').focus();
    return;
  }
  const takeover = Number(field('#takeover').value);
  if (!Number.isInteger(takeover) || takeover < 0) {
    error.textContent = 'The take-over time is a whole number of seconds, 0 or more.';
    $('#takeover').focus();
    return;
  }
  const pause = Number(field('#deal-pause').value);
  const clock = Number(field('#turn-clock').value);
  if (!Number.isInteger(pause) || pause < 0 || pause > 600) {
    error.textContent = 'The pause after a deal is a whole number of seconds, from 0 to 600.';
    $('#deal-pause').focus();
    return;
  }
  if (!Number.isInteger(clock) || clock < 0 || (clock > 0 && clock < 5) || clock > 3600) {
    error.textContent = 'The turn clock is 0 (none) or a whole number of seconds from 5 to 3600.';
    $('#turn-clock').focus();
    return;
  }
  const bank = Number(field('#time-bank').value || 0);
  if (!Number.isInteger(bank) || bank < 0 || bank > 3600 || (bank > 0 && clock === 0)) {
    error.textContent = bank > 0 && clock === 0 && Number.isInteger(bank) && bank <= 3600
      ? 'A time bank is spent when a turn clock runs out: set a turn clock, or a bank of 0.'
      : 'The time bank is a whole number of seconds, from 0 to 3600.';
    $('#time-bank').focus();
    return;
  }
  /** @type {Record<string, unknown>} */
  const body = { rules: rulesObject(), players: seats.length, seats, takeover_s: takeover, deal_pause_s: pause, turn_s: clock };
  if (bank) body.bank_s = bank;
  const seed = field('#seed').value.trim();
  if (seed) {
    if (!/^[0-9]{1,15}$/.test(seed)) {
      error.textContent = 'The shuffle number is a whole number, 0 or more.';
      $('#seed').focus();
      return;
    }
    body.seed = Number(seed);
  }
  const button = /** @type {HTMLButtonElement} */ ($('#create'));
  button.disabled = true;
  try {
    const answer = await postJSON('/api/tables', body);
    keepName(form.name.trim());
    keepSeat(answer.table, answer.seat, answer.token, form.name.trim());
    location.assign(answer.url || `/t/${encodeURIComponent(answer.table)}`);
  } catch (failure) {
    error.textContent = `The table was not started: ${failure.message}`;
    button.disabled = false;
  }
}

async function listMyTables() {
  const seats = allSeats();
  const list = $('#my-tables');
  if (!seats.length) return;
  $('#mine-section').hidden = false;
  list.replaceChildren();
  for (const entry of seats) {
    const path = `/t/${encodeURIComponent(entry.table)}`;
    const when = whenWords(entry.since);
    const item = h('li', {}, h('span', { class: 'what' },
      h('strong', {}, `Table ${entry.table.slice(0, 8)}…`), when ? h('span', { class: 'when' }, ` joined ${when}`) : null));
    list.append(item);
    const forget = h('button', { type: 'button', class: 'quiet', 'aria-label': `Forget table ${entry.table.slice(0, 8)}` }, 'Forget');
    forget.addEventListener('click', () => { forgetSeat(entry.table); item.remove(); });
    try {
      /** @type {import('./mytables.js').HeldTable} */
      const summary = await getJSON(`/api/tables/${encodeURIComponent(entry.table)}`);
      const preset = (summary.rules && summary.rules.preset) || 'classic';
      replace($('.what', item),
        h('strong', {}, `${title(preset)}, ${summary.players} players`),
        when ? h('span', { class: 'when' }, ` · ${when}`) : null,
        h('br'),
        h('span', { class: 'score' }, scoreWords(summary, entry.seat)),
        h('span', { class: `state ${summary.status}` }, ` · ${stateWords(summary)}`));
      item.dataset.status = summary.status;
      if (summary.status === 'over') {
        item.append(h('a', { class: 'button-link', href: `${path}/replay` }, 'Replay'));
      } else {
        item.append(h('a', { class: 'button-link primary', href: path }, 'Return to the table'));
      }
    } catch (error) {
      $('.what', item).append(error.status === 404 ? ': this table no longer exists' : `: ${error.message}`);
    }
    item.append(forget);
  }
}

start();
