// The score pad page (/pad): a game played with real cards, scored deal by deal with the
// engine's tables (score.js), kept in this browser (store.js), working offline (sw.js).

import { $, h, replace } from '../dom.js';
import { cardsView, cardGrid } from './grid.js';
import {
  dealerOf, emptyDeal, fromFile, isEmptyDeal, newPad, parseCards, sideNames, tablesUrl, toCsv, toFile,
} from './model.js';
import { couldGrow, meldKey, physical, scoreGame, scoreDeal } from './score.js';
import { follow, sendSoon, sharePad, showShare } from './share.js';
import { deletePad, getTables, loadPads, rememberNames, rememberedNames, savePad } from './store.js';

/** @typedef {import('./model.js').Pad} Pad */
/** @typedef {import('./score.js').PadDeal} PadDeal */
/** @typedef {import('./score.js').Tables} Tables */
/**
 * Where the next card tapped goes.
 * @typedef {{kind: 'meld' | 'hand' | 'layoff', seat: number, on?: number}} Target
 */

const LINE_WORDS = /** @type {Record<string, string>} */ ({
  on_table: 'on the table', doubled: 'melds of four counted double', in_hand: 'in hand',
  hands_won: 'hand added to', going_out: 'going out', game_bonus: 'winning the game',
});

const state = {
  /** @type {Pad | null} */ pad: null,
  /** @type {Tables | null} */ tables: null,
  /** @type {number} the past deal being changed, or -1 for the deal being entered */ editing: -1,
  /** @type {PadDeal | null} a past deal's changes, not yet saved */ draft: null,
  /** @type {Target} */ target: { kind: 'meld', seat: 0 },
  /** @type {number | null} the meld cards are being added to (its index) */ openMeld: null,
  /** whether the scorekeeper chose who went out (else the one seat left with no cards) */ wentOutChosen: false,
  /** the next card tapped is what a wild joker stands for */ jokerPending: false,
  /** @type {string[]} the pad as it was before each entry */ undo: [],
  message: '',
  /** @type {any} */ catalogue: null,
};

const fmt = (/** @type {number} */ n) => (n < 0 ? `−${-n}` : String(n));
const signed = (/** @type {number} */ n) => (n > 0 ? `+${n}` : fmt(n));

// -- the deal being entered or changed ------------------------------------------------------

/** @returns {PadDeal} */
function deal() {
  const pad = /** @type {Pad} */ (state.pad);
  return state.editing >= 0 ? /** @type {PadDeal} */ (state.draft) : pad.current;
}

function remember() {
  state.undo.push(JSON.stringify({ pad: state.pad, draft: state.draft, openMeld: state.openMeld }));
  if (state.undo.length > 40) state.undo.shift();
}

/** The undo list is kept with the pad, so that a reload can still take back the last entry. */
function undoKey() {
  return `rummy500.pad.undo:${/** @type {Pad} */ (state.pad).id}`;
}

function persist() {
  if (!state.pad) return;
  savePad(state.pad);
  sendSoon(state.pad);
  try {
    localStorage.setItem(undoKey(), JSON.stringify(state.undo.slice(-20)));
    if (state.editing < 0) {
      localStorage.setItem(`rummy500.pad.entry:${state.pad.id}`,
        JSON.stringify({ target: state.target, openMeld: state.openMeld, wentOutChosen: state.wentOutChosen }));
    }
  } catch { /* full: undo stays for this visit */ }
}

/**
 * Where the entry of `pad`'s current deal stood (whose cards, which meld), kept across a
 * reload so that the next card goes on where the last one went.
 * @param {Pad} pad
 */
