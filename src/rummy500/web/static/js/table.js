// The table page (/t/<id>): join or watch, then play through PROTOCOL.md's WebSocket. The page
// holds no rules: it shows the state the server sends, offers the engine's legal moves, and
// shows the engine's reason when a move is refused.

import { ApiError, getJSON, postJSON } from './api.js';
import { renderHand, renderMelds, renderPile, seatBadge, seatMarks } from './board.js';
import { cardBack, cardFace, pretty, prettyList, sortCards } from './cards.js';
import { Connection } from './connection.js';
import { $, h, plural, replace } from './dom.js';
import { couldMeld, layoffsFor, layoffTargets, meldsFor, readLegal, takeText } from './moves.js';
import { forgetSeat, keepName, keepSeat, lastName, seatAt } from './seats.js';
import {
  YOU, dealEnding, moveLine, moveParts, outcomeLine, runningTotals, sideName, sideOfSeat,
  sidesOf,
} from './words.js';

const tableId = decodeURIComponent(location.pathname.split('/')[2] || '');
const WATCH_KEY = `rummy500.watch.${tableId}`;
const SHEETS_KEY = `rummy500.sheets.${tableId}`;
const SORT_KEY = 'rummy500.sort';

const ctx = {
  summary: null, info: null, conn: null, seat: null, watching: false,
  state: null, legal: readLegal([]), sort: localStorage.getItem(SORT_KEY) || 'suit',
  selected: [], pending: null, hint: null, names: [], marks: [], sides: [],
  poll: null, logSeq: -1, lastNet: '', next: null, nextTold: false,
};

// -- start ------------------------------------------------------------------------------------

async function start() {
  bindStatic();
  if (!tableId) {
    fatal('This address names no table. Start one from the lobby.');
    return;
  }
  try {
    ctx.summary = await getJSON(`/api/tables/${encodeURIComponent(tableId)}`);
  } catch (error) {
    fatal(error instanceof ApiError && error.status === 404
      ? 'There is no such table. Check the link, or start a new table from the lobby.'
      : error.message);
    return;
  }
  await loadRules();
  namesFromSummary();
  const stored = seatAt(tableId);
  if (stored) connect(stored.token, stored.seat);
  else if (sessionStorage.getItem(WATCH_KEY)) connect(null, null);
  else if (ctx.summary.status === 'over') showJoin();
  else showJoin();
}

async function loadRules() {
  try {
    ctx.info = await postJSON('/api/rules/explain', { rules: ctx.summary.rules, players: ctx.summary.players });
  } catch {
    ctx.info = { sides: [], topics: [], preset: (ctx.summary.rules || {}).preset || '', description: '' };
  }
  ctx.sides = sidesOf(ctx.summary.players, ctx.info.sides);
  const preset = ctx.info.preset || (ctx.summary.rules || {}).preset || 'classic';
  $('#title').textContent = `${preset[0].toUpperCase()}${preset.slice(1)}, ${ctx.summary.players} players`;
  const dialog = $('#rules-dialog');
  replace(dialog,
    h('h2', { id: 'rules-heading' }, `How this game is played (${preset})`),
    ctx.info.description ? h('p', { class: 'muted' }, ctx.info.description) : null,
    h('dl', { class: 'topics' }, (ctx.info.topics || []).map((t) => [h('dt', {}, t.topic), h('dd', {}, t.text)])),
    h('form', { method: 'dialog' }, h('button', {}, 'Close')));
}

function bindStatic() {
  $('#rules-button').addEventListener('click', () => $('#rules-dialog').showModal());
  $('#keys-button').addEventListener('click', () => $('#keys-dialog').showModal());
  $('#sort-button').addEventListener('click', toggleSort);
  $('#typed').addEventListener('submit', (event) => {
    event.preventDefault();
    const input = $('#move-input');
    const text = input.value.trim();
    if (!text) return;
    if (send(text)) input.value = '';
  });
  for (const suffix of ['', '-2']) {
    $(`#copy-link${suffix}`).addEventListener('click', () => copyLink($(`#invite-link${suffix}`)));
  }
  $('#watch-button').addEventListener('click', () => {
    sessionStorage.setItem(WATCH_KEY, '1');
    connect(null, null);
  });
  document.addEventListener('keydown', shortcut);
  const link = `${location.origin}/t/${encodeURIComponent(tableId)}`;
  $('#invite-link').value = link;
  $('#invite-link-2').value = link;
}

function fatal(text) {
  $('#loading').hidden = false;
  $('#loading').textContent = text;
  $('#loading').classList.add('error');
}

function show(part) {
  for (const id of ['loading', 'join', 'waiting', 'game']) $(`#${id}`).hidden = id !== part;
}

// -- names and seats ----------------------------------------------------------------------------

function seatLabel(seat, entry) {
  if (entry && entry.name) return entry.name;
  if (entry && entry.kind === 'bot') return `Computer ${seat + 1}`;
  return `Seat ${seat + 1}`;
}

function namesFromSummary() {
  const seats = (ctx.state && ctx.state.seats) || ctx.summary.seats || [];
  setNames(Array.from({ length: ctx.summary.players }, (_, seat) => seats[seat]));
}

