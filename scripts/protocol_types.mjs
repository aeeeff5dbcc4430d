// Makes the browser's types of the protocol from the server's: the JSON Schema of the
// state and frames is written from the Python types (python -m rummy500.web.protocol_schema), then
// turned into TypeScript declarations (json-schema-to-typescript) that protocol.js imports,
// so `tsc --checkJs` checks the pages against what the server sends. Both files are
// committed; a test makes them again and fails when they differ: run `npm run types` after
// changing the types of rummy500.session.seat_state or rummy500.web.protocol_schema.
//
// node scripts/protocol_types.mjs [--no-python] [OUT]: --no-python reads the committed
// schema as it is; OUT names a .d.ts to write in place of the committed one (the test's).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compile } from 'json-schema-to-typescript';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const JS = join(ROOT, 'src/rummy500/web/static/js');
export const SCHEMA = join(JS, 'protocol.schema.json');
export const TYPES = join(JS, 'protocol-types.d.ts');

const BANNER = `// The types of the protocol's state and frames (docs/protocol.md, version 3), made by
// \`npm run types\` from protocol.schema.json, itself made from the server's Python types
// (rummy500.web.protocol_schema): do not edit; protocol.js names them for the pages.`;

/**
 * The declarations of a schema: its root's type, then one for each of its definitions (each
 * made alone, naming the others), in the schema's order.
 * @param {{ definitions: Record<string, object> }} schema
 * @returns {Promise<string>}
 */
export async function declarations(schema) {
  const options = {
    bannerComment: '',
    additionalProperties: false,
    declareExternallyReferenced: false,
    strictIndexSignatures: true,
    format: true,
    style: { singleQuote: true, printWidth: 100 },
  };
  const { definitions, ...root } = schema;
  const parts = [await compile(/** @type {any} */ ({ ...root, definitions }), 'ProtocolFrame', options)];
  for (const [name, part] of Object.entries(definitions)) {
    parts.push(await compile(/** @type {any} */ ({ ...part, definitions }), name, options));
  }
  return `${BANNER}\n\n${parts.map((part) => part.trim()).join('\n\n')}\n`;
}

async function main() {
  const args = process.argv.slice(2);
  if (!args.includes('--no-python')) {
    const venv = join(ROOT, '.venv/bin/python');
    const python = process.env.PYTHON || (existsSync(venv) ? venv : 'python3');
    execFileSync(python, ['-m', 'rummy500.web.protocol_schema', SCHEMA], { cwd: ROOT, stdio: 'inherit' });
  }
  const out = args.find((arg) => !arg.startsWith('--')) || TYPES;
  writeFileSync(out, await declarations(JSON.parse(readFileSync(SCHEMA, 'utf8'))));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
