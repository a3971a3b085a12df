// docs/bench-results.md from a bench run: what the run printed, between the page's markers, so that the page a
// reader finds holds the numbers of the last run and nothing older. The text around the markers is the page's own.
// Each report has markers of its own: `bench` (npm run bench) and `before-after` (bench/before-after.ts).
import { readFile, rename, writeFile } from 'node:fs/promises';

// A report of the page, by the name in its markers.
export type ResultsSection = 'bench' | 'before-after';

// The page with its measured part replaced by this run's report (a pure function, for its test).
export function renderResultsPage(
  page: string,
  run: { date: string; command: string; lines: string[] },
  section: ResultsSection = 'bench',
): string {
  const [START, END] = [`<!-- ${section}:start -->`, `<!-- ${section}:end -->`];
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
  section: ResultsSection = 'bench',
): Promise<void> {
  const next = renderResultsPage(await readFile(path, 'utf8'), run, section);
  await writeFile(`${path}.tmp`, next);
  await rename(`${path}.tmp`, path);
}
