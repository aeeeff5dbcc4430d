// The seats this browser holds: a table id, the seat and its token, kept across reloads and days.

const KEY = 'rummy500.seats';
const NAME_KEY = 'rummy500.name';

/**
 * A seat this browser holds.
 * @typedef {{ seat: number, token: string, name: string, since: number }} HeldSeat
 */
/** @returns {Record<string, HeldSeat>} */
function load() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) || '{}');
    return data && typeof data === 'object' ? data : {};
  } catch {
    return {};
  }
}

/** @param {Record<string, HeldSeat>} data */
function save(data) {
  localStorage.setItem(KEY, JSON.stringify(data));
}

/**
 * @param {string} table
 * @returns {HeldSeat | null}
 */
export function seatAt(table) {
  const entry = load()[table];
  return entry && typeof entry.token === 'string' ? entry : null;
}

/**
 * @param {string} table
 * @param {number} seat
 * @param {string} token
 * @param {string} name
 */
export function keepSeat(table, seat, token, name) {
  const data = load();
  data[table] = { seat, token, name, since: Date.now() };
  save(data);
}

/** @param {string} table */
export function forgetSeat(table) {
  const data = load();
  delete data[table];
  save(data);
}

export function allSeats() {
  return Object.entries(load())
    .map(([table, entry]) => ({ table, ...entry }))
    .sort((a, b) => (b.since || 0) - (a.since || 0));
}

export function lastName() {
  return localStorage.getItem(NAME_KEY) || '';
}

/** @param {string} name */
export function keepName(name) {
  if (name) localStorage.setItem(NAME_KEY, name);
}
