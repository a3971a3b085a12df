// Splitting cases into batches: dealt like cards without timings, balanced by earlier timings with them.
import { describe, expect, it } from 'vitest';
import { dealBatches, roundRobin } from '../../../src/grade/run/deal-batches.ts';

const named = (...names: string[]) => names.map((name) => ({ name }));
const names = (batches: Array<Array<{ name: string }>>) => batches.map((b) => b.map((c) => c.name));

describe('roundRobin', () => {
  it.each([
    [
      [1, 2, 3, 4, 5],
      2,
      [
        [1, 3, 5],
        [2, 4],
      ],
    ],
    [[1, 2], 4, [[1], [2]]],
    [[1, 2, 3], 1, [[1, 2, 3]]],
    [[], 3, []],
  ])('deals %j into %i batches', (items, jobs, batches) => {
    expect(roundRobin(items, jobs)).toEqual(batches);
  });
});

describe('dealBatches', () => {
  it('deals round robin when no case has a timing', () => {
    expect(names(dealBatches(named('a', 'b', 'c', 'd'), 2, new Map()))).toEqual([
      ['a', 'c'],
      ['b', 'd'],
    ]);
  });

  it('puts a long case alone against the short ones, so both batches take about as long', () => {
    const ms = new Map([
      ['a', 10],
      ['b', 10],
      ['c', 300],
      ['d', 10],
      ['e', 10],
    ]);
    expect(names(dealBatches(named('a', 'b', 'c', 'd', 'e'), 2, ms))).toEqual([['c'], ['a', 'b', 'd', 'e']]);
  });

  it('counts a case with no timing (a new one) as the median of the known ones', () => {
    const ms = new Map([
      ['a', 100],
      ['b', 100],
      ['c', 100],
    ]);
    // a new case 'd' costs 100 like the rest: two per batch.
    expect(names(dealBatches(named('a', 'b', 'c', 'd'), 2, ms))).toEqual([
      ['a', 'c'],
      ['b', 'd'],
    ]);
  });

  it('keeps the given order inside each batch', () => {
    const ms = new Map([
      ['a', 1],
      ['b', 5],
      ['c', 2],
      ['d', 4],
    ]);
    for (const batch of names(dealBatches(named('a', 'b', 'c', 'd'), 2, ms))) expect(batch).toEqual([...batch].sort());
  });

  it('gives the same batches for the same timings, ties broken by position', () => {
    const ms = new Map([
      ['a', 5],
      ['b', 5],
      ['c', 5],
    ]);
    expect(names(dealBatches(named('a', 'b', 'c'), 2, ms))).toEqual([['a', 'c'], ['b']]);
  });

  it('never makes more batches than cases, nor an empty one', () => {
    const ms = new Map([['a', 5]]);
    expect(names(dealBatches(named('a'), 3, ms))).toEqual([['a']]);
  });
});