function restoreEntry(pad) {
  state.target = { kind: 'meld', seat: 0 };
  state.openMeld = null;
  state.wentOutChosen = pad.current.went_out !== null;
  try {
    const kept = JSON.parse(localStorage.getItem(`rummy500.pad.entry:${pad.id}`) || 'null');
    if (!kept || !kept.target || !(kept.target.seat < pad.players.length)) return;
    state.target = kept.target;
    state.wentOutChosen = Boolean(kept.wentOutChosen);
    const open = kept.openMeld;
    if (typeof open === 'number' && pad.current.melds[open] && pad.current.melds[open].seat === kept.target.seat) {
      state.openMeld = open;
    }
  } catch { /* the entry starts afresh */ }
}

/** Who went out, when the scorekeeper has not said: the one seat left holding no cards. */
function guessWentOut() {
  if (state.wentOutChosen) return;
  const d = deal();
  const empty = d.hands.flatMap((hand, seat) => (hand.length === 0 && d.points[seat] === null ? [seat] : []));
  d.went_out = empty.length === 1 ? empty[0] : null;
}

/**
 * Where a physical card is already used in the deal, in words.
 * @param {string} card
 */
function usedAt(card) {
  const d = deal();
  const names = /** @type {Pad} */ (state.pad).players;
  /** @type {string[]} */
  const places = [];
  d.melds.forEach((m, i) => m.cards.forEach((p) => { if (physical(p) === card) places.push(`meld ${i + 1} by ${names[m.seat]}`); }));
  d.layoffs.forEach((l) => l.cards.forEach((p) => { if (physical(p) === card) places.push(`a lay-off by ${names[l.seat]}`); }));
  d.hands.forEach((hand, seat) => hand.forEach((p) => { if (physical(p) === card) places.push(`${names[seat]}'s hand`); }));
  return places;
}

/**
 * A card tapped (or typed): it goes where the target says, if the packs hold another.
 * @param {string} piece
 * @returns {boolean} whether it was taken
 */
function addPiece(piece) {
  const tables = /** @type {Tables} */ (state.tables);
  const card = physical(piece);
  const held = tables.copies[card] || 0;
  const places = usedAt(card);
  if (places.length >= held) {
    const what = card === '*' ? 'every joker' : card;
    state.message = held ? `${what} is already used (${places.join('; ')}), and the pack${tables.decks > 1 ? 's hold' : ' holds'} ${card === '*' ? held : (held === 1 ? 'it once' : `it ${held} times`)}.`
      : `${what}: there is no such card in this game.`;
    return false;
  }
  const d = deal();
  const { target } = state;
  if (target.kind === 'hand') {
    remember();
    d.points[target.seat] = null;
    d.hands[target.seat].push(piece);
  } else if (target.kind === 'layoff') {
    remember();
    d.points[target.seat] = null;
    const found = d.layoffs.find((l) => l.seat === target.seat && l.on === target.on);
    if (found) found.cards.push(piece);
    else d.layoffs.push({ seat: target.seat, on: /** @type {number} */ (target.on), cards: [piece] });
  } else {
    const open = state.openMeld === null ? null : d.melds[state.openMeld];
    if (open && open.seat === target.seat && couldGrow(tables, [...open.cards, piece])) {
      remember();
      open.cards.push(piece);
    } else if (open && open.seat === target.seat && !tables.melds[meldKey(open.cards)] && open.cards.length) {
      state.message = `${piece} does not go with ${open.cards.join(' ')}: no meld holds them. Tap New meld to start another.`;
      return false;
    } else {
      remember();
      d.points[target.seat] = null;
      d.melds.push({ seat: target.seat, cards: [piece] });
      state.openMeld = d.melds.length - 1;
    }
  }
  state.message = '';
  guessWentOut();
  return true;
}

/**
 * Take back one card that was entered.
 * @param {'meld' | 'layoff' | 'hand'} kind
 * @param {number} index the meld, lay-off or seat
 * @param {number} position
 */
