import { expect, it } from 'vitest';
import { asPrinted, readObservation } from '../../../../src/modes/dispatch/judge/read-observation.ts';

it('reads an observation of as many calls as the probe made', () => {
  const payload = [
    { calls: [{ method: 'view', args: ['a', { $: 'undefined' }] }], result: { content: 'x' } },
    { calls: [], threw: 'Error: no' },
    { calls: [{ method: 'glob', args: [], unbound: true }], pending: true },
  ];
  expect(readObservation(payload, 3)).toEqual([
    {
      calls: [{ method: 'view', args: ['a', { $: 'undefined' }], unbound: false }],
      result: { content: 'x' },
      pending: false,
    },
    { calls: [], threw: 'Error: no', pending: false },
    { calls: [{ method: 'glob', args: [], unbound: true }], pending: true },
  ]);
});

it('reads what the call made a second time got, one level deep', () => {
  const again = { calls: [], result: { content: 'x' } };
  expect(readObservation([{ calls: [], result: { content: 'x' }, again }], 1)).toEqual([
    { calls: [], result: { content: 'x' }, pending: false, again: { ...again, pending: false } },
  ]);
});

it.each([
  ['not a list', { calls: [] }],
  ['a second call that is not an entry', [{ calls: [], result: null, again: { result: null } }]],
  [
    'a list of another length',
    [
      { calls: [], result: null },
      { calls: [], result: null },
    ],
  ],
  ['an entry without calls', [{ result: null }]],
  ['a call without a method', [{ calls: [{ args: [] }], result: null }]],
  ['an entry that neither returned, threw nor hung', [{ calls: [] }]],
])('gives nothing for %s: a malformed observation makes no finding', (_, payload) => {
  expect(readObservation(payload, 1)).toBeUndefined();
});

it.each([
  ['undefined is left out', { content: { $: 'undefined' } }, {}],
  ['a promise prints as {}', { content: { $: 'promise' } }, { content: {} }],
  ['the input is the input', { content: { $: 'input' } }, { content: { text: 'hi' } }],
  ['an object with a key $ of its own', { $: 'object', value: { $: 1 } }, { $: 1 }],
  ['undefined in a list is null', [{ $: 'undefined' }], [null]],
])('asPrinted: %s', (_, encoded, printed) => {
  expect(asPrinted(encoded, { text: 'hi' })).toEqual(printed);
});
