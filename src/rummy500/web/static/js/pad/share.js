// Sharing a pad: the scorekeeper's phone sends the pad's file to the server after each change
// (with the token it was given), and anyone with the link follows it live, read only, from
// the server's copy scored by the engine.

import { $, h, replace } from '../dom.js';
import { toFile } from './model.js';
import { qrSvg } from './qr.js';

/** @typedef {import('./model.js').Pad} Pad */

const FOLLOW_EVERY_MS = 2500;
const SEND_AFTER_MS = 400;

/** @type {ReturnType<typeof setTimeout> | null} */
let sendTimer = null;

/**
 * The follower's link of a shared pad.
 * @param {string} id
 */
export function followLink(id) {
  return `${location.origin}/pad#follow=${id}`;
}

/**
 * @param {Response} response
 */
async function answer(response) {
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.message || `the server answered ${response.status}`);
  return body;
}

/**
 * Share `pad`: stored on the server, its link and QR code shown.
 * @param {Pad & {share?: {id: string, token: string}}} pad
 * @param {() => void} saved the pad (with its share) is to be kept
 */
export async function sharePad(pad, saved) {
  const status = $('#share-status');
  if (!pad.share) {
    status.textContent = 'Sharing…';
    try {
      const body = await answer(await fetch('/api/pads', {
        method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ pad: toFile(pad) }),
      }));
      pad.share = { id: body.id, token: body.token };
      saved();
    } catch (error) {
      status.textContent = `Not shared: ${/** @type {Error} */ (error).message === 'Failed to fetch' ? 'no network' : /** @type {Error} */ (error).message}.`;
      return;
    }
  }
  showShare(pad);
}

/**
 * Show the link and QR code of a shared pad (nothing for one not shared).
 * @param {Pad & {share?: {id: string, token: string}}} pad
 */
export function showShare(pad) {
  $('#share-box').hidden = !pad.share;
  $('#share').hidden = Boolean(pad.share);
  if (!pad.share) {
    $('#share-status').textContent = '';
    return;
  }
  const link = followLink(pad.share.id);
  const anchor = /** @type {HTMLAnchorElement} */ ($('#share-link'));
  anchor.href = link;
  anchor.textContent = link;
  replace($('#share-qr'), qrSvg(link, 'QR code of the link to follow this pad'));
  $('#share-status').textContent = 'Shared: whoever opens the link follows this pad as it changes.';
}

/**
 * Send a shared pad's changes (a moment after the last one).
 * @param {Pad & {share?: {id: string, token: string}}} pad
 */
export function sendSoon(pad) {
  const share = pad.share;
  if (!share) return;
  if (sendTimer) clearTimeout(sendTimer);
  sendTimer = setTimeout(async () => {
    sendTimer = null;
    const status = $('#share-status');
    try {
      await answer(await fetch(`/api/pads/${share.id}`, {
        method: 'PUT', headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ token: share.token, pad: toFile(pad) }),
      }));
      status.textContent = 'Shared: followers see every deal as it is done.';
      document.body.dataset.sent = String(pad.deals.length);
    } catch (error) {
      status.textContent = `Followers do not see the last change yet: ${/** @type {Error} */ (error).message === 'Failed to fetch' ? 'no network' : /** @type {Error} */ (error).message}.`;
    }
  }, SEND_AFTER_MS);
}

/**
 * Follow the shared pad `id`, read only, until the page is left.
 * @param {string} id
 */
export function follow(id) {
  $('#home').hidden = true;
  $('#follow').hidden = false;
  let version = 0;
  const fmt = (/** @type {number} */ n) => (n < 0 ? `−${-n}` : String(n));
  const signed = (/** @type {number} */ n) => (n > 0 ? `+${n}` : fmt(n));
  const poll = async () => {
    try {
      const body = await answer(await fetch(`/api/pads/${encodeURIComponent(id)}?since=${version}`));
      if (body.pad) {
        version = body.version;
        const { scores, sides, pad } = body;
        $('#follow-players').textContent = `${pad.players.join(', ')}: ${pad.rules.preset}`;
        replace($('#follow-totals'), ...sides.map((/** @type {string} */ name, /** @type {number} */ side) => h('li', {
          dataset: { total: String(scores.totals[side]) },
        }, h('span', {}, name), h('strong', {}, fmt(scores.totals[side])))));
        replace($('#follow-deals'), ...scores.deals.map((/** @type {any} */ deal) => h('li', {},
          `Deal ${deal.deal}: `, deal.scores.map((/** @type {number} */ s, /** @type {number} */ side) => `${sides[side]} ${signed(s)}`).join(', '))));
        $('#follow-winner').textContent = !scores.over ? ''
          : scores.winner === null ? 'The game is over: a draw.' : `${sides[scores.winner]} won the game.`;
        document.body.dataset.version = String(version);
      }
      $('#follow-status').textContent = `Live: checked ${new Date().toLocaleTimeString()}.`;
    } catch (error) {
      $('#follow-status').textContent = `Not up to date: ${/** @type {Error} */ (error).message === 'Failed to fetch' ? 'no network' : /** @type {Error} */ (error).message}.`;
    }
    setTimeout(poll, FOLLOW_EVERY_MS);
  };
  poll();
}