// Each seat's name as shown; two seats of one name (two "Expert"s) get their seat numbers.
function setNames(seats) {
  const names = seats.map((entry, seat) => seatLabel(seat, entry));
  ctx.names = names.map((name, seat) => (names.indexOf(name) !== names.lastIndexOf(name)
    ? `${name} ${seat + 1}` : name));
  ctx.marks = seatMarks(ctx.names);
}

function who(seat) {
  return seat === ctx.seat ? YOU : ctx.names[seat];
}

function seatRows(list, seats, { join }) {
  list.replaceChildren();
  seats.forEach((entry, seat) => {
    const kind = entry.kind === 'bot' ? `computer${entry.bot ? ` (${entry.bot})` : ''}` : 'person';
    const open = 'open' in entry ? Boolean(entry.open) : entry.kind !== 'bot' && !entry.name;
    const item = h('li', { class: 'seat-row' },
      seatBadge(seat, ctx.marks, ctx.names),
      h('span', { class: 'seat-name' }, open ? `Seat ${seat + 1}: open` : `${entry.name || seatLabel(seat, entry)}`),
      h('span', { class: 'muted' }, open ? '' : ` ${kind}${entry.connected ? ', here' : ''}`));
    if (open && join) {
      const input = h('input', { id: `name-${seat}`, maxlength: '40', value: lastName(), 'aria-label': `Your name for seat ${seat + 1}`, placeholder: 'Your name' });
      const button = h('button', { type: 'button', class: 'primary' }, `Take seat ${seat + 1}`);
      button.addEventListener('click', () => takeSeat(seat, input.value.trim(), button));
      input.addEventListener('keydown', (event) => { if (event.key === 'Enter') button.click(); });
      item.append(h('span', { class: 'seat-take' }, input, button));
    }
    list.append(item);
  });
}

function showJoin() {
  show('join');
  const summary = ctx.summary;
  $('#join-rules').textContent = `${ctx.info.description || ''}`;
  const heading = $('#join-heading');
  if (summary.status === 'over') {
    heading.textContent = 'This game is over';
    replace($('#join-rules'), 'See how it went: ',
      h('a', { href: `/t/${encodeURIComponent(tableId)}/replay` }, 'replay the game'), '.',
      summary.next ? [' A new game is ready: ', h('a', { href: `/t/${encodeURIComponent(summary.next)}`, dataset: { action: 'watch-next' } }, 'Watch the next game'), '.'] : null);
  }
  seatRows($('#join-seats'), summary.seats, { join: summary.status !== 'over' });
  const open = summary.seats.some((s) => ('open' in s ? s.open : s.kind !== 'bot' && !s.name));
  if (!open && summary.status !== 'over') {
    $('#join-rules').textContent = 'Every seat is taken; you can watch the game.';
  }
  const first = $('#join-seats input');
  if (first) first.focus();
}

async function takeSeat(seat, name, button) {
  if (!name) {
    $('#join-error').textContent = 'Say your name first: the other players see it.';
    $(`#name-${seat}`).focus();
    return;
  }
  button.disabled = true;
  try {
    const answer = await postJSON(`/api/tables/${encodeURIComponent(tableId)}/seats/${seat}`, { name });
    keepName(name);
    keepSeat(tableId, answer.seat, answer.token, name);
    connect(answer.token, answer.seat);
  } catch (error) {
    button.disabled = false;
    $('#join-error').textContent = error.status === 409
      ? 'Someone has just taken that seat. Choose another, or watch.' : error.message;
    try {
      ctx.summary = await getJSON(`/api/tables/${encodeURIComponent(tableId)}`);
      seatRows($('#join-seats'), ctx.summary.seats, { join: true });
    } catch { /* the message above says enough */ }
  }
}

// -- the connection -----------------------------------------------------------------------------

function connect(token, seat) {
  ctx.seat = seat;
  ctx.token = token;
  ctx.watching = token === null;
  if (ctx.conn) ctx.conn.stop();
  ctx.conn = new Connection(tableId, token, {
    welcome: onWelcome,
    update: onUpdate,
    ack: onAck,
    refused: onRefused,
    error: onError,
    seats: onSeats,
    next: onNext,
    pong: () => {},
    status: onNet,
    rejected: () => {
      forgetSeat(tableId);
      ctx.conn.stop();
      ctx.seat = null;
      showJoin();
      $('#join-error').textContent = 'This browser’s seat at the table is no longer valid. Take a seat again, or watch.';
    },
  });
  ctx.conn.start();
  if (ctx.summary.status !== 'playing' && ctx.summary.status !== 'over') showWaiting();
}

function onNet(kind, detail) {
  const net = $('#net');
  net.className = `net ${kind}`;
  if (kind === 'open') {
    net.textContent = detail ? 'Connected again' : 'Connected';
    if (detail) setTimeout(() => { if (net.textContent === 'Connected again') net.textContent = 'Connected'; }, 3000);
  } else if (kind === 'connecting') {
    net.textContent = 'Connecting…';
  } else if (kind === 'reconnecting') {
    net.textContent = 'Reconnecting…';
  } else if (kind === 'lost') {
    net.textContent = `Connection lost (${detail.why}); reconnecting…`;
    document.body.classList.add('offline');
    ctx.pending = null;
  }
  if (kind === 'open') document.body.classList.remove('offline');
  if (ctx.state) renderActions();
}

