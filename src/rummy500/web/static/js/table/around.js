// Where each seat sits around the table as the viewer sees it: the viewer at the foot, the
// seats after them in the order of play (to the left) up the left side, across the top and
// down the right side, so that the seat opposite (a partner at four players, at six in pairs)
// is at the top. The table is a grid (seats.css): each seat has an area for its panel and one
// for its melds, the stock and the pile the centre. A spectator sees the table from seat 1.

/** @typedef {'me' | 'left' | 'top' | 'right'} Side */
/**
 * A seat's place: its side of the table, its grid areas (panel and melds).
 * @typedef {{ seat: number, side: Side, panel: string, melds: string }} Place
 */

/**
 * How many seats sit on each side of the table (left and right alike) and across the top.
 * @param {number} players
 */
export function sideCounts(players) {
  const sides = players <= 2 ? 0 : players <= 5 ? 1 : 2;
  return { sides, top: Math.max(0, players - 1 - 2 * sides) };
}

/**
 * Every seat's place, the viewer's first.
 * @param {number} players
 * @param {number | null} viewer
 * @returns {Place[]}
 */
export function seatPlaces(players, viewer) {
  const me = viewer === null || viewer >= players ? 0 : viewer;
  const { sides, top } = sideCounts(players);
  /** @type {Place[]} */
  const places = [{ seat: me, side: 'me', panel: 'pme', melds: 'mme' }];
  /** @param {number} offset */
  const seatAt = (offset) => (me + offset) % players;
  // The left side from its top: the seat after the viewer sits nearest them, at its foot.
  for (let i = 0; i < sides; i += 1) {
    places.push({ seat: seatAt(sides - i), side: 'left', panel: `pl${i}`, melds: `ml${i}` });
  }
  for (let j = 0; j < top; j += 1) {
    places.push({ seat: seatAt(sides + 1 + j), side: 'top', panel: `pt${j}`, melds: `mt${j}` });
  }
  for (let i = 0; i < sides; i += 1) {
    places.push({ seat: seatAt(sides + top + 1 + i), side: 'right', panel: `pr${i}`, melds: `mr${i}` });
  }
  return places;
}

/**
 * @param {string[][]} rows each row's areas, one a column
 * @returns {string}
 */
function areasText(rows) {
  return rows.map((row) => `"${row.join(' ')}"`).join(' ');
}

/**
 * @param {number} width columns of the row
 * @param {string[]} names areas sharing the row equally
 */
function shared(width, names) {
  return names.flatMap((name, i) => Array(Math.floor(((i + 1) * width) / names.length)
    - Math.floor((i * width) / names.length)).fill(name));
}

/**
 * The grid of a wide screen: twelve columns, the sides three each and the centre six; the top
 * seats share the whole width; the viewer's panel beside their melds at the foot.
 * @param {number} players
 */
export function wideGrid(players) {
  const { sides, top } = sideCounts(players);
  /** @type {string[][]} */
  const rows = [];
  const tops = Array.from({ length: top }, (_, j) => j);
  if (top) rows.push(shared(12, tops.map((j) => `pt${j}`)), shared(12, tops.map((j) => `mt${j}`)));
  if (!sides) rows.push(Array(12).fill('c'));
  for (let i = 0; i < sides; i += 1) {
    for (const kind of ['p', 'm']) {
      rows.push([...Array(3).fill(`${kind}l${i}`), ...Array(6).fill('c'), ...Array(3).fill(`${kind}r${i}`)]);
    }
  }
  rows.push([...Array(3).fill('pme'), ...Array(9).fill('mme')]);
  return areasText(rows);
}

/**
 * The heights of the wide grid's rows (wideGrid's, in order): the panels' and the centre's as
 * short as they can be, the melds' rows taking the board's room that is left, shared.
 * @param {number} players
 */
export function wideRows(players) {
  const { sides, top } = sideCounts(players);
  const rows = [];
  if (top) rows.push('min-content', 'auto');
  if (!sides) rows.push('min-content');
  for (let i = 0; i < sides; i += 1) rows.push('min-content', 'auto');
  rows.push('auto');
  return rows.join(' ');
}

/**
 * The grid of a phone: six columns, the top seats sharing the width, then the sides in pairs
 * (left, right), then the stock and the pile, then the viewer (the melds above the hand).
 * @param {number} players
 */
export function narrowGrid(players) {
  const { sides, top } = sideCounts(players);
  /** @type {string[][]} */
  const rows = [];
  const tops = Array.from({ length: top }, (_, j) => j);
  if (top) rows.push(shared(6, tops.map((j) => `pt${j}`)), shared(6, tops.map((j) => `mt${j}`)));
  for (let i = 0; i < sides; i += 1) {
    for (const kind of ['p', 'm']) rows.push([...Array(3).fill(`${kind}l${i}`), ...Array(3).fill(`${kind}r${i}`)]);
  }
  rows.push(Array(6).fill('c'), [...Array(2).fill('pme'), ...Array(4).fill('mme')]);
  return areasText(rows);
}
