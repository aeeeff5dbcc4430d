// The pad's scoring: looked up in the tables the engine wrote for the pad's rules
// (GET /api/pad/tables, rummy500/pad_tables.py). Nothing here knows a rule of the game: which
// cards make a meld, what a card is worth where it lies, what a sheet adds up and when the
// game ends all come from the tables; this file only finds things in them and adds.

/**
 * @typedef {object} MeldEntry
 * @property {string} kind run, set or joker_set
 * @property {number[]} points each card's points, in key order
 * @property {boolean} doubles four laid at once count double
 *
 * @typedef {object} SheetTerm
 * @property {number | null} seat
 * @property {number} side
 * @property {string} what
 * @property {string} [from] on_table or in_hand: the line is that seat's points
 * @property {number} [of] whose points
 * @property {number} [sign]
 * @property {number} [points] a fixed number of points
 *
 * @typedef {object} Tables
 * @property {string} format
 * @property {{preset: string} & Record<string, unknown>} rules
 * @property {number} players
 * @property {number} decks
 * @property {string} jokers none, wild or persian
 * @property {Record<string, number>} copies
 * @property {Record<string, number>} in_hand
 * @property {number} joker_on_table
 * @property {number} min_natural
 * @property {Record<string, MeldEntry>} melds
 * @property {number[]} sides
 * @property {number} side_count
 * @property {Record<string, SheetTerm[]>} sheets
 * @property {{target: number | null, deal_limit: number, dead_deals: number,
 *   final_bonus: number}} end
 *
 * @typedef {object} PadMeld
 * @property {number} seat
 * @property {string[]} cards pieces: 7h, *=6h (a wild joker), * (a Persian joker)
 *
 * @typedef {object} PadLayoff
 * @property {number} seat
 * @property {number} on the meld, counted from 1
 * @property {string[]} cards
 *
 * @typedef {object} PadDeal
 * @property {number} dealer
 * @property {number | null} went_out
 * @property {PadMeld[]} melds
 * @property {PadLayoff[]} layoffs
 * @property {string[][]} hands
 * @property {(number | null)[]} points
 *
 * @typedef {object} Line
 * @property {number | null} seat
 * @property {number} side
 * @property {string} what
 * @property {number} points
 *
 * @typedef {object} DealScore
 * @property {Line[]} lines
 * @property {number[]} scores per side
 * @property {number[]} melded per seat
 * @property {number[]} inHand per seat
 * @property {string[]} problems what cannot be right, in words
 * @property {(string | null)[]} meldProblems per meld, what is wrong with it
 */

const SUIT_ORDER = 'cdhs';
const RANK_ORDER = 'A23456789TJQK';

/**
 * The face a piece stands for: a wild joker its declared card, a Persian joker `*`.
 * @param {string} piece
 */
export function standsFor(piece) {
  return piece.startsWith('*=') ? piece.slice(2) : piece;
}

/**
 * The physical card of a piece (a joker for a wild joker).
 * @param {string} piece
 */
export function physical(piece) {
  return piece.startsWith('*') ? '*' : piece;
}

/** @param {string} face */
function order(face) {
  if (face === '*') return 999;
  return SUIT_ORDER.indexOf(face[1]) * 16 + RANK_ORDER.indexOf(face[0]) + 1;
}

/**
 * A meld's key in the tables: its faces in face order (as the engine's meld_key).
 * @param {string[]} pieces
 */
export function meldKey(pieces) {
  return pieces.map(standsFor).sort((a, b) => order(a) - order(b)).join(' ');
}

/**
 * Whether some meld of the rules holds every face of `pieces` (so more cards may complete
 * it).
 * @param {Tables} tables
 * @param {string[]} pieces
 */
export function couldGrow(tables, pieces) {
  /** @type {Map<string, number>} */
  const want = new Map();
  for (const piece of pieces) {
    const face = standsFor(piece);
    want.set(face, (want.get(face) || 0) + 1);
  }
  for (const key of Object.keys(tables.melds)) {
    const have = key.split(' ');
    if (have.length < pieces.length) continue;
    let fits = true;
    for (const [face, count] of want) {
      if (have.filter((f) => f === face).length < count) { fits = false; break; }
    }
    if (fits) return true;
  }
  return false;
}

