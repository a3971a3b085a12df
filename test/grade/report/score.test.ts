// A run's score: the points of the passing cases out of all of them, 1 each unless a case file says otherwise.
import { describe, expect, it } from 'vitest';
import { scoreOf } from '../../../src/grade/report/score.ts';
import { RUNS } from './reports.ts';

describe('scoreOf', () => {
  it.each([
    ['passing', { score: 3, maxScore: 3, weighted: false }],
    ['failing', { score: 1, maxScore: 3, weighted: false }],
    ['weighted', { score: 4, maxScore: 6, weighted: true }],
    ['empty', { score: 0, maxScore: 0, weighted: false }],
  ])('%s run', (name, score) => {
    expect(scoreOf(RUNS[name]!)).toEqual(score);
  });

  it('sums fractions to a hundredth', () => {
    const cases = Array.from({ length: 3 }, (_, k) => ({ ...RUNS.passing!.cases[0]!, name: `c${k}`, points: 0.1 }));
    expect(scoreOf({ ...RUNS.passing!, cases }).score).toBe(0.3);
  });
});
