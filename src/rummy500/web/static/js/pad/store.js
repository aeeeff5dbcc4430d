// The pads kept in this browser (localStorage), with the engine's tables for each pad's
// rules, so that a pad opens and scores with no network.

import { tablesUrl } from './model.js';

/** @typedef {import('./model.js').Pad} Pad */
/** @typedef {import('./score.js').Tables} Tables */

const PADS = 'rummy500.pads';
const NAMES = 'rummy500.pad.names';
const TABLES = 'rummy500.pad.tables:';

/** @returns {Record<string, Pad>} */
export function loadPads() {
  try {
    const value = JSON.parse(localStorage.getItem(PADS) || '{}');
    return value && typeof value === 'object' ? value : {};
  } catch {
    return {};
  }
}

/** @param {Pad} pad */
export function savePad(pad) {
  const pads = loadPads();
  pads[pad.id] = pad;
  localStorage.setItem(PADS, JSON.stringify(pads));
}

/** @param {string} id */
export function deletePad(id) {
  const pads = loadPads();
  delete pads[id];
  localStorage.setItem(PADS, JSON.stringify(pads));
}

/** @returns {string[]} */
export function rememberedNames() {
  try {
    const names = JSON.parse(localStorage.getItem(NAMES) || '[]');
    return Array.isArray(names) ? names.filter((n) => typeof n === 'string') : [];
  } catch {
    return [];
  }
}

/** @param {string[]} names */
export function rememberNames(names) {
  localStorage.setItem(NAMES, JSON.stringify(names));
}

/**
 * The engine's tables for these rules: kept in this browser, else asked of the server (or
 * of the service worker's copy when offline).
 * @param {import('./model.js').RulesSpec} rules
 * @param {number} players
 * @returns {Promise<Tables>}
 */
export async function getTables(rules, players) {
  const url = tablesUrl(rules, players);
  const kept = localStorage.getItem(TABLES + url);
  if (kept) {
    try {
      return JSON.parse(kept);
    } catch { /* asked again below */ }
  }
  let response;
  try {
    response = await fetch(url);
  } catch {
    throw new Error('the scoring for these rules is not on this phone yet: open the pad once while online');
  }
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.message || `the server answered ${response.status}`);
  try {
    localStorage.setItem(TABLES + url, JSON.stringify(body));
  } catch { /* full: the service worker keeps a copy too */ }
  return body;
}
