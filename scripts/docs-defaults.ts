// `npm run docs:defaults`: writes docs/commands.md's table of defaults and limits from the constants in src/
// (src/cli/defaults-table.ts), whole or not at all. test/docs/defaults-table.test.ts fails until it has run.
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULTS_END, DEFAULTS_START, withDefaultsTable } from '../src/cli/defaults-table.ts';

const page = join(import.meta.dirname, '..', 'docs', 'commands.md');
const next = withDefaultsTable(await readFile(page, 'utf8'));
if (next === undefined) {
  process.stderr.write(`docs/commands.md has lost its ${DEFAULTS_START} … ${DEFAULTS_END} markers: put them back\n`);
  process.exit(1);
}
await writeFile(`${page}.tmp`, next);
await rename(`${page}.tmp`, page);
process.stdout.write('docs/commands.md: the table of defaults and limits is written from src/\n');
