// Scores pads with the pad page's own modules (js/pad/model.js reads the file, js/pad/score.js
// scores it with the engine's tables), for tests/test_pad_page.py to compare with the engine.
// Reads [{tables, pad}] as JSON from the file named by the first argument and prints
// [{totals, over, winner, scores: [[per side] per deal], problems: [...]}].

import { readFileSync } from 'node:fs';

import { fromFile } from '../../src/rummy500/web/static/js/pad/model.js';
import { scoreGame } from '../../src/rummy500/web/static/js/pad/score.js';

const cases = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const answers = cases.map((/** @type {any} */ { tables, pad }) => {
  const read = fromFile(pad);
  const game = scoreGame(tables, read.deals, read.players);
  return {
    totals: game.totals, over: game.over, winner: game.winner,
    scores: game.sheets.map((sheet) => sheet.score.scores),
    lines: game.sheets.map((sheet) => sheet.score.lines.map((line) => [line.seat, line.what, line.points])),
    problems: game.sheets.flatMap((sheet) => sheet.score.problems),
  };
});
process.stdout.write(JSON.stringify(answers));