function showWaiting() {
  show('waiting');
  seatRows($('#waiting-seats'), ctx.summary.seats, { join: false });
  clearInterval(ctx.poll);
  ctx.poll = setInterval(refreshSummary, 2000);
}

async function refreshSummary() {
  try {
    ctx.summary = await getJSON(`/api/tables/${encodeURIComponent(tableId)}`);
  } catch {
    return;
  }
  if (!ctx.state) namesFromSummary();
  if (ctx.summary.status === 'waiting') {
    seatRows($('#waiting-seats'), ctx.summary.seats, { join: false });
  } else {
    clearInterval(ctx.poll);
    ctx.poll = null;
    if (!hasDeal(ctx.state)) ctx.conn.reconnectNow();
  }
}

// A state with a deal on the table (a table still waiting for people has none).
function hasDeal(state) {
  return Boolean(state && state.phase !== 'waiting' && Array.isArray(state.hand_sizes)
    && state.dealer !== null && state.dealer !== undefined);
}

function onWelcome(frame) {
  if (frame.seat !== undefined && frame.seat !== null) ctx.seat = frame.seat;
  const first = ctx.state === null;
  ctx.pending = null;
  if (!hasDeal(frame.state)) {
    ctx.state = null;
    showWaiting();
    return;
  }
  setState(frame.state, frame.seq);
  if (first || ctx.logSeq < 0) historyLog(frame.state);
  else if (frame.seq > ctx.logSeq) say('(Back at the table: the state shown is the current one.)', 'note');
  ctx.logSeq = frame.seq;
  sheetsCheck(first);
}

function onUpdate(frame) {
  const prev = ctx.state;
  if (!hasDeal(frame.state)) return;
  setState(frame.state, frame.seq);
  const event = frame.event || {};
  if (frame.seq > ctx.logSeq) {
    logEvent(event, prev, frame.state);
    ctx.logSeq = frame.seq;
  }
  if (ctx.hint && ctx.hint.seq !== frame.seq) clearHint();
  sheetsCheck(false);
}

// Who sits where and who is connected changed (a seat taken, someone came or went).
function onSeats(frame) {
  if (!Array.isArray(frame.seats)) return;
  if (ctx.summary) ctx.summary.seats = frame.seats;
  if (!ctx.state) {
    namesFromSummary();
    if (!$('#waiting').hidden) seatRows($('#waiting-seats'), frame.seats, { join: false });
    return;
  }
  ctx.state = { ...ctx.state, seats: frame.seats };
  setNames(frame.seats);
  renderPlayers();
}

// The next game at this table is made ("Play again", by this page or another person's).
function onNext(frame) {
  if (typeof frame.table !== 'string' || !frame.table) return;
  ctx.next = frame.table;
  if (ctx.state) ctx.state = { ...ctx.state, next: frame.table };
  renderAgain();
}

function onAck(frame) {
  if (ctx.pending && ctx.pending.id === frame.id) ctx.pending = null;
  renderActions();
}

function onRefused(frame) {
  const mine = ctx.pending && ctx.pending.id === frame.id;
  const what = mine ? ctx.pending.text : 'your move';
  if (mine) ctx.pending = null;
  const reasons = {
    not_your_turn: 'it is not your turn',
    stale: 'the table changed before your move arrived; look again and choose',
  };
  const why = reasons[frame.code] && !frame.message ? reasons[frame.code] : frame.message || reasons[frame.code] || frame.code;
  message(`Not played: ${what} (${why}).`, 'refusal');
  renderActions();
}

function onError(frame) {
  message(frame.code === 'rate_limited' ? 'Slow down: too many messages at once.' : frame.message || frame.code, 'refusal');
}

// -- state ----------------------------------------------------------------------------------------

function setState(state, seq) {
  const before = ctx.state;
  const selectedCards = before && before.hand ? ctx.selected.map((i) => sortedHand(before)[i]) : [];
  ctx.state = state;
  ctx.seq = seq;
  // Where the table stands, for anyone inspecting the page (and the browser tests).
  Object.assign(document.body.dataset, { seq: String(seq), phase: state.phase, turn: String(state.turn) });
  ctx.legal = readLegal(state.legal || []);
  if (state.seats) setNames(state.seats);
  if (typeof state.next === 'string' && state.next) ctx.next = state.next;
  // Keep the selection on the same cards where they are still in hand.
  const hand = sortedHand(state);
  const used = new Set();
  ctx.selected = [];
  for (const card of selectedCards) {
    const at = hand.findIndex((c, i) => c === card && !used.has(i));
    if (at >= 0) { used.add(at); ctx.selected.push(at); }
  }
  if (before && before.deal !== state.deal) ctx.selected = [];
  clearInterval(ctx.poll);
  ctx.poll = null;
  show('game');
  render();
}

// The current deal's number, from 1 (every finished deal is in state.deals).
function dealNumber(state) {
  return (state.deals || []).length + (state.over ? 0 : 1);
}

function sortedHand(state) {
  return state && state.hand ? sortCards(state.hand, ctx.sort) : [];
}

function selectedCards() {
  const hand = sortedHand(ctx.state);
  return ctx.selected.map((i) => hand[i]).filter(Boolean);
}

