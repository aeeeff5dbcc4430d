// The shapes of PROTOCOL.md's JSON as the pages read them (JSDoc types for the type check;
// this module holds no code). The state and its parts are the declarations made from the
// server's types (protocol-types.d.ts, by `npm run types`: never edit them here); the shapes
// the pages read besides (the API's summaries, the other frames) are written here.

/** @typedef {import('./protocol-types').SeatInfo} SeatEntry one seat of a table: a person or a computer player */
/** @typedef {import('./protocol-types').TableMeld} Meld a meld on the table */
/** @typedef {import('./protocol-types').SheetLine} SheetLine one line of a deal's sheet */
/** @typedef {import('./protocol-types').DealSheet} DealResult a finished deal's sheet */
/** @typedef {import('./protocol-types').HistoryEntry} HistoryEntry a change of the deal in words */
/** @typedef {import('./protocol-types').ChatLine} ChatLine a line said at the table (a chat frame, or an entry of `state.chat`) */
/** @typedef {import('./protocol-types').StateChange} StateChange an update's `set` */
/** @typedef {import('./protocol-types').Appended} Appended an update's `append` */

/**
 * The table as one seat (or a spectator) sees it: a welcome's state (with `chat`), or that
 * state with the updates since folded in.
 * @typedef {import('./protocol-types').SeatState & { chat?: ChatLine[] }} TableState
 */

/**
 * What an update says happened: a history entry, moves taken back, or nothing yet.
 * @typedef {import('./protocol-types').Update['event']} TableEvent
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
 * @property {number} [deal_pause_s] how long the computer players wait after a deal (0: not at all)
 * @property {number} [turn_s] the turn clock (0: none)
 * @property {number} [bank_s] each person's time bank for the game (0: none)
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
 * A frame from the table's WebSocket, any type: a welcome or an update (their shapes are
 * `Welcome` and `Update` of protocol-types.d.ts) or one of the others.
 * @typedef {object} Frame
 * @property {string} type
 * @property {number} [seq]
 * @property {number | null} [seat]
 * @property {number} [v] the version a welcome speaks
 * @property {TableState} [state] a welcome's; an update's once the connection folded it in
 * @property {TableEvent} [event]
 * @property {StateChange} [set] an update's changed keys
 * @property {Appended} [append] an update's items added to `history` or `deals`
 * @property {SeatEntry[]} [seats]
 * @property {string} [table]
 * @property {string} [id]
 * @property {string} [code]
 * @property {string} [message]
 * @property {number} [n] a chat line's number
 * @property {string} [name] who said a chat line
 * @property {string} [text] a chat line's words
 * @property {string} [react] a reaction's name
 * @property {string} [at] when a chat line was said (ISO time)
 * @property {number} [deal] the deal a waiting frame is about
 * @property {number[]} [waiting_for]
 * @property {number | null} [pause_left]
 * @property {number | null} [clock]
 * @property {number[] | null} [bank] each seat's time bank left (a waiting frame's)
 * @property {number} [watchers] how many watch (a waiting or watchers frame's)
 */

export {};