function takeBack(kind, index, position) {
  remember();
  const d = deal();
  if (kind === 'meld') {
    d.melds[index].cards.splice(position, 1);
    if (!d.melds[index].cards.length) {
      d.melds.splice(index, 1);
      d.layoffs = d.layoffs.filter((l) => l.on !== index + 1).map((l) => (l.on > index + 1 ? { ...l, on: l.on - 1 } : l));
      state.openMeld = null;
    }
  } else if (kind === 'layoff') {
    d.layoffs[index].cards.splice(position, 1);
    if (!d.layoffs[index].cards.length) d.layoffs.splice(index, 1);
  } else {
    d.hands[index].splice(position, 1);
  }
  guessWentOut();
  changed();
}

function changed() {
  persist();
  render();
}

// -- rendering --------------------------------------------------------------------------

function render() {
  const pad = state.pad;
  $('#home').hidden = pad !== null || !$('#setup').hidden;
  if (!pad || !state.tables) return;
  $('#game').hidden = false;
  $('#setup').hidden = true;
  const tables = state.tables;
  const game = scoreGame(tables, pad.deals, pad.players);
  const sides = sideNames(tables, pad.players);
  renderTotals(pad, tables, game, sides);
  renderDeals(game, sides);
  renderEnd(pad, game, sides);
  renderEditor(pad, tables, game, sides);
  renderLog(pad);
  document.title = `Score pad: ${sides.join(', ')}`;
}

/**
 * @param {Pad} pad
 * @param {Tables} tables
 * @param {ReturnType<typeof scoreGame>} game
 * @param {string[]} sides
 */
function renderTotals(pad, tables, game, sides) {
  const best = Math.max(...game.totals);
  const target = tables.end.target;
  replace($('#totals'), ...sides.map((name, side) => h('li', {
    class: game.totals[side] === best && game.played ? 'leader' : '', dataset: { side: String(side), total: String(game.totals[side]) },
  }, h('span', { class: 'who' }, name), h('strong', { class: 'total' }, fmt(game.totals[side])))));
  const rules = `${pad.rules.preset}${Object.keys(pad.rules.options).length ? ' with house rules' : ''}`;
  const goal = target !== null ? `to ${target}` : `${tables.end.deal_limit} deals`;
  $('#pad-rules').textContent = `${rules}, ${goal}`;
}

/**
 * @param {ReturnType<typeof scoreGame>} game
 * @param {string[]} sides
 */
function renderDeals(game, sides) {
  replace($('#deals'), ...game.sheets.map((sheet, index) => h('li', {},
    h('button', {
      type: 'button', class: `deal-row${state.editing === index ? ' open' : ''}`, 'aria-pressed': String(state.editing === index),
      onclick: () => openPast(index),
    }, `Deal ${index + 1}: `, sheet.score.scores.map((s, side) => `${sides[side]} ${signed(s)}`).join(', ')))));
}

/**
 * @param {Pad} pad
 * @param {ReturnType<typeof scoreGame>} game
 * @param {string[]} sides
 */
function renderEnd(pad, game, sides) {
  const end = $('#game-end');
  end.hidden = !game.over;
  if (!game.over) return;
  replace($('#winner'), game.winner === null ? `The game is over: a draw at ${fmt(game.totals[0])}.`
    : `${sides[game.winner]} won the game with ${fmt(game.totals[game.winner])}.`);
  void pad;
}

/**
 * @param {Pad} pad
 * @param {Tables} tables
 * @param {ReturnType<typeof scoreGame>} game
 * @param {string[]} sides
 */
