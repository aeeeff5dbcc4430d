// The viewer's settings, kept in this browser (localStorage) for every page and table: motion,
// what tells them it is their turn (tab title and icon, sound, vibration), the theme, the deck's
// colours, and the first-game help. The looks are applied to the page as soon as it loads.

const KEY = 'rummy500.settings';

/**
 * @typedef {object} Settings
 * @property {boolean} motion cards move
 * @property {boolean} title the tab's title and icon change on the viewer's turn
 * @property {boolean} sound a chime on the viewer's turn
 * @property {boolean} vibrate a vibration on the viewer's turn (phones)
 * @property {'auto' | 'dark' | 'light'} theme auto follows the system's
 * @property {'two' | 'four'} deck two colours, or four (♦ blue, ♣ green)
 * @property {boolean} firstGame the hint at every turn and a word on each control
 * @property {'small' | 'normal' | 'large'} cardSize the cards' size beside what the screen allows
 */

/** @type {Readonly<Settings>} */
export const DEFAULTS = Object.freeze({
  motion: true, title: true, sound: false, vibrate: true, theme: 'auto', deck: 'two', firstGame: false, cardSize: 'normal',
});

/** @type {Record<string, readonly string[]>} */
const CHOICES = { theme: ['auto', 'dark', 'light'], deck: ['two', 'four'], cardSize: ['small', 'normal', 'large'] };

/**
 * The settings stored as `text`, each one that is missing or not valid at its default.
 * @param {string | null} text
 * @returns {Settings}
 */
export function readSettings(text) {
  /** @type {Record<string, unknown>} */
  let stored = {};
  try {
    const parsed = JSON.parse(text || '{}');
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) stored = parsed;
  } catch {
    stored = {};
  }
  /** @type {Record<string, unknown>} */
  const settings = { ...DEFAULTS };
  for (const [name, fallback] of Object.entries(DEFAULTS)) {
    const value = stored[name];
    if (typeof fallback === 'boolean' ? typeof value === 'boolean'
      : typeof value === 'string' && CHOICES[name].includes(value)) settings[name] = value;
  }
  return /** @type {Settings} */ (/** @type {unknown} */ (settings));
}

function storage() {
  try {
    return globalThis.localStorage || null;
  } catch {
    return null;
  }
}

/** @type {Array<() => void>} */
const watchers = [];

/** @returns {Settings} */
export function allSettings() {
  const store = storage();
  return readSettings(store ? store.getItem(KEY) : null);
}

/**
 * @template {keyof Settings} K
 * @param {K} name
 * @returns {Settings[K]}
 */
export function setting(name) {
  return allSettings()[name];
}

/**
 * @template {keyof Settings} K
 * @param {K} name
 * @param {Settings[K]} value
 */
export function setSetting(name, value) {
  const next = { ...allSettings(), [name]: value };
  const store = storage();
  if (store) store.setItem(KEY, JSON.stringify(next));
  applyLooks();
  for (const watch of watchers) watch();
}

/** @param {() => void} watch runs after any setting changes */
export function onSettings(watch) {
  watchers.push(watch);
}

/** The theme, the deck's colours and the cards' size on the page (the style sheets read them). */
export function applyLooks() {
  if (typeof document === 'undefined') return;
  const { theme, deck, cardSize } = allSettings();
  const root = document.documentElement;
  if (theme === 'auto') delete root.dataset.theme;
  else root.dataset.theme = theme;
  root.dataset.deck = deck;
  root.dataset.cards = cardSize;
}

applyLooks();
