// The melds split as the books lay them: each meld in front of the seat that laid it (the
// state's `owner`), and a card laid off onto another seat's meld in front of the seat that
// laid it off (it is scored to them).

/** @typedef {import('../protocol.js').Meld} TableMeld */
/**
 * A seat's part of a meld: `own` for the meld itself (every card; `by` tells the lay-offs of
 * others), else the cards this seat laid off onto it (`at`: their places in the meld).
 * @typedef {{ meld: TableMeld, seat: number, own: boolean, at: number[] }} Piece
 */

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
    const owner = meld.owner;
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
