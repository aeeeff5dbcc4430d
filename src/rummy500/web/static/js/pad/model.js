// A pad as the page keeps it, and its file (the format `rummy500 pad` reads): cards typed in
// the notation, the file written and read, and the scores as CSV.

/**
 * @typedef {import('./score.js').PadDeal} PadDeal
 * @typedef {import('./score.js').Tables} Tables
 *
 * @typedef {object} RulesSpec
 * @property {string} preset
 * @property {Record<string, unknown>} options
 *
 * @typedef {object} Pad
 * @property {string} id
 * @property {number} created
 * @property {RulesSpec} rules
 * @property {string[]} players
 * @property {number} firstDealer
 * @property {PadDeal[]} deals the deals entered
 * @property {PadDeal} current the deal being entered
 * @property {{at: number, text: string}[]} log what was changed in past deals
 * @property {{id: string, token: string}} [share] the pad's place on the server, once shared
 */

export const FORMAT = 'rummy500-pad';
const RANKS = 'A23456789TJQK';
const SUIT_LETTERS = { '♣': 'c', '♦': 'd', '♥': 'h', '♠': 's' };

/**
 * One card in the notation (7h, Ts, 10s, A♠, *=6h, *), written canonically, or null.
 * @param {string} word
 * @returns {string | null}
 */
export function parsePiece(word) {
  const text = word.trim();
  if (text === '*') return '*';
  if (text.startsWith('*=')) {
    const card = parsePiece(text.slice(2));
    return card && card !== '*' ? `*=${card}` : null;
  }
  const match = /^(10|[2-9tjqka])([cdhs♣♦♥♠])$/i.exec(text);
  if (!match) return null;
  const rank = match[1] === '10' ? 'T' : match[1].toUpperCase();
  if (!RANKS.includes(rank)) return null;
  const suit = /** @type {Record<string, string>} */ (SUIT_LETTERS)[match[2]] || match[2].toLowerCase();
  return rank + suit;
}

/**
 * Cards typed in the notation, or the first word that is not one.
 * @param {string} text
 * @returns {{cards: string[], bad: string | null}}
 */
export function parseCards(text) {
  const words = text.split(/[\s,]+/).filter(Boolean);
  /** @type {string[]} */
  const cards = [];
  for (const word of words) {
    const card = parsePiece(word);
    if (!card) return { cards, bad: word };
    cards.push(card);
  }
  return { cards, bad: null };
}

/**
 * An empty deal dealt by `dealer`.
 * @param {number} players
 * @param {number} dealer
 * @returns {PadDeal}
 */
export function emptyDeal(players, dealer) {
  return {
    dealer, went_out: null, melds: [], layoffs: [],
    hands: Array.from({ length: players }, () => []), points: new Array(players).fill(null),
  };
}

/**
 * A new pad.
 * @param {RulesSpec} rules
 * @param {string[]} players
 * @param {number} firstDealer
 * @returns {Pad}
 */
export function newPad(rules, players, firstDealer) {
  return {
    id: `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`,
    created: Date.now(), rules, players, firstDealer, deals: [],
    current: emptyDeal(players.length, firstDealer), log: [],
  };
}

/**
 * The dealer of deal `index` (from 0): the deal passes to the left.
 * @param {Pad} pad
 * @param {number} index
 */
export function dealerOf(pad, index) {
  return (pad.firstDealer + index) % pad.players.length;
}

/**
 * Whether a deal has anything entered.
 * @param {PadDeal} deal
 */
export function isEmptyDeal(deal) {
  return !deal.melds.length && !deal.layoffs.length && deal.hands.every((h) => !h.length)
    && deal.points.every((p) => p === null) && deal.went_out === null;
}

/**
 * The pad's file (PAD.md's format).
 * @param {Pad} pad
 */
export function toFile(pad) {
  return {
    format: FORMAT, version: 1,
    rules: { preset: pad.rules.preset, options: pad.rules.options },
    players: pad.players,
    deals: pad.deals.map((deal) => ({
      dealer: deal.dealer, went_out: deal.went_out,
      melds: deal.melds.map((m) => ({ seat: m.seat, cards: m.cards.join(' ') })),
      layoffs: deal.layoffs.map((l) => ({ seat: l.seat, cards: l.cards.join(' '), on: l.on })),
      hands: deal.hands.map((hand, seat) => (deal.points[seat] === null ? hand.join(' ') : '')),
      points: deal.points,
    })),
  };
}

