// The melds split as the books lay them: each meld in front of the seat that laid it, and a
// card laid off onto another seat's meld in front of the seat that laid it off (it is scored
// to them). The state gives the seat that laid each card, not who laid the meld first: the
// meld is taken to be the seat's with the most of its cards (on a tie, the seat of its first
// card in the meld's order), which is the seat that laid it unless others laid off as many.

/** @typedef {import('../protocol.js').Meld} TableMeld */
/**
 * A seat's part of a meld: `own` for the meld itself (every card; `by` tells the lay-offs of
 * others), else the cards this seat laid off onto it (`at`: their places in the meld).
 * @typedef {{ meld: TableMeld, seat: number, own: boolean, at: number[] }} Piece
 */

/**
 * The seat a meld lies in front of.
 * @param {TableMeld} meld
 */
export function meldOwner(meld) {
  /** @type {Map<number, number>} */
  const counts = new Map();
  for (const seat of meld.by) counts.set(seat, (counts.get(seat) || 0) + 1);
  let owner = meld.by[0] ?? 0;
  for (const seat of meld.by) {
    if ((counts.get(seat) || 0) > (counts.get(owner) || 0)) owner = seat;
  }
  return owner;
}

/**
 * Each seat's pieces, melds in the table's order.
 * @param {readonly TableMeld[]} melds
 * @returns {Map<number, Piece[]>}
 */
export function piecesBySeat(melds) {
  /** @type {Map<number, Piece[]>} */
  const bySeat = new Map();
  /** @param {Piece} piece */
  const add = (piece) => bySeat.set(piece.seat, [...(bySeat.get(piece.seat) || []), piece]);
  for (const meld of melds) {
    const owner = meldOwner(meld);
    add({ meld, seat: owner, own: true, at: meld.cards.map((_, i) => i) });
    /** @type {Map<number, number[]>} */
    const others = new Map();
    meld.by.forEach((seat, i) => {
      if (seat !== owner) others.set(seat, [...(others.get(seat) || []), i]);
    });
    for (const [seat, at] of others) add({ meld, seat, own: false, at });
  }
  return bySeat;
}
