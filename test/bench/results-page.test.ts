import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mergeBenchBlocks, renderResultsPage } from '../../bench/results-page.ts';

const run = { date: '2026-12-02T04:00:00.000Z', command: 'npm run bench:before-after', lines: ['a  ', 'b'] };
const ORDER = ['cold', 'stage', 'watch', 'proxy'] as const;
const benchRun = (...names: string[]) => ({
  date: '2026-12-02T12:00:00.000Z',
  command: `npm run bench -- --only ${names.join(',')}`,
  machine: '2 × CPU',
  blocks: names.map((name) => ({ name, lines: [`${name} details  `, '', `  ${name} target  PASS`, ''] })),
});
// A bench section as an earlier run left it: a block by hand, a block a run wrote, text before them.
const PAGE = [
  '# R',
  '',
  '<!-- bench:start -->',
  'Each block says when it was measured.',
  '',
  '<!-- bench:cold -->',
  '## Cold run',
  '',
  '| by hand | 0.83 |',
  '',
  '<!-- bench:watch -->',
  '## watch',
  '',
  'Written by `npm run bench -- --only watch` on 2026-12-01T00:00:00.000Z. Machine: old.',
  '',
  '```text',
  'old watch',
  '```',
  '<!-- bench:end -->',
  '',
  'after',
  '',
].join('\n');

describe('renderResultsPage', () => {
  it('replaces only the section named, with the run, leaving the page and the other report as they were', () => {
    const page =
      '# R\n\n<!-- bench:start -->\nbench\n<!-- bench:end -->\n<!-- before-after:start -->\nstale\n<!-- before-after:end -->\n';
    expect(renderResultsPage(page, run, 'before-after')).toBe(
      '# R\n\n<!-- bench:start -->\nbench\n<!-- bench:end -->\n<!-- before-after:start -->\nWritten by `npm run bench:before-after` on 2026-12-02T04:00:00.000Z.\n\n```text\na\nb\n```\n<!-- before-after:end -->\n',
    );
  });

  it('refuses a page without its markers, saying how to fix it', () => {
    expect(() => renderResultsPage('# R\n', run, 'bench')).toThrow(
      /lost its <!-- bench:start --> … <!-- bench:end --> markers/,
    );
  });
});

describe('mergeBenchBlocks', () => {
  it('replaces the blocks of the benches run and keeps every other block byte for byte', () => {
    const next = mergeBenchBlocks(PAGE, benchRun('watch'), ORDER);
    expect(next).toBe(
      [
        ...PAGE.split('\n').slice(0, 10),
        '<!-- bench:watch -->',
        '## watch',
        '',
        'Written by `npm run bench -- --only watch` on 2026-12-02T12:00:00.000Z. Machine: 2 × CPU.',
        '',
        '```text',
        'watch details',
        '',
        '  watch target  PASS',
        '```',
        '<!-- bench:end -->',
        '',
        'after',
        '',
      ].join('\n'),
    );
  });

  it('adds a bench not on the page yet at its place in the order, each block saying which run wrote it', () => {
    const next = mergeBenchBlocks(PAGE, benchRun('stage', 'proxy'), ORDER);
    const markers = [...next.matchAll(/<!-- bench:([a-z-]+) -->/g)].map((m) => m[1]);
    expect(markers).toEqual(['start', 'cold', 'stage', 'watch', 'proxy', 'end']);
    expect(next).toContain('| by hand | 0.83 |');
    expect(next).toContain('on 2026-12-01T00:00:00.000Z. Machine: old.\n\n```text\nold watch\n```');
    expect(next.match(/--only stage,proxy` on 2026-12-02T12:00:00\.000Z/g)).toHaveLength(2);
  });

  it('keeps the text before the first block, and a block of a bench no longer in the order, after the others', () => {
    const next = mergeBenchBlocks(PAGE, benchRun('cold'), ['watch', 'cold']);
    expect(next).toContain('<!-- bench:start -->\nEach block says when it was measured.\n\n<!-- bench:watch -->');
    const renamed = mergeBenchBlocks(PAGE, benchRun('cold'), ['cold']);
    expect([...renamed.matchAll(/<!-- bench:([a-z-]+) -->/g)].map((m) => m[1])).toEqual([
      'start',
      'cold',
      'watch',
      'end',
    ]);
  });

  it('is stable: merging the same run again gives the same page', () => {
    const once = mergeBenchBlocks(PAGE, benchRun('cold', 'watch'), ORDER);
    expect(mergeBenchBlocks(once, benchRun('cold', 'watch'), ORDER)).toBe(once);
  });
});

// The bench writes the page at its very end: a page it cannot rewrite would waste the whole run.
describe('docs/bench-results.md', () => {
  it('has both sections, and a run of one bench keeps the blocks of the others', async () => {
    const page = await readFile(join(import.meta.dirname, '..', '..', 'docs', 'bench-results.md'), 'utf8');
    expect(() => renderResultsPage(page, run, 'before-after')).not.toThrow();
    const blocks = (text: string) => [...text.matchAll(/<!-- bench:([a-z-]+) -->\n([\s\S]*?)(?=\n<!-- bench:)/g)];
    const next = mergeBenchBlocks(page, benchRun('cold'), ['cold', 'watch']);
    const kept = blocks(page).filter((m) => m[1] !== 'cold' && m[1] !== 'start');
    expect(kept.length).toBeGreaterThan(3);
    for (const [, name, text] of kept) expect(next, name).toContain(`<!-- bench:${name} -->\n${text}`);
  });
});
