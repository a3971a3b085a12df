import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderResultsPage } from '../../bench/results-page.ts';

const run = { date: '2026-12-02T04:00:00.000Z', command: 'npm run bench -- --only cold', lines: ['a  ', 'b'] };

describe('renderResultsPage', () => {
  it('replaces what is between the markers with the run, and keeps the page around them', () => {
    const page = '# R\n\nintro\n\n<!-- bench:start -->\nold numbers\n<!-- bench:end -->\n\nafter\n';
    expect(renderResultsPage(page, run)).toBe(
      '# R\n\nintro\n\n<!-- bench:start -->\nWritten by `npm run bench -- --only cold` on 2026-12-02T04:00:00.000Z.\n\n```text\na\nb\n```\n<!-- bench:end -->\n\nafter\n',
    );
  });

  it('replaces only the section named, leaving the other report as it was', () => {
    const page =
      '<!-- bench:start -->\nbench\n<!-- bench:end -->\n<!-- before-after:start -->\nstale numbers\n<!-- before-after:end -->\n';
    const next = renderResultsPage(page, run, 'before-after');
    expect(
      next.startsWith('<!-- bench:start -->\nbench\n<!-- bench:end -->\n<!-- before-after:start -->\nWritten by'),
    ).toBe(true);
    expect(next).not.toContain('stale numbers');
  });

  it('refuses a page without its markers, saying how to fix it', () => {
    expect(() => renderResultsPage('# R\n', run)).toThrow(/lost its <!-- bench:start --> … <!-- bench:end --> markers/);
  });

  // The bench writes the page at its very end: a page it cannot rewrite would waste the whole run.
  it('finds the markers in docs/bench-results.md', async () => {
    const page = await readFile(join(import.meta.dirname, '..', '..', 'docs', 'bench-results.md'), 'utf8');
    expect(() => renderResultsPage(page, run)).not.toThrow();
    expect(() => renderResultsPage(page, run, 'before-after')).not.toThrow();
  });
});