function myTurn() {
  const s = ctx.state;
  return Boolean(s) && !s.over && ctx.seat !== null && s.turn === ctx.seat && Array.isArray(s.legal);
}

// -- drawing the table ------------------------------------------------------------------------

function render() {
  renderPlayers();
  renderStatus();
  renderPiles();
  renderTableMelds();
  renderMine();
  renderScores();
  const over = ctx.state.over;
  const link = $('#replay-link');
  link.hidden = !over;
  link.href = `/t/${encodeURIComponent(tableId)}/replay`;
  renderAgain();
}

// -- the next game ("Play again") -----------------------------------------------------------------

// What the game-over dialog and the page offer once the game is over: a seated person starts
// the next game or joins the one another person started; a spectator may watch it.
function againParts() {
  const s = ctx.state;
  if (!s || !s.over) return null;
  const next = ctx.next;
  const seated = ctx.seat !== null && ctx.token;
  if (next && seatAt(next)) {
    return h('p', { class: 'again ready' }, 'A new game is ready: ',
      h('a', { href: `/t/${encodeURIComponent(next)}`, class: 'button-link primary' }, 'Go to it'));
  }
  if (seated) {
    const button = h('button', { type: 'button', class: 'primary', dataset: { action: 'again' } },
      next ? 'Join' : 'Play again');
    button.addEventListener('click', () => playAgain(button));
    return next
      ? h('p', { class: 'again ready' }, 'A new game is ready: ', button)
      : h('p', { class: 'again' }, button, h('span', { class: 'muted' }, ' the same players, a new deal of the cards.'));
  }
  if (next) {
    return h('p', { class: 'again ready' }, 'A new game is ready: ',
      h('a', { href: `/t/${encodeURIComponent(next)}`, class: 'button-link', dataset: { action: 'watch-next' } }, 'Watch the next game'));
  }
  return null;
}

function renderAgain() {
  const notice = $('#again');
  const parts = againParts();
  notice.hidden = !parts;
  replace(notice, parts);
  const inSheet = $('#sheet-again');
  if (inSheet && $('#sheet').open) {
    const focused = inSheet.contains(document.activeElement);
    replace(inSheet, againParts());
    if (focused) {
      const target = inSheet.querySelector('button, a');
      if (target) target.focus();
    }
  }
  if (ctx.next && !ctx.nextTold && ctx.state && ctx.state.over) {
    ctx.nextTold = true;
    say('A new game is ready at this table.', 'deal');
  }
}

async function playAgain(button) {
  button.disabled = true;
  try {
    const answer = await postJSON(`/api/tables/${encodeURIComponent(tableId)}/again`, { token: ctx.token });
    const entry = (ctx.state && ctx.state.seats && ctx.state.seats[ctx.seat]) || {};
    keepSeat(answer.table, answer.seat, answer.token, entry.name || lastName());
    location.assign(answer.url || `/t/${encodeURIComponent(answer.table)}`);
  } catch (error) {
    button.disabled = false;
    const words = error.code === 'seat_taken'
      ? 'Your seat at the new game is taken already (from another browser?).' : `No new game: ${error.message}`;
    message(words, 'refusal');
    const inSheet = $('#sheet-again');
    if (inSheet && $('#sheet').open) inSheet.append(h('p', { class: 'error', role: 'alert' }, words));
  }
}

function renderPlayers() {
  const s = ctx.state;
  const box = $('#players');
  box.replaceChildren();
  const order = [];
  const start = ctx.seat === null ? 0 : (ctx.seat + 1) % s.players;
  for (let i = 0; i < s.players; i += 1) order.push((start + i) % s.players);
  const mySide = ctx.seat === null ? -1 : sideOfSeat(ctx.seat, ctx.sides);
  for (const seat of order) {
    const entry = (s.seats || [])[seat] || {};
    const side = sideOfSeat(seat, ctx.sides);
    const partner = ctx.sides[side] && ctx.sides[side].length > 1 && side === mySide && seat !== ctx.seat;
    const tags = [];
    if (seat === ctx.seat) tags.push(h('span', { class: 'tag you' }, 'you'));
    if (partner) tags.push(h('span', { class: 'tag partner' }, 'partner'));
    else if (ctx.sides[side] && ctx.sides[side].length > 1) tags.push(h('span', { class: `tag side side-${side}` }, `side ${'AB'[side] || side + 1}`));
    if (seat === s.dealer) tags.push(h('span', { class: 'tag dealer', title: 'dealer' }, 'dealer'));
    let presence;
    if (entry.kind === 'bot') presence = `computer${entry.bot ? ` (${entry.bot})` : ''}`;
    else if (entry.connected) presence = 'here';
    else if (entry.standin || entry.stand_in) presence = 'away: a computer plays for them';
    else presence = (ctx.summary.takeover_s === 0) ? 'away' : 'away (a computer plays for them if they stay away)';
    const turn = s.turn === seat && !s.over;
    const count = s.hand_sizes[seat];
    box.append(h('div', {
      class: `player${turn ? ' turn' : ''}${seat === ctx.seat ? ' me' : ''}${partner ? ' partner' : ''}${entry.connected === false && entry.kind !== 'bot' ? ' away' : ''}`,
      'aria-label': `${ctx.names[seat]}${seat === ctx.seat ? ' (you)' : ''}: ${plural(count, 'card')} in hand, ${s.credit[seat]} on the table${turn ? ', to play' : ''}; ${presence}`,
      role: 'group',
    },
    h('div', { class: 'player-head' }, seatBadge(seat, ctx.marks, ctx.names), h('span', { class: 'player-name' }, ctx.names[seat]), turn ? h('span', { class: 'turn-mark', 'aria-hidden': 'true' }, '▶') : null),
    h('div', { class: 'player-tags' }, tags),
    h('div', { class: 'player-facts' },
      h('span', { class: 'count' }, cardBack('mini'), ` ${count}`),
      h('span', { class: 'credit', title: 'points on the table this deal' }, String(s.credit[seat]), h('span', { class: 'word' }, ' on the table'))),
    h('div', { class: `presence ${entry.kind === 'bot' ? 'bot' : entry.connected ? 'here' : 'gone'}` }, presence)));
  }
}

