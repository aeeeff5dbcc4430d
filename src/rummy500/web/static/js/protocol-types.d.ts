// The types of the protocol's state and frames (docs/protocol.md, version 3), made by
// `npm run types` from protocol.schema.json, itself made from the server's Python types
// (rummy500.web.protocol_schema): do not edit; protocol.js names them for the pages.

/**
 * A welcome or update frame of version 3 of the protocol (docs/protocol.md); made by python -m rummy500.web.protocol_schema from the server's types: do not edit.
 */
export type ProtocolFrame = Welcome | Update;

/**
 * The first frame to a client, and the answer to a `resync`: the whole state.
 */
export interface Welcome {
  type: 'welcome';
  /**
   * The reader's seat; null for a spectator.
   */
  seat: number | null;
  seq: number;
  v: 3;
  state: WelcomeState;
}

/**
 * A welcome's state: the seat's whole state, with the table's last chat lines.
 */
export interface WelcomeState {
  hand_sizes: number[];
  stock: number;
  /**
   * Bottom first.
   */
  pile: string[];
  melds: TableMeld[];
  must_use: string | null;
  credit: number[];
  /**
   * Per side, before this deal (after the game on a finished game).
   */
  totals: number[];
  players: number;
  seat: number | null;
  dealer: number | null;
  turn: number | null;
  phase: string;
  /**
   * The deal in play, from 1 (0 before the first).
   */
  deal: number;
  hand?: string[] | null;
  history: HistoryEntry[];
  deals: DealSheet[];
  over: boolean;
  winner: number | null;
  seats: SeatInfo[];
  /**
   * Every legal move of this seat when it is to move; else null.
   */
  legal: string[] | null;
  /**
   * The table of the next game, once someone asked for one (online tables).
   */
  next: string | null;
  /**
   * Whether this seat may take its last move back now (online tables, seats only).
   */
  can_undo?: boolean | null;
  /**
   * The seats a finished deal's sheet still waits for (online tables).
   */
  waiting_for: number[];
  /**
   * Seconds the sheet still holds the computer players (online tables).
   */
  pause_left: number | null;
  /**
   * Seconds left on the turn clock (online tables with one).
   */
  clock: number | null;
  /**
   * Each seat's time bank left, in seconds (online tables with one; else null): spent once the turn clock has run out, the seat to move's already less what its turn has spent.
   */
  bank: number[] | null;
  /**
   * How many people watch the table (spectators' connections).
   */
  watchers: number;
  chat: ChatLine[];
}

export interface TableMeld {
  id: string;
  /**
   * In the meld's order (a run low to high); a wild joker as `*=6h`.
   */
  cards: string[];
  /**
   * The seat that laid each card.
   */
  by: number[];
  /**
   * The seat that laid the meld itself (its lay-offs may be others').
   */
  owner: number;
}

/**
 * A change of the deal in words: a seat's move (`seat`, `move`; `drawn` for the reader's own draw), a new deal (`deal`, `dealer`), or the person of `seat` leaving the table for good (`left`).
 */
export interface HistoryEntry {
  text: string;
  seat?: number | null;
  move?: string | null;
  drawn?: string | null;
  deal?: number | null;
  dealer?: number | null;
  left?: boolean;
}

/**
 * A finished deal's sheet: each side's lines add up to its score; `totals_after` are the totals once the deal (and, on the last sheet, the game) is scored.
 */
export interface DealSheet {
  deal: number;
  went_out: number | null;
  /**
   * How the deal ended, in words for the reader (`Ann went out`).
   */
  ended: string;
  /**
   * The deal's end in one line (`sheet_summary`).
   */
  text: string;
  lines: SheetLine[];
  scores: number[];
  totals_after: number[];
  /**
   * The cards each seat held when the deal ended (shown to all then).
   */
  hands: string[][];
  melded: number[];
  in_hand: number[];
  /**
   * Who led once the deal was scored, or who won the game on its last sheet.
   */
  standing: string;
  /**
   * Each side's name, as the reader says it (`You & Cat`).
   */
  sides: string[];
  /**
   * The sheet that ended the game.
   */
  last: boolean;
  /**
   * The melds as they lay when the deal ended (shown on the table until the next deal).
   */
  melds: TableMeld[];
}

export interface SheetLine {
  /**
   * The seat whose cards these are; None for a side's bonus.
   */
  seat: number | null;
  side: number;
  /**
   * One of `LINE_KINDS`.
   */
  what: string;
  points: number;
  text: string;
}

