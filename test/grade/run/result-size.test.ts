// Which results are too large to compare (nested too deep, too many lines as the diff prints them), measured without
// recursion, and the marker that stands in for each.
import { describe, expect, it } from 'vitest';
import { markTooLarge, tooLarge } from '../../../src/grade/run/result-size.ts';

const nested = (depth: number): unknown => {
  let value: unknown = 'x';
  for (let i = 1; i < depth; i += 1) value = [value];
  return value;
};

describe('tooLarge', () => {
  it.each<[string, unknown, string | undefined]>([
    ['a real result', { content: '1: A\n2: B', is_error: false }, undefined],
    ['a result 64 deep', nested(64), undefined],
    ['a result 65 deep', nested(65), 'nested 65 deep'],
    ['a result nested 100,000 deep', nested(100_000), 'nested 100000 deep'],
    ['a content of 49,998 lines', { content: 'l\n'.repeat(49_997) }, undefined],
    ['a content of 700,001 lines', { content: 'l\n'.repeat(700_000) }, '700003 lines long'],
    ['an array of 60,000 items', Array(60_000).fill(0), '60002 lines long'],
  ])('%s', (_, value, why) => {
    expect(tooLarge(value)).toBe(why);
  });
});

describe('markTooLarge', () => {
  it('replaces only the results too large to compare', () => {
    expect(markTooLarge([{ content: 'ok' }, nested(70)])).toEqual([{ content: 'ok' }, { tooLarge: 'nested 70 deep' }]);
  });
});
