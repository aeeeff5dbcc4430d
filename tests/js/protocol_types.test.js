// The browser's types of the protocol (src/rummy500/web/static/js/protocol-types.d.ts) are
// what `npm run types` makes of the committed schema (protocol.schema.json, which
// tests/test_protocol_schema.py holds to the server's Python types): declarations edited by
// hand, or a schema changed without making them again, fail here.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

const ROOT = new URL('../../', import.meta.url).pathname;
const JS = join(ROOT, 'src/rummy500/web/static/js');

test('the committed declarations are made from the committed schema', () => {
  const fresh = mkdtempSync(join(tmpdir(), 'rummy500-types-'));
  try {
    const out = join(fresh, 'protocol-types.d.ts');
    execFileSync(process.execPath, [join(ROOT, 'scripts/protocol_types.mjs'), '--no-python', out]);
    assert.equal(readFileSync(join(JS, 'protocol-types.d.ts'), 'utf8'), readFileSync(out, 'utf8'),
      'protocol-types.d.ts is not made from protocol.schema.json: run npm run types');
  } finally {
    rmSync(fresh, { recursive: true, force: true });
  }
});

test('protocol.js names the state and its parts from the declarations, not by hand', () => {
  const text = readFileSync(join(JS, 'protocol.js'), 'utf8');
  const declared = readFileSync(join(JS, 'protocol-types.d.ts'), 'utf8');
  for (const [name, made] of [['SeatEntry', 'SeatInfo'], ['Meld', 'TableMeld'],
    ['SheetLine', 'SheetLine'], ['DealResult', 'DealSheet'], ['HistoryEntry', 'HistoryEntry'],
    ['ChatLine', 'ChatLine'], ['TableState', 'SeatState']]) {
    assert.match(text, new RegExp(`@typedef \\{import\\('./protocol-types'\\)\\.${made}\\b.*\\} ${name}\\b`), name);
    assert.match(declared, new RegExp(`export interface ${made} \\{`), made);
  }
  assert.doesNotMatch(text, /@property \{[^}]*\} \[?standin/, 'the seat is typed by hand again');
});
