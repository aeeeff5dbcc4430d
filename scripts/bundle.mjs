// Builds the pages' scripts: each page's modules (src/rummy500/web/static/js) bundled by
// esbuild into one minified file under static/dist, with a source map that points back at the
// modules (which the server also serves), so that a page loads one script where it loaded
// dozens. The bundles are committed beside their modules (the server needs no Node.js), and a
// test builds them again and fails when they differ: run `npm run bundle` after changing a
// module. An argument names another folder to build into (the test's).
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const STATIC = join(ROOT, 'src/rummy500/web/static');
/** The pages' entry modules: table.html, index.html (lobby), replay.html (settings, replay),
 * pad.html (pad/pad.js, written as dist/pad.js), /learn (table.html's markup with learn.js). */
const ENTRIES = ['table', 'lobby', 'replay', 'settings', 'learn', 'pad/pad'];

const outdir = resolve(process.argv[2] || join(STATIC, 'dist'));
mkdirSync(outdir, { recursive: true });
for (const name of readdirSync(outdir)) rmSync(join(outdir, name));

const built = await build({
  absWorkingDir: ROOT,
  entryPoints: ENTRIES.map((name) => join(STATIC, 'js', `${name}.js`)),
  outdir,
  bundle: true,
  format: 'esm',
  target: 'es2022',
  minify: true,
  charset: 'utf8',
  legalComments: 'none',
  sourcemap: 'linked',
  sourcesContent: false,
  logLevel: 'warning',
  write: false,
});

// The maps name the modules by their addresses on the server (/static/js/...), not by where
// this build ran, so that a build anywhere gives the same files.
for (const file of built.outputFiles) {
  let text = file.text;
  if (file.path.endsWith('.map')) {
    const map = JSON.parse(text);
    map.sources = map.sources.map(
      (/** @type {string} */ source) => relative(join(STATIC, 'js'), resolve(dirname(file.path), source)));
    map.sourceRoot = '/static/js/';
    text = `${JSON.stringify(map)}\n`;
  }
  writeFileSync(join(outdir, basename(file.path)), text);
}
