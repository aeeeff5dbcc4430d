// The table in plain words: each move as the table saw it, deal endings, sides and the winner.

import { pretty, prettyList } from './cards.js';
import { plural } from './dom.js';

/** @typedef {import('./protocol.js').TableState} TableState */
/** @typedef {import('./protocol.js').DealResult} DealResult */

export const YOU = 'You';

/** @type {Record<string, string>} */
const SECOND_PERSON = {
  draws: 'draw', takes: 'take', melds: 'meld', lays: 'lay', discards: 'discard', goes: 'go',
  calls: 'call', passes: 'pass', must: 'must', wins: 'win', leads: 'lead', deals: 'deal',
};

/**
 * The verb for `who`: "draws", or "draw" after "You".
 * @param {string} who
 * @param {string} thirdPerson
 */
export function verb(who, thirdPerson) {
  if (who !== YOU) return thirdPerson;
  const [head, ...rest] = thirdPerson.split(' ');
  return [SECOND_PERSON[head] || head, ...rest].join(' ');
}

// A move's text in parts: {kind, cards, meld}; kind is one of NOTATION.md's moves.
/**
 * @param {string} text
 * @returns {{ kind: string, cards: string[], meld: string | null }}
 */
export function moveParts(text) {
  const words = String(text).trim().split(/\s+/);
  let kind = words.shift() || '';
  if (kind === 'rummy') kind += ` ${words.shift() || ''}`;
  let meld = null;
  if (kind.endsWith('layoff') && words.length > 1) meld = words.pop() ?? null;
  return { kind, cards: words, meld };
}

/**
 * @param {readonly string[]} pile
 * @param {string} face
 */
function pileIndex(pile, face) {
  const [card, copy] = face.split('/');
  let seen = 0;
  for (let i = pile.length - 1; i >= 0; i -= 1) {
    if (pile[i] === card) {
      seen += 1;
      if (seen === (copy === '2' ? 2 : 1)) return i;
    }
  }
  return -1;
}

/**
 * @param {TableState | null} prev
 * @param {TableState | null} next
 * @param {number | null} seat
 */
function gained(prev, next, seat) {
  if (seat === null || !prev || !next || prev.deal !== next.deal || !prev.credit || !next.credit) return null;
  return next.credit[seat] - prev.credit[seat];
}

/**
 * @param {TableState | null} prev
 * @param {TableState | null} next
 * @param {number | null} seat
 */
function points(prev, next, seat) {
  const value = gained(prev, next, seat);
  return value === null ? '' : `, ${plural(value, 'point')}`;
}

// One move in plain words. `prev` and `next` are the states before and after it (either may
// be missing, when the page did not see the move happen); `mine` says the viewer made it.
/**
 * @param {string} who
 * @param {number | null} seat
 * @param {string} move
 * @param {TableState | null} prev
 * @param {TableState | null} next
 */
export function moveLine(who, seat, move, prev, next) {
  const { kind, cards, meld } = moveParts(move);
  let text;
  if (kind === 'draw') {
    text = `${who} ${verb(who, 'draws')} from the stock`;
    if (who === YOU && prev && next && prev.hand && next.hand && prev.deal === next.deal) {
      const drawn = difference(next.hand, prev.hand);
      if (drawn.length === 1) text = `${who} ${verb(who, 'draws')} ${pretty(drawn[0])} from the stock`;
    }
  } else if (kind === 'take') {
    text = `${who} ${verb(who, 'takes')} ${pretty(cards[0].split('/')[0])}`;
    if (prev && prev.pile) {
      const index = pileIndex(prev.pile, cards[0]);
      const above = index >= 0 ? prev.pile.slice(index + 1) : [];
      if (above.length) {
        text += ` and the ${above.length === 1 ? 'card' : `${above.length} cards`} above it (${prettyList(above)})`;
      }
    }
    text += ' from the pile';
    if (next && next.must_use && next.turn === seat) {
      text += `, and ${verb(who, 'must')} use ${pretty(next.must_use)} this turn`;
    }
  } else if (kind === 'meld' || kind === 'rummy meld') {
    const id = next && next.melds && next.melds.length && (!prev || next.melds.length > prev.melds.length)
      ? `${next.melds[next.melds.length - 1].id}` : '';
    const call = kind === 'meld' ? verb(who, 'melds') : `${verb(who, 'calls')} rummy and ${verb(who, 'melds')}`;
    const from = kind === 'meld' ? '' : ' from the pile';
    const detail = [id, points(prev, next, seat).slice(2)].filter(Boolean).join(', ');
    text = `${who} ${call} ${prettyList(cards)}${from}${detail ? ` (${detail})` : ''}`;
  } else if (kind === 'layoff' || kind === 'rummy layoff') {
    const call = kind === 'layoff' ? verb(who, 'lays off')
      : `${verb(who, 'calls')} rummy and ${verb(who, 'lays off')}`;
    const from = kind === 'layoff' ? '' : ' from the pile';
    const detail = points(prev, next, seat).slice(2);
    text = `${who} ${call} ${pretty(cards[0])}${from} on ${meld}${detail ? ` (${detail})` : ''}`;
  } else if (kind === 'discard') {
    text = `${who} ${verb(who, 'discards')} ${pretty(cards[0])}`;
  } else if (kind === 'end') {
    text = `${who} ${verb(who, 'takes')} nothing from the pile, which ends the deal`;
  } else if (kind === 'pass') {
    text = `${who} ${verb(who, 'passes')} (no rummy call)`;
  } else {
    text = `${who}: ${move}`;
  }
  if (prev && next && next.deals && prev.deals && next.deals.length > prev.deals.length) {
    const last = next.deals[next.deals.length - 1];
    if (last.went_out === seat) text += `, and ${verb(who, 'goes')} out`;
  }
  return `${text}.`;
}

