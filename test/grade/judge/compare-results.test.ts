// Verdicts: deep equality of JSON values, the first differing call, and a phrase saying how it differs.
import { describe, expect, it, test } from 'vitest';
import { compareResults, describeDifference, jsonEqual, short } from '../../../src/grade/judge/compare-results.ts';

const calls = [
  { tool: 'Read', input: { path: 'a.txt' } },
  { tool: 'Bash', input: { command: 'echo hi' } },
];

describe('jsonEqual', () => {
  it.each([
    [{ a: 1, b: [1, { c: 'x' }] }, { b: [1, { c: 'x' }], a: 1 }, true],
    [{ content: 'A' }, { content: 'A', is_error: false }, false],
    [{ content: 'A', is_error: undefined }, { content: 'A' }, false],
    [[1, 2], [2, 1], false],
    [null, {}, false],
    [[], {}, false],
    ['1', 1, false],
    [{ a: null }, { a: null }, true],
  ])('%j and %j: %s', (a, b, equal) => {
    expect(jsonEqual(a, b)).toBe(equal);
  });
});

describe('describeDifference', () => {
  it.each([
    ['an extra is_error: false', { content: 'A' }, { content: 'A', is_error: false }, 'unexpected "is_error": false'],
    [
      'a null where an object was',
      { content: 'A' },
      null,
      'the result: expected an object {"content":"A"}, received null',
    ],
    [
      'a missing key',
      { content: 'hi\n', exit_code: 0, is_error: false },
      { content: 'hi\n', exit_code: 0 },
      '"is_error" is missing (expected false)',
    ],
    ['an extra final newline', { content: '1: A' }, { content: '1: A\n' }, '"content" has an extra newline at the end'],
    ['a missing final newline', { content: 'hi\n' }, { content: 'hi' }, '"content" is missing the newline at the end'],
    [
      '\\r\\n line endings',
      { content: 'a\nb' },
      { content: 'a\r\nb' },
      '"content" has \\r\\n line endings where \\n was expected',
    ],
    [
      'trailing whitespace at the end',
      { content: 'a\nb' },
      { content: 'a\nb  ' },
      '"content" differs only in whitespace at the end',
    ],
    [
      'trailing whitespace on a line',
      { content: 'a\nb\nc' },
      { content: 'a\nb \nc' },
      '"content" differs from line 2 on: trailing whitespace (expected "b", received "b ")',
    ],
    [
      'a line that differs',
      { content: '1: A\n2: B' },
      { content: '1: A\n2: C' },
      '"content" differs from line 2 on: expected "2: B", received "2: C"',
    ],
    [
      'a line that differs past what a quote shows',
      { content: `a\n${'x'.repeat(70)} 200 17ms` },
      { content: `a\n${'x'.repeat(70)} 20` },
      `"content" differs from line 2, column 74, on: expected "…${'x'.repeat(17)} 200 17ms", received "…${'x'.repeat(17)} 20"`,
    ],
    [
      'a one-line string that differs past what a quote shows',
      { content: `${'y'.repeat(60)}A` },
      { content: `${'y'.repeat(60)}B` },
      `"content" differs at column 61: expected "…${'y'.repeat(20)}A", received "…${'y'.repeat(20)}B"`,
    ],
    [
      'a missing line',
      { content: 'a\nb' },
      { content: 'a' },
      '"content" differs from line 2 on: expected "b", received no such line',
    ],
    ['a one-line string', { content: '1: A' }, { content: 'A' }, '"content": expected "1: A", received "A"'],
    ['a number', { exit_code: 0 }, { exit_code: 1 }, '"exit_code": expected 0, received 1'],
    [
      'a type',
      { is_error: true },
      { is_error: 'true' },
      '"is_error": expected a boolean true, received a string "true"',
    ],
    [
      'a throw',
      { content: 'unknown tool: x', is_error: true },
      { threw: 'Error: unknown tool x' },
      'execute threw instead of returning a result: "Error: unknown tool x"',
    ],
    [
      'a timer left running by a call that returned',
      { content: '1: A' },
      { left_timer: { kind: 'setTimeout', ms: 8000 }, result: { content: '1: A' } },
      'execute returned, but left a setTimeout of 8000 ms of its own running',
    ],
    [
      'a result too large to compare',
      { content: 'A' },
      { tooLarge: 'nested 100000 deep' },
      'the result is nested 100000 deep: too large to compare',
    ],
    ['not an object', { content: 'A' }, 'A', 'the result: expected an object {"content":"A"}, received a string "A"'],
    ['nothing', { content: 'A' }, undefined, 'the result: expected an object {"content":"A"}, received nothing'],
  ])('names %s', (_, expected, received, phrase) => {
    expect(describeDifference(expected, received)).toBe(phrase);
  });
});

describe('compareResults', () => {
  it('passes equal results', () => {
    expect(
      compareResults(calls, [{ content: '1: A' }, { content: 'hi\n' }], [{ content: '1: A' }, { content: 'hi\n' }]),
    ).toBeUndefined();
  });

  it('reports the first call that differs, with the call and both results', () => {
    const failure = compareResults(
      calls,
      [{ content: '1: A' }, { content: 'hi\n', exit_code: 0, is_error: false }],
      [{ content: '1: A' }, { content: 'hi\n', exit_code: 0 }],
    );
    expect(failure).toEqual({
      kind: 'mismatch',
      message: 'call 2 of 2 (Bash) differs: "is_error" is missing (expected false)',
      callIndex: 1,
      call: calls[1],
      expected: { content: 'hi\n', exit_code: 0, is_error: false },
      received: { content: 'hi\n', exit_code: 0 },
    });
  });

  it('reports a wrong number of results before comparing any', () => {
    const failure = compareResults(calls, [{ content: '1: A' }, { content: 'hi\n' }], [{ content: 'X' }]);
    expect(failure).toEqual({
      kind: 'result-count',
      message: 'printed 1 result for 2 calls: program.ts prints exactly one result per call (was it modified?)',
      expected: [{ content: '1: A' }, { content: 'hi\n' }],
      received: [{ content: 'X' }],
    });
  });
});

describe('short', () => {
  it.each([
    ['a short string as it is', 'abc', '"abc"'],
    ['a long string cut, its closing quote kept', `${'a'.repeat(70)}`, `"${'a'.repeat(57)}…"`],
    ['never inside an escape', `${'a'.repeat(56)}\nbbbbbbbbbb`, `"${'a'.repeat(56)}…"`],
    ['any other value cut', { a: 'x'.repeat(80) }, `{"a":"${'x'.repeat(53)}…`],
  ])('%s', (_, value, text) => {
    expect(short(value)).toBe(text);
  });
});

test('a timer left running by a call whose result is wrong too: the result is what differs', () => {
  const calls = [{ tool: 'Bash', input: { command: 'true' } }];
  const expected = [{ content: '', is_error: false, exit_code: 0 }];
  const failure = compareResults(calls, expected, [{ left_timer: { kind: 'setTimeout', ms: 120000 }, result: {} }]);
  expect(failure?.received).toEqual({});
  const right = compareResults(calls, expected, [{ left_timer: { kind: 'setTimeout', ms: 10 }, result: expected[0] }]);
  expect(right?.message).toBe(
    'call 1 of 1 (Bash) differs: execute returned, but left a setTimeout of 10 ms of its own running',
  );
});