function phaseWords(s) {
  if (s.over) return `The game is over. ${outcomeLine(s, ctx.sides, ctx.names, ctx.seat)}`;
  const mine = myTurn();
  const name = who(s.turn);
  if (s.phase === 'draw') {
    return mine ? 'Your turn: draw from the stock, or take a card from the pile (with every card above it).'
      : `${name} to draw.`;
  }
  if (s.phase === 'play') {
    if (mine) {
      const must = s.must_use ? ` You must use ${pretty(s.must_use)} this turn.` : '';
      return `Your turn: meld and lay off as you like, then discard.${must}`;
    }
    return `${name} to play${s.must_use ? ` (must use ${pretty(s.must_use)})` : ''}.`;
  }
  if (s.phase === 'rummy') {
    return mine ? 'Rummy! You may claim cards from the pile that meld or lay off, or pass.'
      : `${name} may call rummy.`;
  }
  return '';
}

function renderStatus() {
  const s = ctx.state;
  $('#status').textContent = `Deal ${dealNumber(s)}. ${phaseWords(s)}`;
  $('#status').classList.toggle('yours', myTurn());
}

function renderPiles() {
  const s = ctx.state;
  replace($('#stock'), h('div', { class: 'stock-box', 'aria-label': `Stock: ${plural(s.stock, 'card')}` },
    s.stock ? cardBack('pile') : h('span', { class: 'card card-pile empty-stock', 'aria-hidden': 'true' }, '∅'),
    h('span', { class: 'stock-count' }, `Stock ${s.stock}`)));
  const drawing = myTurn() && (s.phase === 'draw');
  renderPile($('#pile'), s.pile, drawing ? {
    take: (index) => send(takeText(s.pile, index)),
    takeable: (index) => ctx.legal.takes.has(takeText(s.pile, index).slice(5)),
    mustUse: s.must_use,
  } : { mustUse: s.must_use });
  const stockBox = $('#stock .stock-box');
  if (drawing && ctx.legal.draw) {
    const button = h('button', { type: 'button', class: 'stock-button', 'aria-label': `Draw from the stock (${plural(s.stock, 'card')})` }, stockBox);
    button.addEventListener('click', () => send('draw'));
    replace($('#stock'), button);
  }
}

function renderTableMelds() {
  const s = ctx.state;
  const selected = selectedCards();
  const playing = myTurn() && s.phase === 'play';
  const targets = playing ? layoffTargets(ctx.legal, selected) : new Set();
  renderMelds($('#melds'), s.melds, ctx.names, ctx.marks, playing ? {
    target: (id) => targets.has(id),
    choose: (id) => layOff(id),
  } : {});
}

function renderMine() {
  const s = ctx.state;
  const mine = $('#mine');
  mine.hidden = ctx.seat === null;
  if (ctx.seat === null) return;
  $('#sort-button').textContent = ctx.sort === 'suit' ? 'Sort by rank' : 'Sort by suit';
  $('#sort-button').setAttribute('aria-label', `Sorted by ${ctx.sort}; sort by ${ctx.sort === 'suit' ? 'rank' : 'suit'}`);
  $('#hand-heading').textContent = `Your hand (${plural(s.hand.length, 'card')})`;
  renderHand($('#hand'), sortedHand(s), {
    toggle: toggleCard,
    selected: new Set(ctx.selected),
    mustUse: s.must_use,
    label: 'Your hand: Space or Enter selects a card',
  });
  const list = $('#legal-list');
  replace(list, (s.legal || []).slice(0, 400).map((move) => h('option', { value: move })));
  renderActions();
}

function button(label, key, action, { primary = false, enabled = true, hint = '', move = null, name = null } = {}) {
  const el = h('button', { type: 'button', class: primary ? 'primary' : '', 'aria-keyshortcuts': key || null,
    disabled: !enabled || Boolean(ctx.pending) || !ctx.conn || !ctx.conn.isOpen, title: hint || null,
    dataset: { ...(move ? { move } : {}), ...(name ? { action: name } : {}) } },
  label, key ? h('kbd', { 'aria-hidden': 'true' }, key) : null);
  el.addEventListener('click', action);
  return el;
}