/**
 * @param {unknown} value
 * @param {string} where
 */
function cardsOf(value, where) {
  if (typeof value !== 'string') throw new Error(`${where}: cards are written as text, like "7h 7d 7s"`);
  const { cards, bad } = parseCards(value);
  if (bad !== null) throw new Error(`${where}: "${bad}" is not a card (write 7h, Ts, *=6h)`);
  return cards;
}

/**
 * A pad read from its file, checked enough to be shown (the scoring finds the rest).
 * @param {any} data
 * @returns {Pad}
 */
export function fromFile(data) {
  if (!data || typeof data !== 'object' || data.format !== FORMAT) {
    throw new Error(`this is not a score pad file (its format should be "${FORMAT}")`);
  }
  const players = data.players;
  if (!Array.isArray(players) || players.length < 2 || players.length > 8
      || !players.every((name) => typeof name === 'string' && name.trim())) {
    throw new Error('players must be a list of 2 to 8 names');
  }
  const rules = data.rules && typeof data.rules === 'object' ? data.rules : {};
  const spec = { preset: typeof rules.preset === 'string' ? rules.preset : 'classic',
    options: rules.options && typeof rules.options === 'object' ? rules.options : {} };
  const deals = Array.isArray(data.deals) ? data.deals : [];
  const n = players.length;
  const seat = (/** @type {unknown} */ value, /** @type {string} */ where) => {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value >= n) {
      throw new Error(`${where}: a seat is a number from 0 to ${n - 1}`);
    }
    return value;
  };
  /** @type {PadDeal[]} */
  const read = deals.map((/** @type {any} */ deal, /** @type {number} */ index) => {
    const where = `deal ${index + 1}`;
    const melds = (deal.melds || []).map((/** @type {any} */ m, /** @type {number} */ k) => ({
      seat: seat(m.seat, `${where}, meld ${k + 1}`), cards: cardsOf(m.cards, `${where}, meld ${k + 1}`) }));
    const layoffs = (deal.layoffs || []).map((/** @type {any} */ l) => ({
      seat: seat(l.seat, `${where}, lay-off`), on: Number(l.on), cards: cardsOf(l.cards, `${where}, lay-off`) }));
    const hands = Array.from({ length: n }, (_, s) => cardsOf((deal.hands || [])[s] ?? '', `${where}, hand ${s}`));
    const points = Array.from({ length: n }, (_, s) => {
      const value = (deal.points || [])[s];
      return typeof value === 'number' ? value : null;
    });
    return { dealer: seat(deal.dealer, where), went_out: deal.went_out === null || deal.went_out === undefined
      ? null : seat(deal.went_out, where), melds, layoffs, hands, points };
  });
  const firstDealer = read.length ? read[0].dealer : 0;
  return {
    id: `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`,
    created: Date.now(), rules: spec, players: players.map((p) => p.trim()), firstDealer,
    deals: read, current: emptyDeal(n, (firstDealer + read.length) % n), log: [],
  };
}

/**
 * The scores as CSV: a row a deal, each side's score and total.
 * @param {string[]} sideNames
 * @param {{score: {scores: number[]}, totalsAfter: number[]}[]} sheets
 */
export function toCsv(sideNames, sheets) {
  const quote = (/** @type {string | number} */ value) => {
    const text = String(value);
    return /[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  const header = ['deal', ...sideNames.map((s) => `${s} score`), ...sideNames.map((s) => `${s} total`)];
  const rows = sheets.map((sheet, index) => [index + 1, ...sheet.score.scores, ...sheet.totalsAfter]);
  return `${[header, ...rows].map((row) => row.map(quote).join(',')).join('\n')}\n`;
}

/**
 * The rules' address for the engine's tables (the same text for the same rules, so that the
 * service worker's copy is found again).
 * @param {RulesSpec} rules
 * @param {number} players
 */
export function tablesUrl(rules, players) {
  const options = Object.fromEntries(Object.entries(rules.options).sort(([a], [b]) => a.localeCompare(b)));
  const text = JSON.stringify({ preset: rules.preset, options });
  return `/api/pad/tables?rules=${encodeURIComponent(text)}&players=${players}`;
}

/**
 * Each side's name: the partners' names joined, or the player's.
 * @param {Tables} tables
 * @param {string[]} names
 */
export function sideNames(tables, names) {
  return Array.from({ length: tables.side_count }, (_, side) =>
    names.filter((_, seat) => tables.sides[seat] === side).join(' & '));
}
