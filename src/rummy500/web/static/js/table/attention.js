// Telling the viewer that it is their turn when they look elsewhere: the tab's title and icon,
// a short chime made with Web Audio (no sound file), a vibration on a phone, each as the
// settings say; and for a screen reader, each change of turn said in a live region.

import { $ } from '../dom.js';
import { setAttr } from './inplace.js';
import { onSettings, setting } from '../settings.js';
import { model, myTurn, who } from './model.js';
import { afterRedraw } from './redraw.js';

const TURN_TITLE = '● Your turn — 500 Rum';

/** @param {boolean} yours */
function icon(yours) {
  const dot = yours ? '<circle cx="24" cy="8" r="7" fill="#ffd166" stroke="#5a4500" stroke-width="2"/>' : '';
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">'
    + '<rect x="4" y="3" width="20" height="27" rx="3" fill="#fffdf7" stroke="#0e3b2c" stroke-width="2"/>'
    + '<text x="14" y="23" font-size="16" text-anchor="middle" fill="#b3001b">♥</text>'
    + `${dot}</svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

let baseTitle = '';
let wasMine = false;
let turnSaid = /** @type {string | null} */ (null);
/** @type {AudioContext | null} */
let audio = null;

/** An audio context, made (or resumed) only on the viewer's gesture, as browsers ask. */
function wakeAudio() {
  if (!setting('sound')) return;
  const Context = window.AudioContext;
  if (!Context) return;
  if (!audio) audio = new Context();
  if (audio.state === 'suspended') audio.resume().catch(() => {});
}

/** Two short notes, rising. */
export function chime() {
  if (!audio || audio.state !== 'running') return false;
  const now = audio.currentTime;
  for (const [offset, pitch] of [[0, 660], [0.14, 880]]) {
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.type = 'sine';
    tone.frequency.value = pitch;
    gain.gain.setValueAtTime(0.0001, now + offset);
    gain.gain.exponentialRampToValueAtTime(0.18, now + offset + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + offset + 0.22);
    tone.connect(gain).connect(audio.destination);
    tone.start(now + offset);
    tone.stop(now + offset + 0.25);
  }
  return true;
}

function vibrate() {
  const active = navigator.userActivation ? navigator.userActivation.hasBeenActive : false;
  if (active && typeof navigator.vibrate === 'function') navigator.vibrate([120, 60, 120]);
}

/** The tab's title and icon as the turn and the settings say. */
function showTab() {
  const yours = myTurn() && setting('title');
  const title = yours ? TURN_TITLE : baseTitle;
  if (document.title !== title) document.title = title;
  const link = /** @type {HTMLLinkElement | null} */ (document.querySelector('link[rel="icon"]'));
  if (link) setAttr(link, 'href', icon(yours));
}

/** A new turn: said to screen readers; the viewer's own turn signalled. */
function onTable() {
  const s = model.state;
  if (!s) return;
  const mine = myTurn();
  const said = s.over ? 'The game is over.' : mine ? 'Your turn.' : `${who(s.turn)}’s turn.`;
  if (said !== turnSaid) {
    turnSaid = said;
    $('#turn-say').textContent = said;
  }
  showTab();
  if (mine && !wasMine) {
    if (setting('sound') && chime()) document.body.dataset.chimes = String(Number(document.body.dataset.chimes || 0) + 1);
    if (setting('vibrate')) vibrate();
  }
  wasMine = mine;
}

export function startAttention() {
  baseTitle = document.title;
  for (const kind of ['pointerdown', 'keydown']) document.addEventListener(kind, wakeAudio, { capture: true });
  onSettings(() => { wakeAudio(); showTab(); });
  afterRedraw('table', onTable);
  showTab();
}