function renderEditor(pad, tables, game, sides) {
  const editor = $('#deal-editor');
  const entering = state.editing < 0;
  editor.hidden = entering && game.over;
  if (editor.hidden) return;
  const d = deal();
  const number = entering ? pad.deals.length + 1 : state.editing + 1;
  $('#deal-heading').textContent = `Deal ${number}: ${pad.players[d.dealer]} deals${entering ? '' : ' (changing)'}`;
  // Who and what the cards go to.
  replace($('#targets'), ...pad.players.map((name, seat) => h('div', { class: 'target-row', role: 'group', 'aria-label': name },
    h('span', { class: 'target-name' }, name, d.went_out === seat ? h('span', { class: 'out-tag' }, ' out') : null),
    targetButton({ kind: 'meld', seat }, 'melds'),
    targetButton({ kind: 'hand', seat }, 'hand'))));
  const target = state.target;
  const what = target.kind === 'hand' ? `${pad.players[target.seat]}'s hand`
    : target.kind === 'layoff' ? `${pad.players[target.seat]}'s lay-off on meld ${target.on}`
      : `${pad.players[target.seat]}'s melds`;
  $('#target-words').textContent = state.jokerPending ? 'Tap the card the joker stands for.' : `Cards go to ${what}.`;
  replace($('#grid'), cardGrid(tables, (piece) => tap(piece), (card) => usedAt(card).length));
  // What is entered, seat by seat.
  const score = scoreDeal(tables, d, pad.players);
  replace($('#entered'), ...pad.players.map((name, seat) => h('li', { class: 'entered-seat' },
    h('span', { class: 'target-name' }, name, ':'),
    d.points[seat] !== null ? h('span', {}, ` ${fmt(/** @type {number} */ (d.points[seat]))} points given`) : null,
    d.melds.map((m, index) => (m.seat === seat ? h('span', { class: `meld-entry${score.meldProblems[index] ? ' wrong' : ''}` },
      h('span', { class: 'meld-no' }, `m${index + 1}`),
      cardsView(m.cards, (pos) => takeBack('meld', index, pos)),
      d.layoffs.map((l, li) => (l.on === index + 1 ? h('span', { class: 'layoff' }, `+ ${pad.players[l.seat]}: `,
        cardsView(l.cards, (pos) => takeBack('layoff', li, pos))) : null)),
      h('button', {
        type: 'button', class: 'quiet small', 'aria-label': `Lay off on meld ${index + 1} for ${pad.players[state.target.seat]}`,
        onclick: () => { state.target = { kind: 'layoff', seat: state.target.seat, on: index + 1 }; state.openMeld = null; render(); },
      }, 'lay off here')) : null)),
    d.hands[seat].length ? h('span', { class: 'hand-entry' }, h('span', { class: 'meld-no' }, 'hand'),
      cardsView(d.hands[seat], (pos) => takeBack('hand', seat, pos))) : null)));
  // Who went out.
  const out = /** @type {HTMLSelectElement} */ ($('#went-out'));
  replace(out, h('option', { value: '' }, 'Nobody (the stock ran out)'),
    ...pad.players.map((name, seat) => h('option', { value: String(seat) }, name)));
  out.value = d.went_out === null ? '' : String(d.went_out);
  // Points given as numbers.
  replace($('#points'), ...pad.players.map((name, seat) => h('label', { class: 'points-field' }, `${name} `,
    h('input', {
      type: 'number', inputmode: 'numeric', step: '1', value: d.points[seat] === null ? '' : String(d.points[seat]),
      'aria-label': `${name}'s points for the deal, counted by hand`, dataset: { seat: String(seat) },
    }))));
  // The sheet, live.
  const sheet = entering ? score : game.sheets[state.editing] ? scoreDeal(tables, d, pad.players) : score;
  replace($('#sheet-lines'), ...sheet.lines.map((line) => h('li', { class: line.what },
    h('span', {}, line.seat === null ? `${sides[line.side]}: ${LINE_WORDS[line.what]}`
      : line.what === 'hands_won' ? `${pad.players[line.seat]}: ${LINE_WORDS[line.what]} ${sides[line.side]}`
        : `${pad.players[line.seat]}: ${LINE_WORDS[line.what] || line.what}`),
    h('span', { class: 'points' }, signed(line.points)))));
  replace($('#sheet-scores'), ...sheet.scores.map((s, side) => h('li', { dataset: { side: String(side), score: String(s) } },
    h('span', {}, sides[side]), h('strong', {}, signed(s)))));
  const problems = [...score.problems];
  d.points.forEach((p, seat) => {
    if (p !== null && (d.hands[seat].length || d.melds.some((m) => m.seat === seat) || d.layoffs.some((l) => l.seat === seat))) {
      problems.push(`${pad.players[seat]} has cards entered and points given: clear one of them`);
    }
  });
  replace($('#problems'), ...problems.map((p) => h('li', {}, p)));
  $('#message').textContent = state.message;
  const done = /** @type {HTMLButtonElement} */ ($('#deal-done'));
  done.textContent = entering ? 'Deal done' : 'Save changes';
  done.setAttribute('aria-disabled', String(problems.length > 0 || (entering && isEmptyDeal(d))));
  $('#cancel-edit').hidden = entering;
  $('#new-meld').setAttribute('aria-disabled', String(state.target.kind !== 'meld'));
  /** @type {HTMLButtonElement} */ ($('#undo')).disabled = state.undo.length === 0;
}

