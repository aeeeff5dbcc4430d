// The rules dialog (the table's rules explained by the server), the title they give the page,
// and the invitation links with their Copy buttons.

import { postJSON } from '../api.js';
import { $, h, replace } from '../dom.js';
import { tableId, tablePath } from './address.js';
import { model, setRules } from './model.js';

/** Asks the server to explain the table's rules, for the title and the Rules dialog. */
export async function loadRules() {
  const summary = model.summary;
  if (!summary) return;
  try {
    setRules(await postJSON('/api/rules/explain', { rules: summary.rules, players: summary.players }));
  } catch {
    setRules({ sides: [], topics: [], preset: (summary.rules || {}).preset || '', description: '' });
  }
  const info = model.info;
  const preset = info.preset || (summary.rules || {}).preset || 'classic';
  $('#title').textContent = `${preset[0].toUpperCase()}${preset.slice(1)}, ${summary.players} players`;
  replace($('#rules-dialog'),
    h('h2', { id: 'rules-heading' }, `How this game is played (${preset})`),
    info.description ? h('p', { class: 'muted' }, info.description) : null,
    h('dl', { class: 'topics' }, (info.topics || []).map((t) => [h('dt', {}, t.topic), h('dd', {}, t.text)])),
    h('form', { method: 'dialog' }, h('button', {}, 'Close')));
}

/** @param {string} selector */
export function openDialog(selector) {
  const dialog = /** @type {HTMLDialogElement} */ ($(selector));
  dialog.showModal();
  // The focus goes to the Close button at the foot; a long dialog (a phone) is read from the top.
  dialog.scrollTop = 0;
}

/** Fills in the invitation links and makes their Copy buttons work. */
export function bindInvitations() {
  const link = `${location.origin}${tablePath(tableId)}`;
  for (const suffix of ['', '-2']) {
    const input = /** @type {HTMLInputElement} */ ($(`#invite-link${suffix}`));
    input.value = link;
    $(`#copy-link${suffix}`).addEventListener('click', () => copyLink(input));
  }
}

/** @param {HTMLInputElement} input */
async function copyLink(input) {
  input.select();
  let done = false;
  try {
    await navigator.clipboard.writeText(input.value);
    done = true;
  } catch {
    done = Boolean(document.execCommand) && document.execCommand('copy');
  }
  $('#copy-said').textContent = done ? 'The link is copied: paste it to the people you play with.'
    : 'Select the link and copy it.';
}
