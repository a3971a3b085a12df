// Drift, graded call by call: placeholders only, wording only, or another outcome; the gravest call grades the
// snapshot.
import { describe, expect, it } from 'vitest';
import { classifyDrift, samePlaceholders } from '../../../src/cli/snapshot/classify-drift.ts';

describe('classifyDrift', () => {
  it('is undefined for equal results, key order aside', () => {
    expect(classifyDrift([{ content: 'a', is_error: true }], [{ is_error: true, content: 'a' }])).toBeUndefined();
  });

  it.each([
    [
      'a path that became <sandbox>',
      { content: '/tmp/x/a.txt' },
      { content: '<sandbox>/a.txt' },
      'placeholders',
      '"content" differs only in placeholders',
    ],
    [
      'a secret redacted after the fact',
      { content: 'key sk-ant-123 ok' },
      { content: 'key <redacted:anthropic-key> ok' },
      'placeholders',
      '"content" differs only in placeholders',
    ],
    [
      'a --redact pattern',
      { content: 'hunter2 said' },
      { content: '<redacted> said' },
      'placeholders',
      '"content" differs only in placeholders',
    ],
    [
      'a reworded text',
      { content: 'File created' },
      { content: 'File written' },
      'wording',
      '"content" worded otherwise',
    ],
    [
      'a reworded error',
      { content: 'No such file', is_error: true },
      { content: 'Not found', is_error: true },
      'wording',
      '"content" worded otherwise',
    ],
    [
      'a success that became an error',
      { content: 'ok' },
      { content: 'no', is_error: true },
      'outcome',
      'a success → an error',
    ],
    [
      'an error that became a throw',
      { content: 'no', is_error: true },
      { threw: 'Error: no' },
      'outcome',
      'an error → a throw',
    ],
    ['a field added', { content: 'hi' }, { content: 'hi', exit_code: 0 }, 'outcome', '"exit_code" added'],
    ['a field gone', { content: 'hi', exit_code: 0 }, { content: 'hi' }, 'outcome', '"exit_code" gone'],
    ['another exit code', { content: '', exit_code: 0 }, { content: '', exit_code: 1 }, 'outcome', '"exit_code" 0 → 1'],
  ])('%s', (_, before, after, kind, what) => {
    expect(classifyDrift([before], [after])).toEqual({ kind, calls: [{ index: 0, kind, what }] });
  });

  it('grades the snapshot by its gravest call and lists every changed call', () => {
    const drift = classifyDrift(
      [{ content: 'a' }, { content: 'same' }, { content: '/x' }, { content: 'ok' }],
      [{ content: 'b' }, { content: 'same' }, { content: '<sandbox>' }, { content: 'ok', is_error: true }],
    );
    expect(drift?.kind).toBe('outcome');
    expect(drift?.calls.map((c) => [c.index, c.kind])).toEqual([
      [0, 'wording'],
      [2, 'placeholders'],
      [3, 'outcome'],
    ]);
  });

  it('calls another number of results another outcome', () => {
    expect(classifyDrift([{ content: 'a' }], [{ content: 'a' }, { content: 'b' }])).toEqual({
      kind: 'outcome',
      calls: [{ index: 1, kind: 'outcome', what: '1 result → 2 results' }],
    });
  });
});

describe('samePlaceholders', () => {
  it.each([
    ['<sandbox>/a and <sandbox>/b', '/tmp/q/a and /tmp/q/b', true],
    ['<sandbox>/a', '/tmp/q/b', false],
    // A placeholder stands for something, never for nothing.
    ['x<redacted>y', 'xy', false],
    ['same text', 'same text with more', false],
    ['<redacted> at <sandbox>', 'hunter2 at <sandbox>', true],
  ])('%j against %j: %s', (a, b, same) => {
    expect(samePlaceholders(a, b)).toBe(same);
  });

  // A regex of lazy wildcards backtracks for minutes on this; the piece-by-piece match is linear.
  it('matches a long text with thousands of placeholders piece by piece', () => {
    const template = `${'<sandbox>/x '.repeat(5000)}end`;
    expect(samePlaceholders(template, `${'/tmp/abc/x '.repeat(5000)}end`)).toBe(true);
    expect(samePlaceholders(template, `${'/tmp/abc/x '.repeat(5000)}end!`)).toBe(false);
  });
});
