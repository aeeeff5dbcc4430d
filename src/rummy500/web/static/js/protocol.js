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
 * @property {string | null} [standin] the computer player playing for the person while they are away
 */

/**
 * A meld on the table: its id, its cards and the seat that laid each card.
 * @typedef {{ id: string, cards: string[], by: number[] }} Meld
 */

/**
 * One line of a deal's sheet: points a side scored, in words.
 * @typedef {object} SheetLine
 * @property {number | null} seat the seat whose cards these are (null: a side's bonus)
 * @property {number} side
 * @property {string} what "on_table", "doubled", "in_hand", "hands_won", "going_out" or "game_bonus"
 * @property {number} points
 * @property {string} text
 */

/**
 * A finished deal's sheet: each side's lines add up to its score.
 * @typedef {object} DealResult
 * @property {number} deal from 1
 * @property {number | null} went_out
 * @property {string} ended how the deal ended, in words
 * @property {string} text the deal's end in one line, as the log says it
 * @property {SheetLine[]} lines
 * @property {number[]} scores by side
 * @property {number[]} totals_after by side, once the deal (and on the last sheet, the game) is scored
 * @property {string[][]} hands the cards each seat held when the deal ended
 * @property {number[]} melded by seat
 * @property {number[]} in_hand by seat
 * @property {string[]} sides each side's name, as this reader says it
 * @property {string} standing who led once the deal was scored, or who won on the last sheet
 * @property {boolean} last the sheet that ended the game
 */

/**
 * A change of the deal in words: a seat's move (with the card drawn, for the reader's own
 * draw only) or a new deal. An update's event has the same shape.
 * @typedef {object} HistoryEntry
 * @property {string} text
 * @property {number} [seat]
 * @property {string} [move]
 * @property {string} [drawn]
 * @property {number} [deal]
 * @property {number | null} [dealer]
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
 * @property {boolean} [can_undo] this seat may take its last move back now (a table against computer players)
 * @property {ChatLine[]} [chat] the table's last lines (in a welcome's state only)
 * @property {number[]} [waiting_for] the people the deal pause waits for
 * @property {number | null} [pause_left] seconds left of the deal pause
 * @property {number | null} [clock] seconds left of the turn in play (a table with a turn clock)
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
 * @property {number} [n] a chat line's number
 * @property {string} [name] who said a chat line
 * @property {string} [text] a chat line's words
 * @property {string} [react] a reaction's name
 * @property {string} [at] when a chat line was said (ISO time)
 * @property {number} [deal] the deal a waiting frame is about
 * @property {number[]} [waiting_for]
 * @property {number | null} [pause_left]
 * @property {number | null} [clock]
 */

/**
 * A line said at the table (a chat frame, or an entry of `state.chat`).
 * @typedef {object} ChatLine
 * @property {number} n
 * @property {number} seat
 * @property {string} name
 * @property {string} text
 * @property {string} at
 * @property {string} [react]
 */

/**
 * What an update says happened, as a history entry says it.
 * @typedef {HistoryEntry} TableEvent
 */

export {};
