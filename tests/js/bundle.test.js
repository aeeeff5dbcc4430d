// The pages' bundles (src/rummy500/web/static/dist) are what `npm run bundle` makes of the
// modules today: a module changed without building again fails here.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

const ROOT = new URL('../../', import.meta.url).pathname;
const DIST = join(ROOT, 'src/rummy500/web/static/dist');
const PAGES = ['table.html', 'index.html', 'replay.html', 'pad.html'];

test('the committed bundles are the build of the modules as they are', () => {
  const fresh = mkdtempSync(join(tmpdir(), 'rummy500-bundle-'));
  try {
    execFileSync(process.execPath, [join(ROOT, 'scripts/bundle.mjs'), fresh]);
    assert.deepEqual(readdirSync(DIST).sort(), readdirSync(fresh).sort());
    for (const name of readdirSync(fresh)) {
      assert.ok(readFileSync(join(DIST, name)).equals(readFileSync(join(fresh, name))),
        `${name} is not the build of today's modules: run npm run bundle`);
    }
  } finally {
    rmSync(fresh, { recursive: true, force: true });
  }
});

test('every page loads bundles only, and every bundle is loaded by a page', () => {
  const loaded = new Set();
  for (const page of PAGES) {
    const html = readFileSync(join(ROOT, 'src/rummy500/web/static', page), 'utf8');
    const scripts = [...html.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]);
    assert.ok(scripts.length, page);
    for (const src of scripts) {
      assert.match(src, /^\/static\/dist\/[a-z]+\.js$/, `${page} loads ${src}`);
      loaded.add(src.slice('/static/dist/'.length));
    }
  }
  // The guided first game (/learn) is table.html with learn.js for table.js (web/pages.py).
  loaded.add('learn.js');
  assert.deepEqual([...loaded].sort(), readdirSync(DIST).filter((n) => n.endsWith('.js')).sort());
});

test('a bundle imports nothing (one request a script) and its map names the served modules', () => {
  for (const name of readdirSync(DIST).filter((n) => n.endsWith('.js'))) {
    const text = readFileSync(join(DIST, name), 'utf8');
    assert.doesNotMatch(text, /\bfrom\s*["']\.{1,2}\//, name);
    assert.match(text, new RegExp(`//# sourceMappingURL=${name}\\.map\\n$`));
    const map = JSON.parse(readFileSync(join(DIST, `${name}.map`), 'utf8'));
    assert.equal(map.sourceRoot, '/static/js/');
    for (const source of map.sources) {
      assert.ok(readFileSync(join(ROOT, 'src/rummy500/web/static/js', source)), source);
    }
  }
});