export interface SeatInfo {
  seat: number;
  /**
   * `person` or `bot`.
   */
  kind: string;
  name: string;
  connected: boolean;
  open: boolean;
  /**
   * The computer player's name, at a computer player's seat.
   */
  bot: string | null;
  /**
   * The computer player playing for a person who is away (`expert`), if one is.
   */
  standin: string | null;
  /**
   * An open seat kept for the person who held it at the game before (Play again).
   */
  kept: boolean;
  /**
   * The person of this seat left the table for good: a computer player (`bot`) plays it, under their name, for the rest of the game.
   */
  left: boolean;
}

/**
 * A line said at the table (an entry of a welcome's `chat`).
 */
export interface ChatLine {
  n: number;
  seat: number;
  name: string;
  text: string;
  at: string;
  react?: string | null;
}

/**
 * A change of the table (version 3): what changed since the frame of `seq` - 1.
 */
export interface Update {
  type: 'update';
  seq: number;
  /**
   * The change as the reader is told it: the last entry of its history, or moves taken back.
   */
  event: HistoryEntry | UndoEvent | NoEvent;
  set: StateChange;
  append: Appended;
}

/**
 * An update's `set`: the keys of the state whose value changed, each with its whole new value (null when it became null); a key not named is unchanged.
 */
export interface StateChange {
  hand_sizes?: number[];
  stock?: number;
  pile?: string[];
  melds?: TableMeld[];
  must_use?: string | null;
  credit?: number[];
  totals?: number[];
  players?: number;
  seat?: number | null;
  dealer?: number | null;
  turn?: number | null;
  phase?: string;
  deal?: number;
  hand?: string[] | null;
  history?: HistoryEntry[];
  deals?: DealSheet[];
  over?: boolean;
  winner?: number | null;
  seats?: SeatInfo[];
  legal?: string[] | null;
  next?: string | null;
  can_undo?: boolean | null;
  waiting_for?: number[];
  pause_left?: number | null;
  clock?: number | null;
  bank?: number[] | null;
  watchers?: number;
}

/**
 * An update's `append`: the items to add at the end of the lists that grew.
 */
export interface Appended {
  history?: HistoryEntry[];
  deals?: DealSheet[];
}

/**
 * The whole truth for one seat (`seat` None: a spectator, whose state has no `hand` and no `can_undo`): every key of the protocol's `state` but `chat` (the welcome's alone), what every seat sees alike (`PublicTable`) among them. Every other key is always written, null or not.
 */
export interface SeatState {
  hand_sizes: number[];
  stock: number;
  /**
   * Bottom first.
   */
  pile: string[];
  melds: TableMeld[];
  must_use: string | null;
  credit: number[];
  /**
   * Per side, before this deal (after the game on a finished game).
   */
  totals: number[];
  players: number;
  seat: number | null;
  dealer: number | null;
  turn: number | null;
  phase: string;
  /**
   * The deal in play, from 1 (0 before the first).
   */
  deal: number;
  hand?: string[] | null;
  history: HistoryEntry[];
  deals: DealSheet[];
  over: boolean;
  winner: number | null;
  seats: SeatInfo[];
  /**
   * Every legal move of this seat when it is to move; else null.
   */
  legal: string[] | null;
  /**
   * The table of the next game, once someone asked for one (online tables).
   */
  next: string | null;
  /**
   * Whether this seat may take its last move back now (online tables, seats only).
   */
  can_undo?: boolean | null;
  /**
   * The seats a finished deal's sheet still waits for (online tables).
   */
  waiting_for: number[];
  /**
   * Seconds the sheet still holds the computer players (online tables).
   */
  pause_left: number | null;
  /**
   * Seconds left on the turn clock (online tables with one).
   */
  clock: number | null;
  /**
   * Each seat's time bank left, in seconds (online tables with one; else null): spent once the turn clock has run out, the seat to move's already less what its turn has spent.
   */
  bank: number[] | null;
  /**
   * How many people watch the table (spectators' connections).
   */
  watchers: number;
}

/**
 * An update's event when moves were taken back (`rummy500.server.undo.undo_event`).
 */
export interface UndoEvent {
  seat: number;
  /**
   * How many moves were taken back.
   */
  undo: number;
  text: string;
}

/**
 * An update's event when the reader has no history yet to tell: `{}`.
 */
export interface NoEvent {
  /**
   * Never there (so that a page tells this event from the others by its `text`).
   */
  text?: null;
}
