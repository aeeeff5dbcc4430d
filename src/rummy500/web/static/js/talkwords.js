// The pure parts of talk, pacing and undo at the table (no page here, so that node tests
// them): which chat lines are new, how the pause and the clock are said, and whether undo
// can be offered.

/** @typedef {import('./protocol.js').ChatLine} ChatLine */
/** @typedef {import('./protocol.js').TableState} TableState */

/**
 * The lines of `incoming` not shown yet, in order.
 * @param {readonly ChatLine[]} incoming
 * @param {ReadonlySet<number>} seen the line numbers shown
 * @returns {ChatLine[]}
 */
export function unseenLines(incoming, seen) {
  return incoming.filter((line) => typeof line.n === 'number' && !seen.has(line.n));
}

/** The server's reactions (docs/protocol.md) and their words; their icons are table/icons.js's. */
export const REACTIONS = /** @type {const} */ ([
  ['hello', 'Hello'], ['nice', 'Nice'], ['wow', 'Wow'], ['oops', 'Oops'],
  ['thinking', 'Thinking'], ['laugh', 'Laugh'], ['hurry', 'Your turn!'], ['gg', 'Good game'],
]);

/** Emoji and their joiners, variation selectors and skin tones, left out of a reaction's text. */
const PICTOGRAPHS = /[\p{Extended_Pictographic}\u{FE0F}\u{200D}\u{1F3FB}-\u{1F3FF}]/gu;

/**
 * A line's text as the page shows it: a reaction's words without the emoji the server puts
 * before them (the page draws its icon: an emoji needs a font a system may lack), or the
 * reaction's own words when nothing is left.
 * @param {ChatLine} line
 */
export function shownText(line) {
  if (!line.react) return line.text;
  const words = line.text.replace(PICTOGRAPHS, '').trim();
  return words || (REACTIONS.find(([what]) => what === line.react) || ['', line.react])[1];
}

/**
 * A chat line as the log says it.
 * @param {ChatLine} line
 */
export function logText(line) {
  return `${line.name}: ${line.text}`;
}

/**
 * Names joined as words: "Ann", "Ann and Bo", "Ann, Bo and Cy".
 * @param {readonly string[]} names
 */
export function andList(names) {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/**
 * What the deal pause says: who it waits for (the viewer as "you") and for how long.
 * @param {readonly number[]} waiting seats not ready yet
 * @param {readonly string[]} names each seat's name as shown
 * @param {number | null} me the viewer's seat
 * @param {number | null} left seconds left of the pause
 */
export function waitingWords(waiting, names, me, left) {
  if (!waiting.length) return '';
  const who = waiting.map((seat) => (seat === me ? 'you' : names[seat] || `Seat ${seat + 1}`));
  const time = left === null || left === undefined ? '' : ` (at most ${Math.ceil(left)} s)`;
  return `The computer players wait for ${andList(who)} to continue${time}.`;
}

/**
 * A clock's seconds as shown: "0:45", "12:05"; never below zero.
 * @param {number} seconds
 */
export function clockText(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/**
 * Whether the viewer may ask for an undo now, as the server's state says (`can_undo`: the
 * rule is the server's).
 * @param {TableState | null} state
 * @param {number | null} me
 */
export function undoOffered(state, me) {
  return Boolean(state && me !== null && state.can_undo);
}
