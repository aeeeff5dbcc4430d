// "Your tables" in the lobby: each table this browser holds a seat at, in words (its game,
// when it was joined, who plays, the score and where it stands), from the table's summary.

/** @typedef {import('./protocol.js').SeatEntry} SeatEntry */

/**
 * The summary of GET /api/tables/<id>, as far as the lobby reads it.
 * @typedef {object} HeldTable
 * @property {string} status "waiting", "playing" or "over"
 * @property {number} players
 * @property {SeatEntry[]} seats
 * @property {number[]} [totals] by side
 * @property {number} [deal] the deal's number (the one in play, or the last)
 * @property {{ preset?: string, partnership?: boolean } & Record<string, unknown>} [rules]
 */

/**
 * A seat's name as the lobby shows it, "you" for the viewer's own.
 * @param {SeatEntry} entry
 * @param {number} seat
 * @param {number} mine
 */
export function seatName(entry, seat, mine) {
  if (seat === mine) return 'you';
  if (entry.name) return entry.name;
  return entry.kind === 'bot' ? `computer${entry.bot ? ` (${entry.bot})` : ''}` : `open seat ${seat + 1}`;
}

/**
 * The seats of each side: one a seat, or partners opposite (seats 1 and 3, 2 and 4).
 * @param {HeldTable} table
 * @returns {number[][]}
 */
export function sidesOfTable(table) {
  const count = (table.totals || []).length;
  if (count && count < table.players) {
    return Array.from({ length: count }, (_, side) => Array.from({ length: table.players / count }, (_, k) => side + k * count));
  }
  return Array.from({ length: table.players }, (_, seat) => [seat]);
}

/**
 * Who plays, and the score: "you 120, Bo 85".
 * @param {HeldTable} table
 * @param {number} mine the viewer's seat
 */
export function scoreWords(table, mine) {
  const names = table.seats.map((entry, seat) => seatName(entry || {}, seat, mine));
  const totals = table.totals || [];
  return sidesOfTable(table).map((members, side) => {
    const who = members.map((seat) => names[seat]).join(' & ');
    // A minus sign, as the table writes it.
    return table.status === 'waiting' || totals[side] === undefined ? who : `${who} ${String(totals[side]).replace('-', '−')}`;
  }).join(', ');
}

/**
 * Where the table stands: waiting (seats taken), the deal in play, or over.
 * @param {HeldTable} table
 */
export function stateWords(table) {
  if (table.status === 'waiting') {
    const taken = table.seats.filter((entry) => entry && (entry.kind === 'bot' || entry.name)).length;
    return `waiting for players (${taken} of ${table.players} seats taken)`;
  }
  if (table.status === 'over') return 'over';
  return `deal ${Math.max(1, table.deal || 0)} in play`;
}

/**
 * When the seat was taken, in the viewer's own words for dates.
 * @param {number | undefined} since milliseconds
 */
export function whenWords(since) {
  if (!since) return '';
  return new Date(since).toLocaleString(undefined, { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
}
