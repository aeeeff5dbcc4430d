// The seats this browser holds: a table id, the seat and its token, kept across reloads and days.

const KEY = 'rummy500.seats';
const NAME_KEY = 'rummy500.name';

function load() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) || '{}');
    return data && typeof data === 'object' ? data : {};
  } catch {
    return {};
  }
}

function save(data) {
  localStorage.setItem(KEY, JSON.stringify(data));
}

export function seatAt(table) {
  const entry = load()[table];
  return entry && typeof entry.token === 'string' ? entry : null;
}

export function keepSeat(table, seat, token, name) {
  const data = load();
  data[table] = { seat, token, name, since: Date.now() };
  save(data);
}

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

export function keepName(name) {
  if (name) localStorage.setItem(NAME_KEY, name);
}
