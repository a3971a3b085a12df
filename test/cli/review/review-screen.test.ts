// What the review prints, cut to the terminal: lines never wider than it, a pending snapshot never taller.
import { describe, expect, it } from 'vitest';
import { cut, renderItem, renderMenu, renderSummary, type ReviewItem } from '../../../src/cli/review/review-screen.ts';
import { formatSnapshot } from '../../../src/course/snapshot-file.ts';

const long = (n: number) => Array.from({ length: n }, (_, k) => `line ${k} ${'x'.repeat(100)}`).join('\n');
const item: ReviewItem = {
  stage: 'demo',
  name: 'a',
  description: `A case that proves one thing, in words long enough to wrap twice and more: ${'word '.repeat(40)}`,
  calls: Array.from({ length: 9 }, (_, k) => ({ tool: 'Bash', input: { command: `echo ${k} ${'y'.repeat(120)}` } })),
  before: formatSnapshot({ results: [{ content: 'short' }] }),
  after: formatSnapshot({ results: [{ content: long(60) }] }),
  drift: { kind: 'wording', calls: [{ index: 0, kind: 'wording', what: '"content" worded otherwise' }] },
};
const visible = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');

describe('renderItem', () => {
  it.each([
    [80, 24],
    [40, 12],
    [120, 50],
  ])('fits a %i×%i terminal with the menu, cutting the diff and saying so', (columns, rows) => {
    for (const color of [false, true]) {
      const text = visible(renderItem(item, { index: 0, total: 2 }, { columns, rows, color }));
      const lines = text.replace(/\n$/, '').split('\n');
      expect(lines.length).toBeLessThanOrEqual(rows - 2);
      expect(Math.max(...lines.map((l) => [...l].length))).toBeLessThanOrEqual(columns);
      expect(text).toMatch(/^ {2}… \d+ more lines/m);
    }
  });

  it('cuts nothing without a terminal size, or for the whole diff', () => {
    for (const text of [
      renderItem(item, { index: 0, total: 1 }, { color: false }),
      renderItem(item, { index: 0, total: 1 }, { columns: 80, rows: 24, color: false }, true),
    ]) {
      expect(text).toContain(`line 59 ${'x'.repeat(100)}`);
    }
  });

  it('shows the case, at most four calls, and the drift of each changed call', () => {
    const text = renderItem(item, { index: 1, total: 3 }, { color: false });
    expect(text.split('\n').slice(0, 1)).toEqual(['── 2 of 3 · demo/a · changed · wording only ──']);
    expect(text).toContain('calls (9):\n  1. Bash {"command":"echo 0 ');
    expect(text).toContain('\n  … 6 more\ndrift: wording only\n  call 1 (Bash): "content" worded otherwise\n');
  });

  it('shows a new snapshot as all added', () => {
    const text = renderItem({ ...item, before: null, drift: undefined }, { index: 0, total: 1 }, { color: false });
    expect(text).toContain('── 1 of 1 · demo/a · new ──');
    expect(text).toContain('\n+ [\n+   {\n');
  });
});

describe('cut', () => {
  it.each([
    ['short', 10, 'short'],
    ['exactly ten', 11, 'exactly ten'],
    ['one too many', 11, 'one too ma…'],
    ['\u001b[31mred text here\u001b[39m', 5, '\u001b[31mred …\u001b[0m'],
    ['\u001b[2mdim\u001b[22m', 3, '\u001b[2mdim\u001b[22m'],
  ])('%j to %i columns', (line, width, expected) => {
    expect(cut(line, width)).toBe(expected);
  });
});

describe('renderMenu and renderSummary', () => {
  it('keeps the menu on one 80-column line, the answer after it on a terminal', () => {
    const menu = renderMenu({ tty: true, columns: 80, rows: 24, color: false });
    expect(menu).toBe('a/Enter accept · r reject · s skip · A/R/S all left · d whole diff · q quit › ');
    expect(renderMenu({ tty: false, color: false }).endsWith(' ›\n')).toBe(true);
  });

  it('says what was decided and how to go on', () => {
    expect(renderSummary({ a: 'accepted', b: 'skipped' }, ['b'], 'demo', 2)).toBe(
      '\nReviewed 2 pending snapshots of demo: 1 accepted, 0 rejected, 1 skipped.\nStill pending: b. `npx theinference snapshot --stage demo --review` goes on with them.\n',
    );
    expect(renderSummary({}, [], 'demo', 0)).toMatch(/^No pending snapshots in snapshots\/demo\//);
  });
});
