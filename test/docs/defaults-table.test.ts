// Every default and limit is written once, in its constant: the --help text and docs/commands.md's table are made
// from it, and every other sentence of the docs that states the case timeout is checked against it. Changing
// DEFAULT_CASE_TIMEOUT_MS is one line; this test then names what to regenerate or reword, so nothing goes stale
// silently.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ROWS, renderDefaultsTable } from '../../src/cli/defaults-table.ts';
import { DEFAULT_CASE_TIMEOUT_MS } from '../../src/grade/run/case-timeout.ts';
import { DEFAULT_MEMORY_MIB, MIN_MEMORY_MIB } from '../../src/grade/run/isolation/program-limits.ts';
import { cliInProcess } from '../support/cli-in-process.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const commandsPage = await readFile(join(ROOT, 'docs', 'commands.md'), 'utf8');

// The table as the page holds it, and a row's value by the start of its "what".
const table = /<!-- defaults:start -->\n([\s\S]*?)\n<!-- defaults:end -->/.exec(commandsPage)?.[1] ?? '';
function tableValue(what: string): string {
  const row = table.split('\n').find((line) => line.startsWith(`| ${what}`));
  return row?.split(' | ')[2] ?? '';
}
// "10,000 ms (10 s)" → 10000; "1,024 MiB (1 GiB), at least 256 MiB" → [1024, 256].
const numbers = (text: string): number[] =>
  [...text.matchAll(/(\d[\d,]*) (?:ms|MiB)/g)].map((m) => Number(m[1]?.replaceAll(',', '')));

// A help text with its line wrapping undone.
async function help(command: string): Promise<string> {
  const { stdout } = await cliInProcess([command, '--help'], ROOT);
  return stdout.replace(/\s+/g, ' ');
}

describe('the defaults and limits', () => {
  it('docs/commands.md holds the table the constants give (else: npm run docs:defaults)', () => {
    expect(table, 'docs/commands.md is stale: run `npm run docs:defaults` and commit it').toBe(renderDefaultsTable());
  });

  it('--help, the docs table and the code agree on the case timeout', async () => {
    const shown = /--timeout <ms> [^(]*\(default: (\d+)\)/.exec(await help('test'))?.[1];
    expect(Number(shown)).toBe(DEFAULT_CASE_TIMEOUT_MS);
    expect(numbers(tableValue('case timeout'))).toEqual([DEFAULT_CASE_TIMEOUT_MS]);
  });

  it('--help, the docs table and the code agree on --memory', async () => {
    const shown = /--memory <MiB> [^(]*\(default: (\d+), at least (\d+)\)/.exec(await help('test'));
    expect([Number(shown?.[1]), Number(shown?.[2])]).toEqual([DEFAULT_MEMORY_MIB, MIN_MEMORY_MIB]);
    expect(numbers(tableValue('memory of a program process'))).toEqual([DEFAULT_MEMORY_MIB, MIN_MEMORY_MIB]);
  });

  it('names the constant of every row, so a reader finds the one line to change', () => {
    for (const row of DEFAULT_ROWS) expect(row.source).toMatch(/`[A-Z_]+`.*src\/[\w/-]+\.ts/);
  });

  // The docs quote verdicts ("did not return within 10 s") and speak of the case's time in seconds: each such
  // number must be the timeout's.
  it('every sentence of the docs that states the case timeout states the current one', async () => {
    const seconds = DEFAULT_CASE_TIMEOUT_MS / 1000;
    const pages = (await readdir(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })).filter((p) =>
      p.endsWith('.md'),
    );
    const stale: string[] = [];
    for (const page of ['README.md', ...pages.map((p) => join('docs', p))]) {
      const text = await readFile(join(ROOT, page), 'utf8');
      for (const [n, line] of text.split('\n').entries()) {
        for (const m of line.matchAll(/(?:within|timeout of|case timeout \(|case's) (\d+(?:\.\d+)?) s\b/g)) {
          if (Number(m[1]) !== seconds) stale.push(`${page}:${n + 1}: "${m[0]}" (the case timeout is ${seconds} s)`);
        }
      }
    }
    expect(stale).toEqual([]);
  });
});