/**
 * @param {string[]} pieces
 * @param {Tables} tables
 */
function jokerProblem(pieces, tables) {
  for (const piece of pieces) {
    if (piece === '*' && tables.jokers === 'wild') return 'say which card the joker stands for';
    if (piece.startsWith('*') && tables.jokers === 'none') return 'there are no jokers in this game';
    if (piece.startsWith('*=') && tables.jokers !== 'wild') {
      return 'jokers are not wild in this game and cannot stand for a card';
    }
  }
  const naturals = pieces.filter((piece) => !piece.startsWith('*=')).length;
  if (tables.jokers === 'wild' && naturals < tables.min_natural) {
    return `a meld needs at least ${tables.min_natural} natural card besides its jokers`;
  }
  return null;
}

/**
 * A meld's cards with their points where they lie: the meld with its lay-offs looked up
 * whole, each card given the points of its place in the key.
 * @param {Tables} tables
 * @param {{seat: number, piece: string, base: boolean}[]} cards
 * @returns {{points: number[], doubled: number} | null}
 */
function meldPoints(tables, cards) {
  const key = meldKey(cards.map((c) => c.piece));
  const entry = tables.melds[key];
  if (!entry) return null;
  const base = cards.filter((c) => c.base);
  const baseEntry = tables.melds[meldKey(base.map((c) => c.piece))];
  const double = base.length === 4 && Boolean(baseEntry && baseEntry.doubles);
  const sorted = cards.map((card, index) => ({ card, index }))
    .sort((a, b) => order(standsFor(a.card.piece)) - order(standsFor(b.card.piece)));
  const points = new Array(cards.length).fill(0);
  let doubled = 0;
  sorted.forEach(({ card, index }, place) => {
    const value = card.piece.startsWith('*=') ? tables.joker_on_table : entry.points[place];
    points[index] = card.base && double ? 2 * value : value;
    if (card.base && double) doubled += value;
  });
  return { points, doubled };
}

/**
 * Where a card is used more often than the packs hold it.
 * @param {Tables} tables
 * @param {PadDeal} deal
 * @param {string[]} names
 */
function copyProblems(tables, deal, names) {
  /** @type {Map<string, number>} */
  const seen = new Map();
  const count = (/** @type {string} */ piece) => {
    const card = physical(piece);
    seen.set(card, (seen.get(card) || 0) + 1);
  };
  deal.melds.forEach((meld) => meld.cards.forEach(count));
  deal.layoffs.forEach((layoff) => layoff.cards.forEach(count));
  deal.hands.forEach((hand) => hand.forEach(count));
  /** @type {string[]} */
  const problems = [];
  for (const [card, times] of seen) {
    const held = tables.copies[card] || 0;
    if (times > held) {
      const what = card === '*' ? 'a joker' : card;
      problems.push(held === 0
        ? `${what}: there is no such card in this game`
        : `${what} is entered ${times} times, and the pack${tables.decks > 1 ? 's hold' : ' holds'} `
          + `it ${held === 1 ? 'once' : `${held} times`}`);
    }
  }
  void names;
  return problems;
}

/**
 * A deal's sheet: its lines, each side's score, and what cannot be right.
 * @param {Tables} tables
 * @param {PadDeal} deal
 * @param {string[]} names
 * @returns {DealScore}
 */
