// docs/bench-results.md from a bench run: what the run printed, between the page's markers, so that the page a
// reader finds holds the numbers of the last run and nothing older. The text around the markers is the page's own.
import { readFile, rename, writeFile } from 'node:fs/promises';

const START = '<!-- bench:start -->';
const END = '<!-- bench:end -->';

// The page with its measured part replaced by this run's report (a pure function, for its test).
export function renderResultsPage(page: string, run: { date: string; command: string; lines: string[] }): string {
  const from = page.indexOf(START);
  const to = page.indexOf(END);
  if (from === -1 || to < from)
    throw new Error(`bench: docs/bench-results.md has lost its ${START} … ${END} markers; put them back`);
  const body = [
    `Written by \`${run.command}\` on ${run.date}.`,
    '',
    '```text',
    ...run.lines.map((line) => line.trimEnd()),
    '```',
  ].join('\n');
  return `${page.slice(0, from + START.length)}\n${body}\n${page.slice(to)}`;
}

// Rewrites the page whole (a temp file, then a rename), so an interrupted bench leaves the old page.
export async function writeResultsPage(
  path: string,
  run: { date: string; command: string; lines: string[] },
): Promise<void> {
  const next = renderResultsPage(await readFile(path, 'utf8'), run);
  await writeFile(`${path}.tmp`, next);
  await rename(`${path}.tmp`, path);
}