/**
 * @param {readonly string[]} after
 * @param {readonly string[]} before
 */
function difference(after, before) {
  const left = [...before];
  const out = [];
  for (const card of after) {
    const at = left.indexOf(card);
    if (at >= 0) left.splice(at, 1);
    else out.push(card);
  }
  return out;
}

// The seats of each side, e.g. [[0, 2], [1, 3]], or a side per seat.
/**
 * @param {number} players
 * @param {number[][] | null | undefined} sides
 * @returns {number[][]}
 */
export function sidesOf(players, sides) {
  if (sides && sides.length) return sides;
  return Array.from({ length: players }, (_, seat) => [seat]);
}

/**
 * @param {number} side
 * @param {readonly number[][]} sides
 * @param {readonly string[]} names
 * @param {number | null} viewer
 */
export function sideName(side, sides, names, viewer) {
  const members = [...(sides[side] || [])].sort((a, b) => Number(b === viewer) - Number(a === viewer));
  return members.map((seat) => (seat === viewer ? YOU : names[seat])).join(' & ');
}

/**
 * @param {number} seat
 * @param {readonly number[][]} sides
 */
export function sideOfSeat(seat, sides) {
  return sides.findIndex((members) => members.includes(seat));
}

// Running totals after each finished deal.
/**
 * @param {readonly DealResult[]} deals
 * @param {number} sideCount
 * @returns {number[][]}
 */
export function runningTotals(deals, sideCount) {
  const totals = [];
  let running = Array(sideCount).fill(0);
  for (const deal of deals) {
    running = running.map((total, side) => total + (deal.scores[side] || 0));
    totals.push(running);
  }
  return totals;
}

/**
 * @param {DealResult} deal
 * @param {readonly string[]} names
 * @param {number | null} viewer
 */
export function dealEnding(deal, names, viewer) {
  if (deal.went_out === null || deal.went_out === undefined) return 'nobody went out';
  const who = deal.went_out === viewer ? YOU : names[deal.went_out];
  return `${who} went out`;
}

/**
 * @param {TableState} state
 * @param {readonly number[][]} sides
 * @param {readonly string[]} names
 * @param {number | null} viewer
 * @param {number} [target]
 */
export function outcomeLine(state, sides, names, viewer, target) {
  const totals = state.totals || [];
  if (state.over) {
    if (state.winner === null || state.winner === undefined) return 'The game is a draw.';
    const who = sideName(state.winner, sides, names, viewer);
    const others = totals.filter((_, side) => side !== state.winner);
    const margin = totals[state.winner] - Math.max(...others);
    const wins = who === YOU || sides[state.winner].length > 1 ? 'win' : 'wins';
    return `${who} ${wins} the game by ${plural(margin, 'point')}.`;
  }
  if (!totals.length) return '';
  const best = Math.max(...totals);
  const leaders = totals.map((t, side) => (t === best ? side : -1)).filter((side) => side >= 0);
  const goal = target ? ` (to ${target})` : '';
  if (leaders.length === totals.length) return `Level at ${best} each${goal}.`;
  if (leaders.length > 1) return `${leaders.map((side) => sideName(side, sides, names, viewer)).join(' and ')} lead with ${best}${goal}.`;
  const who = sideName(leaders[0], sides, names, viewer);
  const leads = who === YOU || sides[leaders[0]].length > 1 ? 'lead' : 'leads';
  return `${who} ${leads} with ${best}${goal}.`;
}

// A move as advice, e.g. "take 7♥ from the pile" (the hint's words).
/** @param {string} move */
export function describe(move) {
  const { kind, cards, meld: target } = moveParts(move);
  if (kind === 'draw') return 'draw from the stock';
  if (kind === 'take') return `take ${pretty(cards[0].split('/')[0])} from the pile`;
  if (kind === 'meld') return `meld ${prettyList(cards)}`;
  if (kind === 'layoff') return `lay off ${pretty(cards[0])} on ${target}`;
  if (kind === 'discard') return `discard ${pretty(cards[0])}`;
  if (kind === 'pass') return 'pass';
  if (kind === 'end') return 'take nothing from the pile (ending the deal)';
  return move;
}

// A score with its sign: "+35", "−10" (a minus sign, not a hyphen), "0".
/** @param {number} n */
export function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0';
}

/** @param {string} text */
export function capital(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}
