import { describe, expect, it } from 'vitest';
import {
  answerTemplate,
  applyChange,
  breaksEarlier,
  classOf,
  explains,
  type Finding,
  type ResultChange,
  TOOL_NAME,
} from '../../../src/grade/judge/finding.ts';

const call = (tool: string, input: Record<string, unknown> = {}) => ({ tool, input });
const finding = (triggers: Finding['triggers']): Finding => ({ cause: 'c', text: 't', rank: 1, triggers });

it.each([
  [undefined, 'absent'],
  [null, 'null'],
  ['', 'falsy'],
  [0, 'falsy'],
  [' x', 'edged'],
  ['x\n', 'edged'],
  ['x', 'present'],
  ['./x', 'dotted'],
  ['a/./x', 'present'],
  [[2, 3], 'present'],
])('classOf(%j) is %s', (value, cls) => {
  expect(classOf(value)).toBe(cls);
});

it.each([
  [[2, 3], 'present'],
  [['2', '3'], 'mistyped'],
  ['2-3', 'mistyped'],
])('classOf(%j, "view_range") is %s: a range is a pair of numbers', (value, cls) => {
  expect(classOf(value, 'view_range')).toBe(cls);
});

describe('explains', () => {
  const failed = (c: ReturnType<typeof call>, expected: unknown = {}, received: unknown = {}, inFlight = false) => ({
    call: c,
    expected,
    received,
    inFlight,
  });
  it.each<[string, Finding['triggers'], ReturnType<typeof failed>, boolean]>([
    ['a name of the finding', [{ names: ['Read'] }], failed(call('Read')), true],
    ['another name', [{ names: ['Read'] }], failed(call('view')), false],
    ['a class of names outside the contract', [{ nameClass: 'case' }], failed(call('read')), true],
    [
      'a key sent, as the trigger wants',
      [{ names: ['Bash'], when: [{ key: 'timeout', class: 'falsy' }] }],
      failed(call('Bash', { timeout: 0 })),
      true,
    ],
    [
      'the key holding another class of value',
      [{ names: ['Bash'], when: [{ key: 'timeout', class: 'falsy' }] }],
      failed(call('Bash', { timeout: 5 })),
      false,
    ],
    [
      'text with spaces at its ends is text',
      [{ names: ['echo'], when: [{ key: 'text', class: 'present' }] }],
      failed(call('echo', { text: ' a ' })),
      true,
    ],
    [
      'the key `??` chose',
      [{ names: ['insert'], when: [{ key: 'new_str', class: 'present', via: ['insert_text', 'new_str'] }] }],
      failed(call('insert', { insert_text: 'a', new_str: 'b' })),
      false,
    ],
    [
      'a change that turns the expected result into the one received',
      [{ names: ['Bash'], change: { drop: ['is_error', 'exit_code'] } }],
      failed(call('Bash'), { content: 'hi\n', is_error: false, exit_code: 0 }, { content: 'hi\n' }),
      true,
    ],
    [
      'a field added holding the name called, whatever the name',
      [{ names: ['Bash', 'Read'], change: { add: { tool: TOOL_NAME } } }],
      failed(call('Read'), { content: '1: a' }, { content: '1: a', tool: 'Read' }),
      true,
    ],
    [
      'a field added holding another name than the one called',
      [{ names: ['Bash', 'Read'], change: { add: { tool: TOOL_NAME } } }],
      failed(call('Read'), { content: '1: a' }, { content: '1: a', tool: 'Bash' }),
      false,
    ],
    [
      'a change that does not',
      [{ names: ['Bash'], change: { drop: ['is_error', 'exit_code'] } }],
      failed(call('Bash'), { content: 'hi\n', is_error: false, exit_code: 0 }, { content: 'ho\n' }),
      false,
    ],
    [
      'a call in flight, for a finding about calls in flight',
      [{ names: ['Glob'], inFlight: true }],
      failed(call('Glob'), undefined, undefined, true),
      true,
    ],
    [
      'a call in flight, for any other finding',
      [{ names: ['Glob'] }],
      failed(call('Glob'), undefined, undefined, true),
      false,
    ],
  ])('%s: %s', (_, triggers, f, explained) => {
    expect(explains(finding(triggers), f)).toBe(explained);
  });
});

it('cuts the content to its first characters, with what else the change does before it', () => {
  const long = { content: 'abcdef', is_error: true };
  expect(applyChange({ content: { cut: 3 } }, long)).toEqual({ content: 'abc', is_error: true });
  expect(applyChange({ content: { cut: 3, prefix: '>' } }, long)).toEqual({ content: '>ab', is_error: true });
  expect(applyChange({ content: { cut: 9 } }, long)).toEqual(long);
});

it('a condition on a key sent explains a call whose key starts with ./, one on ./ only such a call', () => {
  const sent = finding([{ names: ['Write'], when: [{ key: 'path', class: 'present' }] }]);
  const dotted = finding([{ names: ['Write'], when: [{ key: 'path', class: 'dotted' }] }]);
  const failed = (path: string) => ({ call: call('Write', { path }), expected: 1, received: 2, inFlight: false });
  expect([explains(sent, failed('./a')), explains(dotted, failed('./a')), explains(dotted, failed('a'))]).toEqual([
    true,
    true,
    false,
  ]);
});

