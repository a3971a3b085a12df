import { expect, it } from 'vitest';
import { compareProbe, describeGot } from '../../../../src/modes/dispatch/judge/compare-probe.ts';
import type { Probe } from '../../../../src/modes/dispatch/judge/probe-calls.ts';

const probe = (input: Record<string, unknown>): Probe => ({
  tool: 'Glob',
  input,
  answer: { content: 'x' },
  vary: { kind: 'full' },
});
const full = probe({ pattern: 'probe-pattern', path: 'probe-path', oldStr: 'probe-oldStr' });

it.each([
  ['the value itself', 'probe-pattern', 'pattern', undefined],
  ['the whole input', { $: 'input' }, 'pattern', { kind: 'input' }],
  ['nothing', { $: 'undefined' }, 'pattern', { kind: 'missing' }],
  ["another key's value", 'probe-path', 'pattern', { kind: 'key', key: 'path' }],
  ['a misread key', 'probe-oldStr', 'pattern', { kind: 'key', key: 'oldStr' }],
  ['the value changed', '/sandbox/probe-path', 'path', { kind: 'changed', value: '/sandbox/probe-path' }],
  ['a constant', 120000, 'pattern', { kind: 'value', value: 120000 }],
])('%s', (_, encoded, key, got) => {
  expect(describeGot(encoded, full, key)).toEqual(got);
});

it('is no fact where the contract passes nothing (an optional key left out or null)', () => {
  expect(describeGot(120000, probe({ pattern: 'p' }), 'timeout')).toBeUndefined();
  expect(describeGot('x', probe({ pattern: 'p', path: null }), 'path')).toBeUndefined();
});

it.each([
  ['trim', '  a b \n\n', 'a b'],
  ['trimEnd', '  a b \n\n', '  a b'],
  ['newlines', '  a b \n\n', '  a b '],
])('tells a text trimmed (%s)', (how, text, value) => {
  expect(describeGot(value, probe({ text }), 'text')).toEqual({ kind: 'trimmed', how });
});

it('tells a range of texts turned into numbers (`view_range.map(Number)`), and a range passed as sent from it', () => {
  const range = probe({ path: 'p', view_range: ['2', '5'] });
  expect(describeGot([2, 5], range, 'view_range')).toEqual({ kind: 'converted', to: 'number', value: [2, 5] });
  expect(describeGot(['2', '5'], range, 'view_range')).toBeUndefined();
  expect(describeGot([2, 5], probe({ path: 'p', view_range: [2, 5] }), 'view_range')).toBeUndefined();
});

it('tells a method called after the call’s own (a case falling into the next), and not one called before it', () => {
  const insert: Probe = { ...probe({ path: 'p', insert_line: 1, insert_text: 't' }), tool: 'insert' };
  const call = (method: string, args: unknown[]) => ({ method, args, unbound: false });
  const own = call('insert', ['p', 1, 't']);
  const entry = (calls: ReturnType<typeof call>[]) => ({ calls, result: { content: 'x' }, pending: false });
  const also = (calls: ReturnType<typeof call>[]) =>
    compareProbe(insert, entry(calls), () => false).filter((f) => f.type === 'also');
  expect(also([own, call('glob', [{ $: 'undefined' }, 'p'])])).toEqual([
    { type: 'also', probe: insert, method: 'insert', after: ['glob'] },
  ]);
  expect(also([call('view', ['p']), own])).toEqual([]);
  expect(also([own])).toEqual([]);
});