export function scoreDeal(tables, deal, names) {
  const players = tables.players;
  const melded = new Array(players).fill(0);
  const doubled = new Array(players).fill(0);
  const inHand = new Array(players).fill(0);
  const problems = copyProblems(tables, deal, names);
  /** @type {(string | null)[]} */
  const meldProblems = [];
  deal.melds.forEach((meld, index) => {
    const number = index + 1;
    const cards = meld.cards.map((piece) => ({ seat: meld.seat, piece, base: true }));
    const laid = deal.layoffs.filter((layoff) => layoff.on === number);
    for (const layoff of laid) {
      for (const piece of layoff.cards) cards.push({ seat: layoff.seat, piece, base: false });
    }
    const words = meld.cards.join(' ');
    let problem = jokerProblem(meld.cards, tables);
    if (!problem && !tables.melds[meldKey(meld.cards)]) {
      problem = meld.cards.length < 3 ? `${words || 'it'}: a meld needs at least three cards`
        : `${words} is not a meld under these rules`;
    }
    const valued = problem ? null : meldPoints(tables, cards);
    if (!problem && !valued) {
      problem = `the cards laid off (${laid.map((l) => l.cards.join(' ')).join(', ')}) `
        + `do not fit meld ${number} (${words})`;
    }
    meldProblems.push(problem);
    if (problem) {
      problems.push(`meld ${number} by ${names[meld.seat]}: ${problem}`);
      return;
    }
    if (!valued) return;
    cards.forEach((card, i) => { melded[card.seat] += valued.points[i]; });
    doubled[meld.seat] += valued.doubled;
  });
  deal.hands.forEach((hand, seat) => {
    for (const piece of hand) inHand[seat] += tables.in_hand[physical(piece)] || 0;
  });
  deal.points.forEach((points, seat) => {
    if (points !== null && points !== undefined) {
      melded[seat] = points;
      inHand[seat] = 0;
      doubled[seat] = 0;
    }
  });
  if (deal.went_out !== null && deal.hands[deal.went_out] && deal.hands[deal.went_out].length) {
    problems.push(`${names[deal.went_out]} went out, so holds no cards`);
  }
  const terms = tables.sheets[deal.went_out === null ? 'none' : String(deal.went_out)] || [];
  /** @type {Line[]} */
  const lines = [];
  for (const term of terms) {
    let points = term.points ?? 0;
    if (term.from !== undefined && term.of !== undefined) {
      points = (term.sign ?? 1) * (term.from === 'on_table' ? melded[term.of] : inHand[term.of]);
    }
    if (term.what === 'on_table' && term.seat !== null && doubled[term.seat]) {
      lines.push({ seat: term.seat, side: term.side, what: 'on_table', points: points - doubled[term.seat] });
      lines.push({ seat: term.seat, side: term.side, what: 'doubled', points: doubled[term.seat] });
    } else {
      lines.push({ seat: term.seat, side: term.side, what: term.what, points });
    }
  }
  const scores = new Array(tables.side_count).fill(0);
  for (const line of lines) scores[line.side] += line.points;
  return { lines, scores, melded, inHand, problems, meldProblems };
}

/**
 * The game so far: each deal's score, the totals after each, whether the game is over and
 * who won (the end's numbers from the tables: a side alone at the target, the last deal, or
 * dead deals in a row).
 * @param {Tables} tables
 * @param {PadDeal[]} deals
 * @param {string[]} names
 */
export function scoreGame(tables, deals, names) {
  const totals = new Array(tables.side_count).fill(0);
  /** @type {{score: DealScore, totalsAfter: number[]}[]} */
  const sheets = [];
  let over = false;
  /** @type {number | null} */
  let winner = null;
  let dead = 0;
  for (const deal of deals) {
    const score = scoreDeal(tables, deal, names);
    score.scores.forEach((points, side) => { totals[side] += points; });
    dead = deal.went_out === null && deal.melds.length === 0 ? dead + 1 : 0;
    sheets.push({ score, totalsAfter: [...totals] });
    const end = gameEnd(tables, totals, sheets.length, dead);
    if (end.over) {
      over = true;
      winner = end.winner;
      if (winner !== null && tables.end.final_bonus) {
        totals[winner] += tables.end.final_bonus;
        score.lines.push({ seat: null, side: winner, what: 'game_bonus', points: tables.end.final_bonus });
        score.scores[winner] += tables.end.final_bonus;
        sheets[sheets.length - 1].totalsAfter = [...totals];
      }
      break;
    }
  }
  return { sheets, totals, over, winner, played: sheets.length };
}

/**
 * @param {Tables} tables
 * @param {number[]} totals
 * @param {number} played
 * @param {number} dead
 * @returns {{over: boolean, winner: number | null}}
 */
function gameEnd(tables, totals, played, dead) {
  const best = Math.max(...totals);
  const leaders = totals.flatMap((total, side) => (total === best ? [side] : []));
  const target = tables.end.target;
  if (target !== null && best >= target && leaders.length === 1) return { over: true, winner: leaders[0] };
  if (played >= tables.end.deal_limit || dead >= tables.end.dead_deals) {
    return { over: true, winner: leaders.length === 1 ? leaders[0] : null };
  }
  return { over: false, winner: null };
}
