import { describe, expect, it } from 'vitest';
import {
  describeReason,
  renderComparison,
  renderHeader,
  renderMenu,
  renderMessage,
  renderProgress,
  renderPrompt,
} from '../../../src/cli/watch/screen.ts';
import type { Comparison } from '../../../src/cli/watch/verdict.ts';
import type { RunReason } from '../../../src/cli/watch/watch-loop.ts';

const plain = { tty: false, color: false };
const tty = { tty: true, color: false };
const at = new Date(2025, 0, 2, 9, 5, 7);

describe('describeReason', () => {
  it.each<[RunReason, string]>([
    [{ kind: 'start' }, 'watch mode started'],
    [{ kind: 'files', paths: ['src/execute.ts'] }, 'src/execute.ts changed'],
    [{ kind: 'files', paths: ['src/execute.ts', 'program.ts'] }, 'src/execute.ts and 1 more file changed'],
    [{ kind: 'files', paths: ['src/a.ts', 'src/b.ts', 'src/c.ts'] }, 'src/a.ts and 2 more files changed'],
    [{ kind: 'run-all' }, 'a: re-running all cases'],
    [{ kind: 'run-failed', count: 1 }, 'f: re-running 1 failed case'],
    [{ kind: 'run-failed', count: 3 }, 'f: re-running 3 failed cases'],
    [{ kind: 'filter', filter: 'read' }, 'filter "read" applied'],
    [{ kind: 'filter', filter: undefined }, 'filter cleared'],
  ])('%j -> %s', (reason, text) => {
    expect(describeReason(reason)).toBe(text);
  });
});

describe('renderHeader', () => {
  it('a pipe gets a separator line with the time and the trigger', () => {
    expect(
      renderHeader(
        { kind: 'files', paths: ['src/execute.ts'] },
        { now: at, stage: 'register-tools', filter: undefined },
        plain,
      ),
    ).toBe('\n─── 09:05:07 · src/execute.ts changed · grading register-tools ───\n');
  });

  it('a terminal gets a cleared screen first', () => {
    expect(renderHeader({ kind: 'start' }, { now: at, stage: 'register-tools', filter: undefined }, tty)).toBe(
      '\u001b[2J\u001b[3J\u001b[H09:05:07 · watch mode started · grading register-tools\n\n',
    );
  });

  it('names the filter in force', () => {
    expect(renderHeader({ kind: 'run-all' }, { now: at, stage: 's', filter: 'read' }, plain)).toContain(
      'grading s (filter "read")',
    );
  });
});

describe('renderComparison', () => {
  const v = (passed: number, failedNames: string[], kind = 'mismatch') => ({
    passed,
    failed: failedNames.length,
    failedNames,
    failedKinds: failedNames.map(() => kind),
  });
  it.each<[string, Comparison, string]>([
    ['a first run says nothing', { kind: 'first' }, ''],
    ['same failures', { kind: 'same', verdict: v(57, ['a', 'b', 'c']) }, 'same verdict as last run: 3 failed\n'],
    ['same pass', { kind: 'same', verdict: v(60, []) }, 'same verdict as last run: all 60 passed\n'],
    [
      'fixed',
      { kind: 'changed', before: v(57, ['a', 'b', 'c']), after: v(60, []) },
      'verdict changed: 3 failed → all 60 passed\n',
    ],
    [
      'broken',
      { kind: 'changed', before: v(60, []), after: v(58, ['a', 'b']) },
      'verdict changed: all 60 passed → 2 failed\n',
    ],
    [
      'the program stopped starting: said so, not as the same count',
      { kind: 'changed', before: v(57, ['a', 'b', 'c']), after: v(57, ['a', 'b', 'c'], 'did not start') },
      'verdict changed: 3 failed → 3 failed (not run: your program did not start)\n',
    ],
    [
      'other failures, same count',
      { kind: 'changed', before: v(59, ['a']), after: v(59, ['b']) },
      'verdict changed: 1 failed → 1 failed\n',
    ],
  ])('%s', (_name, comparison, text) => {
    expect(renderComparison(comparison)).toBe(text);
  });
});

describe('renderMenu', () => {
  it('is one line listing every key', () => {
    expect(renderMenu(undefined, plain)).toBe(
      'Watching for changes. a/Enter run all · f run failed · p filter by case name · q quit\n',
    );
  });
  it('names the filter in force', () => {
    expect(renderMenu('read', plain)).toMatch(/ · filter: "read"\n$/);
  });
  it('colours only when asked', () => {
    expect(renderMenu(undefined, { tty: true, color: true })).toContain('\u001b[1ma\u001b[22m');
    expect(renderMenu(undefined, tty).replace('\r\u001b[2K', '')).not.toContain('\u001b[');
  });
  it('replaces the line on a terminal, so the menu after Esc in the filter prompt does not join the prompt', () => {
    expect(renderPrompt('rea', tty) + renderMenu(undefined, tty)).toMatch(/› rea\r\u001b\[2KWatching for changes\./);
  });
  it('after f, says the filter still in force is for saves, since f ran the last failures', () => {
    expect(renderMenu('read', plain, true)).toMatch(
      / · filter: "read" \(saves re-run it; f ran the last failures\)\n$/,
    );
  });
});

describe('renderPrompt and renderMessage', () => {
  it('a terminal prompt redraws its line with the draft', () => {
    expect(renderPrompt('rea', tty)).toBe(
      '\r\u001b[2KFilter by case name (Enter applies, empty clears, Esc cancels) › rea',
    );
  });
  it('a piped prompt asks for one line', () => {
    expect(renderPrompt('', plain)).toBe(
      'Filter by case name: send a name or glob on one line (an empty line clears the filter).\n',
    );
  });
  it('an error is prefixed, a notice is not', () => {
    expect(renderMessage('error', 'program.ts is missing', plain)).toBe('error: program.ts is missing\n');
    expect(renderMessage('notice', 'Unknown key "x"', plain)).toBe('Unknown key "x"\n');
  });
});

describe('renderProgress', () => {
  it.each<[string, { done: number; failed: number } | undefined, { tty: boolean; color: boolean }, string]>([
    ['a terminal redraws the count in place', { done: 12, failed: 0 }, tty, '\r\u001b[2Kgrading… 12 done'],
    ['and adds the failures so far', { done: 12, failed: 2 }, tty, '\r\u001b[2Kgrading… 12 done, 2 failed'],
    ['undefined erases the count line', undefined, tty, '\r\u001b[2K'],
    ['a pipe gets no count', { done: 12, failed: 2 }, plain, ''],
    ['a pipe gets nothing to erase', undefined, plain, ''],
  ])('%s', (_name, count, options, text) => {
    expect(renderProgress(count, options)).toBe(text);
  });
});