function renderActions() {
  const s = ctx.state;
  const box = $('#actions');
  if (!s || ctx.seat === null) return;
  box.replaceChildren();
  $('#typed').hidden = Boolean(s.over);
  if (s.over) {
    box.append(h('p', { class: 'muted' }, 'The game is over.'),
      h('a', { href: `/t/${encodeURIComponent(tableId)}/replay`, class: 'button-link' }, 'Replay the game'),
      h('a', { href: '/', class: 'button-link' }, 'Back to the lobby'));
    return;
  }
  if (!myTurn()) {
    box.append(h('p', { class: 'muted' }, `Waiting for ${ctx.names[s.turn]}… You can select and sort your cards meanwhile.`));
    return;
  }
  const selected = selectedCards();
  const info = ctx.legal;
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
    box.append(button('Lay off', 'L', () => layOff(null), { primary: targets.size > 0, enabled: selected.length === 1, name: 'layoff' }));
    const discardable = selected.length === 1 && info.discards.has(selected[0] === '*' ? '*' : selected[0]);
    box.append(button('Discard', 'X', discard, { primary: discardable, enabled: selected.length === 1, name: 'discard' }));
    if (selected.length) box.append(button('Clear', 'Esc', clearSelection, { name: 'clear' }));
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

function renderScores() {
  const s = ctx.state;
  const sides = ctx.sides;
  const names = sides.map((_, side) => sideName(side, sides, ctx.names, ctx.seat));
  const running = runningTotals(s.deals || [], sides.length);
  const table = h('table', { class: 'scores' },
    h('caption', { class: 'sr-only' }, 'Scores by deal'),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Deal'), names.map((n) => h('th', { scope: 'col' }, n)))),
    h('tbody', {}, (s.deals || []).map((deal, i) => h('tr', {},
      h('th', { scope: 'row' }, String(i + 1)),
      deal.scores.map((score, side) => h('td', {}, h('span', { class: 'score' }, signed(score)), h('span', { class: 'running' }, ` ${running[i][side]}`)))))),
    h('tfoot', {}, h('tr', {}, h('th', { scope: 'row' }, 'Total'), (s.totals || []).map((t) => h('td', {}, String(t))))));
  const target = ctx.info && ctx.info.target_score;
  replace($('#scores'), table,
    h('p', { class: 'muted' }, outcomeLine(s, sides, ctx.names, ctx.seat, target)),
    h('p', { class: 'muted small' }, 'On the table this deal: ',
      s.credit.map((c, seat) => `${who(seat)} ${c}`).join(', '), '.'));
}

function capital(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0';
}

// -- the log --------------------------------------------------------------------------------------

function say(text, kind = '') {
  const log = $('#log');
  log.append(h('li', { class: kind }, text));
  while (log.children.length > 400) log.firstElementChild.remove();
  log.scrollTop = log.scrollHeight;
}

function historyLog(state) {
  $('#log').replaceChildren();
  say(`Deal ${dealNumber(state)}: ${who(state.dealer)} ${state.dealer === ctx.seat ? 'deal' : 'deals'}.`, 'deal');
  let turn = (state.dealer + 1) % state.players;
  for (const entry of state.history || []) {
    const move = typeof entry === 'string' ? entry : entry.move;
    const kind = moveParts(move).kind;
    let seat = typeof entry === 'object' && entry !== null && 'seat' in entry ? entry.seat : null;
    if (seat === null && !kind.startsWith('rummy') && kind !== 'pass') seat = turn;
    const name = seat === null ? 'A player' : who(seat);
    say(moveLine(name, seat, move, null, null), 'earlier');
    if (seat !== null && (kind === 'discard' || kind === 'end')) turn = (seat + 1) % state.players;
  }
}

function logEvent(event, prev, next) {
  if (event.deal !== undefined && event.move === undefined) {
    say(`Deal ${dealNumber(next)}: ${who(event.dealer)} ${event.dealer === ctx.seat ? 'deal' : 'deals'}.`, 'deal');
    return;
  }
  if (event.move === undefined) {
    if (event.text) say(event.text);
    return;
  }
  const seat = event.seat;
  const entry = next.seats && next.seats[seat];
  let line = moveLine(who(seat), seat, event.move, prev, next);
  if (entry && entry.kind !== 'bot' && entry.connected === false) line += ' (a computer played for them while they are away)';
  say(line);
  if (prev && next.deals && prev.deals && next.deals.length > prev.deals.length) {
    const deal = next.deals[next.deals.length - 1];
    const number = next.deals.length;
    const scores = deal.scores.map((score, side) => `${sideName(side, ctx.sides, ctx.names, ctx.seat)} ${signed(score)}`).join(', ');
    say(`Deal ${number} is over: ${dealEnding(deal, ctx.names, ctx.seat)}. ${scores}.`, 'deal');
  }
}

// -- deal sheets and the winner ---------------------------------------------------------------

function sheetsCheck(first) {
  const s = ctx.state;
  const count = (s.deals || []).length;
  const seen = Number(sessionStorage.getItem(SHEETS_KEY) || (first ? count : 0));
  if (first && !sessionStorage.getItem(SHEETS_KEY)) {
    sessionStorage.setItem(SHEETS_KEY, String(count));
    if (s.over) showSheet(count - 1);
    return;
  }
  if (count > seen) {
    sessionStorage.setItem(SHEETS_KEY, String(count));
    showSheet(count - 1);
  } else if (s.over && !$('#sheet').open && !ctx.shownWinner) {
    showSheet(count - 1);
  }
}

function showSheet(index) {
  const s = ctx.state;
  const deals = s.deals || [];
  const dialog = $('#sheet');
  if (index < 0 || !deals[index]) {
    if (!s.over) return;
  }
  const deal = deals[index];
  const sides = ctx.sides;
  const running = runningTotals(deals, sides.length);
  const totals = s.over && index === deals.length - 1 ? s.totals : running[index];
  const parts = [];
  if (s.over) {
    ctx.shownWinner = true;
    parts.push(h('h2', { id: 'sheet-heading', class: 'winner' }, outcomeLine(s, sides, ctx.names, ctx.seat)));
  } else {
    parts.push(h('h2', { id: 'sheet-heading' }, `Deal ${index + 1} is over`));
  }
  if (deal) {
    parts.push(h('p', { class: 'ending' }, `${capital(dealEnding(deal, ctx.names, ctx.seat))}.`));
    parts.push(h('table', { class: 'sheet' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Player'), h('th', { scope: 'col' }, 'On the table'), h('th', { scope: 'col' }, 'In hand'))),
      h('tbody', {}, deal.melded.map((melded, seat) => h('tr', {},
        h('th', { scope: 'row' }, who(seat)), h('td', {}, String(melded)), h('td', {}, deal.in_hand[seat] ? `−${deal.in_hand[seat]}` : '0'))))));
    parts.push(h('table', { class: 'sheet' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, sides.some((m) => m.length > 1) ? 'Side' : 'Player'), h('th', { scope: 'col' }, 'This deal'), h('th', { scope: 'col' }, 'Total'))),
      h('tbody', {}, deal.scores.map((score, side) => h('tr', {},
        h('th', { scope: 'row' }, sideName(side, sides, ctx.names, ctx.seat)), h('td', {}, signed(score)), h('td', {}, String(totals[side])))))));
  }
  if (!s.over) parts.push(h('p', { class: 'muted' }, outcomeLine({ ...s, totals: running[index] }, sides, ctx.names, ctx.seat, ctx.info && ctx.info.target_score)));
  const close = h('button', { type: 'button', class: 'primary', id: 'sheet-close' }, s.over ? 'Close' : 'Next deal');
  close.addEventListener('click', () => dialog.close());
  if (s.over) parts.push(h('div', { id: 'sheet-again' }, againParts()));
  parts.push(h('p', { class: 'dialog-buttons' }, close,
    s.over ? h('a', { href: `/t/${encodeURIComponent(tableId)}/replay`, class: 'button-link' }, 'Replay the game') : null));
  replace(dialog, parts);
  if (!dialog.open) dialog.showModal();
  close.focus();
}