it('an earlier call is broken only by a finding about where a call goes or what it gets, not what it returns', () => {
  expect(breaksEarlier(finding([{ names: ['insert'] }]), call('insert'))).toBe(true);
  expect(breaksEarlier(finding([{ names: ['insert'], change: { replace: null } }]), call('insert'))).toBe(false);
});

it.each([
  ['fields dropped', { drop: ['is_error'] }, { content: 'a', is_error: true }, { content: 'a' }],
  ['a field added where absent', { add: { is_error: false } }, { content: 'a' }, { content: 'a', is_error: false }],
  [
    'a field added where present is kept',
    { add: { is_error: false } },
    { content: 'a', is_error: true },
    { content: 'a', is_error: true },
  ],
  [
    'fields dropped from a success',
    { dropOnSuccess: ['exit_code', 'is_error'] },
    { content: 'a', is_error: false, exit_code: 0 },
    { content: 'a' },
  ],
  [
    'an error kept whole, when fields go from successes only',
    { dropOnSuccess: ['exit_code', 'is_error'] },
    { content: 'no', is_error: true, exit_code: 1 },
    { content: 'no', is_error: true, exit_code: 1 },
  ],
  ['a field set', { set: { content: '' } }, { content: 'a' }, { content: '' }],
  ['the content moved', { rename: 'text' }, { content: 'a' }, { text: 'a' }],
  ['the whole result replaced', { replace: null }, { content: 'a' }, null],
  ['the content trimmed', { content: { trim: 'trimEnd' } }, { content: ' a\n' }, { content: ' a' }],
  [
    "an error's content with text in front",
    { content: { prefix: 'Error: ', errors: true } },
    { content: 'no', is_error: true },
    { content: 'Error: no', is_error: true },
  ],
  [
    "a success's content left, when only errors change",
    { content: { prefix: 'E', errors: true } },
    { content: 'a' },
    { content: 'a' },
  ],
  ['an error thrown', { throws: 'Error' }, { content: 'no', is_error: true }, { threw: 'Error: no' }],
  ['a success returned, when errors are thrown', { throws: 'Error' }, { content: 'a' }, { content: 'a' }],
] as [string, ResultChange, unknown, unknown][])('applyChange: %s', (_, change, expected, result) => {
  expect(applyChange(change, expected)).toEqual(result);
});

it('explains an error whose text the branch replaced with its own, and no other result', () => {
  const own = finding([{ names: ['Read'], change: { content: { replaced: true, errors: true } } }]);
  const failed = (expected: unknown, received: unknown) => ({
    call: call('Read'),
    expected,
    received,
    inFlight: false,
  });
  expect(explains(own, failed({ content: 'no', is_error: true }, { content: 'Read failed', is_error: true }))).toBe(
    true,
  );
  expect(explains(own, failed({ content: 'a' }, { content: 'Read failed', is_error: true }))).toBe(false);
  expect(explains(own, failed({ content: 'no', is_error: true }, { content: 'no' }))).toBe(false);
});

it("explains a call that got the branch's own answer, written for the call's input, and no other", () => {
  const answers = answerTemplate(
    { content: 'File already exists: probe-path', is_error: true },
    { path: 'probe-path' },
  );
  expect(answers).toEqual({ content: 'File already exists: {path}', is_error: true });
  const own = finding([{ names: ['Write'], answers }]);
  const failed = (input: Record<string, unknown>, received: unknown) => ({
    call: call('Write', input),
    expected: { content: 'File created successfully at: src' },
    received,
    inFlight: false,
  });
  expect(explains(own, failed({ path: 'src' }, { content: 'File already exists: src', is_error: true }))).toBe(true);
  expect(explains(own, failed({ path: 'src' }, { content: 'File already exists: lib', is_error: true }))).toBe(false);
  expect(explains(own, failed({ path: 'src' }, { content: 'Is a directory: src', is_error: true }))).toBe(false);
  // What it answers shows in the call itself, never in a later one.
  expect(breaksEarlier(own, call('Write', { path: 'src' }))).toBe(false);
});

it('explains, for a result reused, only a call that repeats an earlier call of its case to the same method', () => {
  const reused = finding([{ names: ['view', 'Read'], repeated: true }]);
  const view = call('view', { path: 'a.txt' });
  const failed = (earlier: ReturnType<typeof call>[]) => ({
    call: view,
    expected: { content: '1: after' },
    received: { content: '1: before' },
    inFlight: false,
    earlier,
  });
  expect(explains(reused, failed([view, call('Write', { path: 'a.txt', file_text: 'after' })]))).toBe(true);
  expect(explains(reused, failed([call('view', { path: 'b.txt' })]))).toBe(false);
  // A cache may be keyed by method: Read is view's alias.
  expect(explains(reused, failed([call('Read', { path: 'a.txt' })]))).toBe(true);
  expect(explains(reused, failed([call('Glob', { path: 'a.txt' })]))).toBe(false);
  expect(breaksEarlier(reused, view)).toBe(false);
});
