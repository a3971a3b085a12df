// A case's points and visibility, defaults applied, and which visibilities keep the expected result back.
import { describe, expect, it } from 'vitest';
import { weightOf, withholdsExpected } from '../../src/course/case-weight.ts';

describe('case weight', () => {
  it.each([
    [{}, { points: 1, visibility: 'visible' }],
    [{ points: 0 }, { points: 0, visibility: 'visible' }],
    [
      { points: 2.5, visibility: 'hidden' as const },
      { points: 2.5, visibility: 'hidden' },
    ],
  ])('%j weighs %j', (data, weight) => {
    expect(weightOf(data)).toEqual(weight);
  });

  it.each([
    [undefined, false],
    ['visible', false],
    ['hidden', true],
    ['after_due_date', true],
    ['after_published', true],
  ] as const)('%s withholds the expected result: %s', (visibility, withheld) => {
    expect(withholdsExpected(visibility)).toBe(withheld);
  });
});