/**
 * @param {Target} target
 * @param {string} label
 */
function targetButton(target, label) {
  const t = state.target;
  const on = t.kind === target.kind && t.seat === target.seat;
  const name = /** @type {Pad} */ (state.pad).players[target.seat];
  return h('button', {
    type: 'button', class: 'target', 'aria-pressed': String(on), id: `target-${target.kind}-${target.seat}`,
    'aria-label': `${name}: ${label}`,
    onclick: () => { state.target = target; state.openMeld = null; state.jokerPending = false; render(); },
  }, label);
}

/** @param {Pad} pad */
function renderLog(pad) {
  $('#log-section').hidden = pad.log.length === 0;
  replace($('#log'), ...pad.log.map((entry) => h('li', {}, `${new Date(entry.at).toLocaleString()}: ${entry.text}`)));
}

/**
 * A card of the grid tapped.
 * @param {string} piece
 */
function tap(piece) {
  const tables = /** @type {Tables} */ (state.tables);
  if (piece === '*' && tables.jokers === 'wild' && state.target.kind !== 'hand') {
    state.jokerPending = !state.jokerPending;
    render();
    return;
  }
  const taken = addPiece(state.jokerPending && piece !== '*' ? `*=${piece}` : piece);
  if (taken) state.jokerPending = false;
  changed();
  const again = document.getElementById(`card-${piece === '*' ? 'joker' : piece}`);
  if (again) again.focus();
}

// -- actions ----------------------------------------------------------------------------

/** @param {number} index */
function openPast(index) {
  const pad = /** @type {Pad} */ (state.pad);
  if (state.editing === index) {
    closeEditor();
    return;
  }
  state.editing = index;
  state.draft = structuredClone(pad.deals[index]);
  state.wentOutChosen = true;
  state.openMeld = null;
  state.target = { kind: 'meld', seat: 0 };
  render();
  $('#deal-editor').scrollIntoView({ block: 'start' });
  $('#deal-heading').focus();
}

function closeEditor() {
  state.editing = -1;
  state.draft = null;
  state.wentOutChosen = false;
  state.openMeld = null;
  render();
}

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

/**
 * Open a pad: its tables first (kept, or asked of the server).
 * @param {Pad} pad
 */
async function openPad(pad) {
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

function renderHome() {
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

// -- set-up -----------------------------------------------------------------------------

async function catalogue() {
  if (!state.catalogue) {
    const response = await fetch('/api/rules');
    state.catalogue = await response.json();
  }
  return state.catalogue;
}

/** @param {{names?: string[], rules?: import('./model.js').RulesSpec, dealer?: number}} [seed] */
async function showSetup(seed = {}) {
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

async function startPad(/** @type {Event} */ event) {
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

/** @param {File} file */
async function importFile(file) {
  try {
    const pad = fromFile(JSON.parse(await file.text()));
    await openPad(pad);
  } catch (error) {
    showHomeError(`That file cannot be opened: ${/** @type {Error} */ (error).message}`);
  }
}

/** Fetch the engine's tables of every preset once, so that any new pad works offline. */
async function warmTables() {
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