// -- moves ---------------------------------------------------------------------------------------

function send(text) {
  clearMessage();
  if (!ctx.conn || !ctx.conn.isOpen) {
    message('Not connected: the move was not sent. The page reconnects by itself; try again in a moment.', 'refusal');
    return false;
  }
  if (ctx.pending) return false;
  const id = ctx.conn.move(text);
  if (!id) return false;
  ctx.pending = { id, text };
  renderActions();
  setTimeout(() => {
    if (ctx.pending && ctx.pending.id === id) { ctx.pending = null; renderActions(); }
  }, 8000);
  return true;
}

function toggleCard(index) {
  const at = ctx.selected.indexOf(index);
  if (at >= 0) ctx.selected.splice(at, 1);
  else ctx.selected.push(index);
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.index : null;
  renderMine();
  renderTableMelds();
  if (focused !== null && focused !== undefined) {
    const again = $(`#hand button[data-index="${focused}"]`);
    if (again) {
      for (const b of $('#hand').querySelectorAll('button')) b.tabIndex = -1;
      again.tabIndex = 0;
      again.focus();
    }
  }
}

function clearSelection() {
  ctx.selected = [];
  renderMine();
  renderTableMelds();
}

function meld() {
  const selected = selectedCards();
  const options = meldsFor(ctx.legal, selected);
  if (options.length === 1) send(options[0].text);
  else if (options.length > 1) {
    choose('The joker stands for:', options.map((o) => ({
      label: prettyList(o.cards.filter((c) => c.startsWith('*='))), move: o.text,
    })));
  } else if (selected.length) send(`meld ${selected.join(' ')}`);
  else message('Select the cards to meld first.', 'refusal');
}

