// Version 3 of the protocol (docs/protocol.md): an update carries what changed (`set`: keys
// with their whole new value; `append`: items added at the end of `history` or `deals`). A
// client keeps the state by folding each update, in seq order, into the last one.

/** The version this page speaks. */
export const VERSION = 3;

/**
 * The state after a version 3 update: a new object, `state` left as it was.
 * @param {Record<string, any>} state
 * @param {{ set?: Record<string, any>, append?: Record<string, any[]> }} update
 * @returns {Record<string, any>}
 */
export function fold(state, update) {
  const next = { ...state, ...(update.set || {}) };
  for (const [key, items] of Object.entries(update.append || {})) {
    next[key] = [...(next[key] || []), ...items];
  }
  return next;
}

/**
 * Whether an update follows the state held at `seq` (else a change was missed: resync).
 * @param {number} seq
 * @param {{ seq?: number }} update
 */
export function follows(seq, update) {
  return seq >= 0 && update.seq === seq + 1;
}
