// The first difference of a failure, generalized: the same change to the same place is the same difference,
// whatever the values of each case; a different change or place is not.
import { expect, it } from 'vitest';
import { firstDifference } from '../../../src/grade/judge/first-difference.ts';

const same = (a: [unknown, unknown, Record<string, unknown>?], b: [unknown, unknown, Record<string, unknown>?]) =>
  firstDifference('view', ...a) === firstDifference('view', ...b);

it.each<[string, [unknown, unknown, Record<string, unknown>?], [unknown, unknown, Record<string, unknown>?]]>([
  ['content trimmed', [{ content: 'a\n' }, { content: 'a' }], [{ content: 'b b\n\n' }, { content: 'b b' }]],
  ['text put in front', [{ content: 'x' }, { content: 'Error: x' }], [{ content: 'y z' }, { content: 'Error: y z' }]],
  ['content cut short', [{ content: 'abcdef' }, { content: 'abc' }], [{ content: '12345678' }, { content: '1234' }]],
  [
    'an own text naming the input',
    [{ content: 'a.txt' }, { content: 'no dir: src', is_error: true }, { path: 'src' }],
    [{ content: '(empty)' }, { content: 'no dir: lib', is_error: true }, { path: 'lib' }],
  ],
  [
    'a JSON text of the content',
    [{ messages: [{ content: [{ content: 'hi' }] }] }, { messages: [{ content: [{ content: '"hi"' }] }] }],
    [{ messages: [{ content: [{ content: 'a\nb' }] }] }, { messages: [{ content: [{ content: '"a\\nb"' }] }] }],
  ],
  [
    'the last items only',
    [{ messages: [1, 2, 3, 4] }, { messages: [3, 4] }],
    [{ messages: [5, 6, 7] }, { messages: [6, 7] }],
  ],
])('%s is one difference, whatever the values', (_, a, b) => {
  expect(same(a, b)).toBe(true);
});

it.each<[string, [unknown, unknown], [unknown, unknown]]>([
  ['trimmed, and cut short', [{ content: 'a\n' }, { content: 'a' }], [{ content: 'abcdef' }, { content: 'abc' }]],
  [
    'in content, and in is_error',
    [{ content: 'a\n' }, { content: 'a' }],
    [{ content: 'a' }, { content: 'a', is_error: true }],
  ],
  ['two unrelated own texts', [{ content: 'a' }, { content: 'oops' }], [{ content: 'a' }, { content: 'no' }]],
])('%s are two differences', (_, a, b) => {
  expect(same(a, b)).toBe(false);
});

it('is about the place it is given: the same change in two branches is two differences', () => {
  expect(firstDifference('view', { content: 'a\n' }, { content: 'a' })).not.toBe(
    firstDifference('bash', { content: 'a\n' }, { content: 'a' }),
  );
});
