// The shapes of PROTOCOL.md's JSON as the pages read them (JSDoc types for the type check;
// this module holds no code).

/**
 * One seat of a table: a person (named once someone sits there) or a computer player.
 * @typedef {object} SeatEntry
 * @property {string} [kind] "person" or "bot"
 * @property {string | null} [name]
 * @property {string} [bot] the computer player's name
 * @property {boolean} [open] nobody sits there yet
 * @property {boolean} [connected]
 * @property {boolean} [standin] a computer plays for the person while they are away
 * @property {boolean} [stand_in]
 */

/**
 * A meld on the table: its id, its cards and the seat that laid each card.
 * @typedef {{ id: string, cards: string[], by: number[] }} Meld
 */

/**
 * A finished deal's sheet.
 * @typedef {object} DealResult
 * @property {number[]} scores by side
 * @property {number[]} melded by seat
 * @property {number[]} in_hand by seat
 * @property {number | null} [went_out]
 */

/**
 * One move of the current deal, as the state lists it.
 * @typedef {string | { seat?: number | null, move: string }} HistoryEntry
 */

/**
 * The table as one seat (or a spectator) sees it.
 * @typedef {object} TableState
 * @property {string} phase "waiting", "draw", "play" or "rummy"
 * @property {number} turn
 * @property {number | null} dealer
 * @property {number} players
 * @property {number} [deal]
 * @property {string[]} [hand] the viewer's own cards (a spectator has none)
 * @property {number[]} hand_sizes
 * @property {string[]} pile bottom first
 * @property {number} stock
 * @property {Meld[]} melds
 * @property {number[]} credit points on the table this deal, by seat
 * @property {DealResult[]} [deals]
 * @property {number[]} [totals] by side
 * @property {boolean} [over]
 * @property {number | null} [winner] the winning side
 * @property {string | null} [must_use]
 * @property {string[] | null} [legal]
 * @property {HistoryEntry[]} [history]
 * @property {SeatEntry[]} [seats]
 * @property {string | null} [next] the next game's table
 */

/**
 * A table as the lobby's API describes it.
 * @typedef {object} TableSummary
 * @property {string} [id]
 * @property {string} status "waiting", "playing" or "over"
 * @property {number} players
 * @property {{ preset?: string } & Record<string, unknown>} [rules]
 * @property {SeatEntry[]} seats
 * @property {string | null} [next]
 * @property {number} [takeover_s]
 */

/**
 * The rules explained (POST /api/rules/explain).
 * @typedef {object} RulesInfo
 * @property {number[][]} sides
 * @property {{ topic: string, text: string }[]} [topics]
 * @property {string} [preset]
 * @property {string} [description]
 * @property {number} [target_score]
 */

/**
 * A frame from the table's WebSocket.
 * @typedef {object} Frame
 * @property {string} type
 * @property {number} [seq]
 * @property {number | null} [seat]
 * @property {TableState} [state]
 * @property {TableEvent} [event]
 * @property {SeatEntry[]} [seats]
 * @property {string} [table]
 * @property {string} [id]
 * @property {string} [code]
 * @property {string} [message]
 */

/**
 * What an update says happened: a move by a seat, a new deal, or words.
 * @typedef {object} TableEvent
 * @property {number} [seat]
 * @property {string} [move]
 * @property {number} [deal]
 * @property {number} [dealer]
 * @property {string} [text]
 */

export {};
