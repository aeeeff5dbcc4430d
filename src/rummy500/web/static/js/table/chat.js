// Talk at the table: a chat panel beside the log, with the server's quick reactions. Lines
// come as chat frames (and the table's last ones with each welcome, as state.chat); live
// lines go into the log too, and show for a few seconds as a bubble at the speaker's seat
// (bubbles.js); on a phone, where the talk is in the drawer, the drawer's button counts the
// lines not read yet (drawer.js). A spectator reads only. The server cleans what is said;
// the page puts every text in as text. The reactions are drawn by the page (icons.js): the
// emoji the server puts before a reaction's words are left out.

import { $, h, scrollToEndSoon } from '../dom.js';
import { REACTIONS, logText, shownText, unseenLines } from '../talkwords.js';
import { placeBubbles, showBubble, startBubbles } from './bubbles.js';
import { noteUnread } from './drawer.js';
import { onFrame } from './frames.js';
import { reactionIcon } from './icons.js';
import { say } from './log.js';
import { model } from './model.js';
import { sendFrame } from './outbox.js';
import { whenDrawn } from './redraw.js';

/** @typedef {import('../protocol.js').Frame} Frame */
/** @typedef {import('../protocol.js').ChatLine} ChatLine */

export const CHAT_LIMIT = 200;
const KEEP_LINES = 100;

/** Line numbers shown, so that a line heard twice (around a reconnect) shows once. */
const shown = new Set();
/** The chat ids this page sent and has not heard back about. */
const mine = new Set();

function panel() {
  return document.getElementById('chat');
}

function build() {
  const input = h('input', {
    id: 'chat-input', maxlength: String(CHAT_LIMIT), autocomplete: 'off',
    placeholder: 'Say something to the table', 'aria-label': 'Say something to the table',
  });
  const form = h('form', { id: 'chat-form', class: 'chat-form', autocomplete: 'off' },
    input, h('button', { type: 'submit' }, 'Send'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const field = /** @type {HTMLInputElement} */ (input);
    const text = field.value.trim();
    if (!text) return;
    const id = sendFrame({ type: 'chat', text: text.slice(0, CHAT_LIMIT) });
    if (id) {
      remember(id);
      field.value = '';
    } else note('Not connected: nothing was sent.');
  });
  const reactions = h('div', { class: 'reactions', role: 'group', 'aria-label': 'Quick reactions' },
    REACTIONS.map(([what, words]) => h('button', {
      type: 'button', class: 'quiet reaction', dataset: { react: what }, title: words, 'aria-label': words,
      onclick: () => { const id = sendFrame({ type: 'react', what }); if (id) remember(id); },
    }, reactionIcon(what))));
  const section = h('section', { id: 'chat', class: 'chat', 'aria-labelledby': 'chat-heading' },
    h('h2', { id: 'chat-heading' }, 'Talk'),
    // The lines scroll: a tab stop of their own, so that a keyboard reaches every line.
    h('ol', { id: 'chat-lines', class: 'chat-lines', 'aria-live': 'polite', tabindex: '0', 'aria-labelledby': 'chat-heading' }),
    h('p', { id: 'chat-note', class: 'muted chat-note', role: 'status' }),
    reactions, form);
  const log = $('#log-heading').closest('section');
  if (log) log.after(section);
  else $('#side').append(section);
}

/** @param {string} id a chat or reaction this page sent (the few last are kept) */
function remember(id) {
  mine.add(id);
  if (mine.size > 20) mine.delete(mine.values().next().value ?? '');
}

/** @param {string} text */
function note(text) {
  const box = document.getElementById('chat-note');
  if (box) box.textContent = text;
}

/** Spectators read only: the form and reactions show for a seat. */
function renderSeat() {
  const box = panel();
  if (!box) return;
  const seated = model.seat !== null;
  for (const part of box.querySelectorAll('.chat-form, .reactions')) /** @type {HTMLElement} */ (part).hidden = !seated;
  if (!seated) note('You are watching: you can read the table’s talk.');
}

/**
 * @param {ChatLine} line
 * @param {boolean} live heard as it was said (then it goes into the log too)
 */
function showLine(line, live) {
  shown.add(line.n);
  const list = $('#chat-lines');
  const mineLine = line.seat === model.seat;
  const text = shownText(line);
  list.append(h('li', { class: `chat-line${mineLine ? ' mine' : ''}${line.react ? ' react' : ''}`, dataset: { n: String(line.n), seat: String(line.seat) } },
    h('span', { class: 'chat-name' }, line.name), ' ', line.react ? reactionIcon(line.react) : null,
    line.react ? ' ' : null, h('span', { class: 'chat-text' }, text)));
  while (list.children.length > KEEP_LINES) list.firstElementChild?.remove();
  scrollToEndSoon(list);
  if (!live) return;
  say(logText({ ...line, text }), 'chat');
  showBubble(line.seat, text, line.react || undefined);
  if (!mineLine) noteUnread();
}

/** @param {Frame} frame */
function onWelcome(frame) {
  renderSeat();
  const lines = frame.state && Array.isArray(frame.state.chat) ? frame.state.chat : [];
  for (const line of unseenLines(lines, shown)) showLine(line, false);
}

/** @param {Frame} frame */
function onChat(frame) {
  if (typeof frame.n !== 'number' || shown.has(frame.n)) return;
  showLine(/** @type {ChatLine} */ ({
    n: frame.n, seat: frame.seat ?? 0, name: frame.name || '', text: frame.text || '', at: frame.at || '', react: frame.react,
  }), true);
  note('');
}

/** @param {Frame} frame */
function onRefused(frame) {
  if (!frame.id || !mine.has(frame.id)) return;
  mine.delete(frame.id);
  note(`Not sent: ${frame.message || frame.code}`);
}

/** Builds the panel and listens to the table's talk. */
export function startChat() {
  build();
  startBubbles();
  whenDrawn(placeBubbles);
  onFrame('welcome', onWelcome);
  onFrame('chat', onChat);
  onFrame('refused', onRefused);
}