function layOff(meldId) {
  const selected = selectedCards();
  if (selected.length !== 1) {
    message('Select one card of your hand, then the meld to lay it off on.', 'refusal');
    if (meldId === null) $('#hand').focus();
    return;
  }
  const card = selected[0];
  const options = layoffsFor(ctx.legal, card, meldId);
  if (meldId === null) {
    const melds = [...new Set(options.map((o) => o.meld))];
    if (melds.length === 1 && options.length === 1) { send(options[0].text); return; }
    if (melds.length === 0) {
      message(`${pretty(card)} fits no meld on the table now.`, 'refusal');
      return;
    }
    message(`Choose the meld for ${pretty(card)}: ${melds.join(', ')} (highlighted).`, 'info');
    const target = $('#melds button.meld.target');
    if (target) {
      for (const b of $('#melds').querySelectorAll('button.meld')) b.tabIndex = -1;
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

function discard() {
  const selected = selectedCards();
  if (selected.length !== 1) {
    message('Select the one card to discard.', 'refusal');
    return;
  }
  send(`discard ${selected[0].startsWith('*') ? '*' : selected[0]}`);
}

function choose(title, options) {
  const box = $('#chooser');
  const cancel = h('button', { type: 'button' }, 'Cancel');
  cancel.addEventListener('click', () => { box.hidden = true; });
  replace(box, h('p', {}, title), h('div', { class: 'choices' }, options.map((o) => {
    const b = h('button', { type: 'button', class: 'primary', dataset: { move: o.move } }, o.label);
    b.addEventListener('click', () => { box.hidden = true; send(o.move); });
    return b;
  }), cancel));
  box.hidden = false;
  box.querySelector('button').focus();
}

async function askHint() {
  if (!myTurn()) {
    message('Hints are for your own turn.', 'refusal');
    return;
  }
  const seq = ctx.seq;
  ctx.hint = { seq, waiting: true };
  renderHint();
  try {
    const answer = await postJSON(`/api/tables/${encodeURIComponent(tableId)}/hint`, { token: ctx.token });
    if (!ctx.hint || ctx.seq !== seq) return;
    ctx.hint = { seq, waiting: false, move: answer.move, reason: answer.reason };
    renderHint();
  } catch (error) {
    ctx.hint = null;
    message(`No hint: ${error.message}`, 'refusal');
  }
}

function renderHint() {
  const box = $('#message');
  if (!ctx.hint) return;
  if (ctx.hint.waiting) {
    replace(box, h('p', { class: 'info' }, 'Thinking of a hint…'));
    return;
  }
  const play = h('button', { type: 'button', class: 'primary' }, 'Play it');
  play.addEventListener('click', () => send(ctx.hint.move));
  replace(box, h('p', { class: 'hint' }, h('strong', {}, 'Hint: '), `${describe(ctx.hint.move)}. `, ctx.hint.reason || '', ' ', play));
  play.focus();
}

function clearHint() {
  ctx.hint = null;
}

function describe(move) {
  const { kind, cards, meld: target } = moveParts(move);
  if (kind === 'draw') return 'draw from the stock';
  if (kind === 'take') return `take ${pretty(cards[0].split('/')[0])} from the pile`;
  if (kind === 'meld') return `meld ${prettyList(cards)}`;
  if (kind === 'layoff') return `lay off ${pretty(cards[0])} on ${target}`;
  if (kind === 'discard') return `discard ${pretty(cards[0])}`;
  if (kind === 'pass') return 'pass';
  if (kind === 'end') return 'take nothing from the pile (ending the deal)';
  return move;
}

function message(text, kind = 'info') {
  replace($('#message'), h('p', { class: kind }, text));
}

function clearMessage() {
  $('#message').replaceChildren();
  $('#chooser').hidden = true;
}

function toggleSort() {
  const cards = selectedCards();
  ctx.sort = ctx.sort === 'suit' ? 'rank' : 'suit';
  localStorage.setItem(SORT_KEY, ctx.sort);
  const hand = sortedHand(ctx.state);
  const used = new Set();
  ctx.selected = cards.map((card) => {
    const at = hand.findIndex((c, i) => c === card && !used.has(i));
    used.add(at);
    return at;
  }).filter((i) => i >= 0);
  renderMine();
}

async function copyLink(input) {
  input.select();
  let done = false;
  try {
    await navigator.clipboard.writeText(input.value);
    done = true;
  } catch {
    done = document.execCommand && document.execCommand('copy');
  }
  const said = $('#copy-said');
  said.textContent = done ? 'The link is copied: paste it to the people you play with.'
    : 'Select the link and copy it.';
}

// -- the keyboard -------------------------------------------------------------------------------

function focusFirst(selector) {
  const el = $(selector);
  if (el) el.focus();
  return Boolean(el);
}

function shortcut(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT')) {
    if (event.key === 'Escape') target.blur();
    return;
  }
  if (document.querySelector('dialog[open]')) return;
  if (!ctx.state || ctx.seat === null) return;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  const s = ctx.state;
  const actions = {
    d: () => myTurn() && s.phase === 'draw' && send('draw'),
    e: () => myTurn() && ctx.legal.end && send('end'),
    m: () => myTurn() && s.phase === 'play' && meld(),
    l: () => myTurn() && s.phase === 'play' && layOff(null),
    x: () => myTurn() && s.phase === 'play' && discard(),
    p: () => myTurn() && ctx.legal.pass && send('pass'),
    i: () => askHint(),
    s: () => toggleSort(),
    h: () => focusFirst('#hand button[tabindex="0"]') || focusFirst('#hand button'),
    f: () => focusFirst('#pile button[tabindex="0"]') || focusFirst('#pile button'),
    g: () => focusFirst('#melds button[tabindex="0"]') || focusFirst('#melds button'),
    '/': () => $('#move-input').focus(),
    '?': () => $('#keys-dialog').showModal(),
    Escape: () => { clearSelection(); clearMessage(); },
  };
  if (key in actions) {
    event.preventDefault();
    actions[key]();
  }
}

start();
