// docs/bench-results.md from a bench run, so that the page a reader finds holds the last numbers of each bench. The
// text around the markers is the page's own. Each report has markers of its own: `bench` (npm run bench) and
// `before-after` (bench/before-after.ts). The bench's section is made of one block per bench (`cold`, `watch`…),
// each saying which run wrote it and when: a run with `--only` replaces the blocks of the benches it ran and keeps
// the others as they were, so a quick look at one bench never loses the rest.
import { readFile, rename, writeFile } from 'node:fs/promises';

// A report of the page, by the name in its markers.
export type ResultsSection = 'bench' | 'before-after';

// What a run wrote: when, the command that ran it, and what it printed.
export type ResultsRun = { date: string; command: string; lines: string[] };

// One bench's part of a run: its name (as `--only` names it) and the lines it printed.
export type BenchBlock = { name: string; lines: string[] };

// A bench run for the page: the run, the machine it ran on, and the block of each bench it ran.
export type BenchRun = { date: string; command: string; machine: string; blocks: BenchBlock[] };

// The page with `section`'s part replaced whole by this run's report (the before-after one; a pure function).
export function renderResultsPage(page: string, run: ResultsRun, section: ResultsSection): string {
  const { head, tail } = splitSection(page, section);
  return `${head}\n${[writtenBy(run), '', ...textBlock(run.lines)].join('\n')}\n${tail}`;
}

// The page with the blocks of the benches this run ran replaced (or added), every other block kept byte for byte,
// the blocks in `order` (the bench's own order of its benches; a block of a bench not in it, one since renamed,
// stays, after them). What precedes the first block is the page's own text and stays too.
export function mergeBenchBlocks(page: string, run: BenchRun, order: readonly string[]): string {
  const { head, body, tail } = splitSection(page, 'bench');
  const { prefix, blocks } = parseBlocks(body);
  for (const block of run.blocks) blocks.set(block.name, renderBlock(block, run));
  const rank = (name: string): number => (order.includes(name) ? order.indexOf(name) : order.length);
  const names = [...blocks.keys()].sort((a, b) => rank(a) - rank(b));
  const parts = [prefix, ...names.map((name) => `${blockMarker(name)}\n${blocks.get(name)}`)].filter((p) => p !== '');
  return `${head}\n${parts.join('\n\n')}\n${tail}`;
}

// Rewrites the page whole with what `render` makes of it (a temp file, then a rename), so an interrupted bench
// leaves the old page.
export async function writeResultsPage(path: string, render: (page: string) => string): Promise<void> {
  const next = render(await readFile(path, 'utf8'));
  await writeFile(`${path}.tmp`, next);
  await rename(`${path}.tmp`, path);
}

// The page up to and including `section`'s start marker, what is between its markers, and the rest from its end
// marker on.
function splitSection(page: string, section: ResultsSection): { head: string; body: string; tail: string } {
  const [START, END] = [`<!-- ${section}:start -->`, `<!-- ${section}:end -->`];
  const from = page.indexOf(START);
  const to = page.indexOf(END);
  if (from === -1 || to < from)
    throw new Error(`bench: docs/bench-results.md has lost its ${START} … ${END} markers; put them back`);
  return { head: page.slice(0, from + START.length), body: page.slice(from + START.length, to), tail: page.slice(to) };
}

// A block's marker line: `<!-- bench:<name> -->`, the block running to the next marker.
const blockMarker = (name: string): string => `<!-- bench:${name} -->`;
const BLOCK_MARKER = /^<!-- bench:([a-z0-9-]+) -->$/gm;

// The bench section's text before its first block, and each block's text (without its marker, trimmed) by name.
function parseBlocks(body: string): { prefix: string; blocks: Map<string, string> } {
  const markers = [...body.matchAll(BLOCK_MARKER)];
  const blocks = new Map<string, string>();
  markers.forEach((m, i) => {
    const end = markers[i + 1]?.index ?? body.length;
    blocks.set(m[1] as string, body.slice(m.index + m[0].length, end).trim());
  });
  return { prefix: body.slice(0, markers[0]?.index ?? body.length).trim(), blocks };
}

// A bench's block: its name as a heading, which run wrote it, and what it printed.
function renderBlock(block: BenchBlock, run: BenchRun): string {
  const lines = [...block.lines];
  while (lines.at(-1)?.trim() === '') lines.pop();
  return [`## ${block.name}`, '', `${writtenBy(run)} Machine: ${run.machine}.`, '', ...textBlock(lines)].join('\n');
}

const writtenBy = (run: { command: string; date: string }): string => `Written by \`${run.command}\` on ${run.date}.`;

const textBlock = (lines: string[]): string[] => ['```text', ...lines.map((line) => line.trimEnd()), '```'];
