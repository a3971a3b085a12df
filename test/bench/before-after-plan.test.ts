import { describe, expect, it } from 'vitest';
import {
  formatRatio,
  onShared,
  perRound,
  planSeries,
  rotate,
  sharedSuites,
  verdict,
} from '../../bench/before-after-plan.ts';

const suites = (tools: string[], loop: string[]) =>
  new Map([
    ['register-tools', new Set(tools)],
    ['agent-loop', new Set(loop)],
  ]);
// As issue 24 left them: the after tree has cases the before tree has not, in both stages.
const BEFORE = suites(['a.json', 'b.json'], ['x.json']);
const AFTER = suites(['a.json', 'b.json', 'c.json'], ['x.json', 'y.json']);

describe('sharedSuites', () => {
  it('keeps, stage by stage, the cases both trees have', () => {
    expect(sharedSuites(BEFORE, AFTER)).toEqual(suites(['a.json', 'b.json'], ['x.json']));
  });

  it('drops a case the after tree no longer has, and gives a stage the after tree lacks no cases', () => {
    const after = new Map([['register-tools', new Set(['b.json'])]]);
    expect(sharedSuites(BEFORE, after)).toEqual(suites(['b.json'], []));
  });
});

describe('planSeries', () => {
  it('grades a grown suite again on the shared cases, and leaves the tree whose suites are those alone', () => {
    const series = planSeries(BEFORE, AFTER);
    expect(series.map((s) => [s.name, s.side, s.cases])).toEqual([
      ['before', 'before', undefined],
      ['after', 'after', undefined],
      ['after on shared cases', 'after', BEFORE],
    ]);
    expect(onShared(series, 'before').name).toBe('before');
    expect(onShared(series, 'after').name).toBe('after on shared cases');
  });

  it('restricts the after tree when only one stage grew', () => {
    const after = suites(['a.json', 'b.json'], ['x.json', 'y.json']);
    expect(planSeries(BEFORE, after).map((s) => s.name)).toEqual(['before', 'after', 'after on shared cases']);
  });

  it('adds no series when both trees have the same cases', () => {
    const series = planSeries(BEFORE, suites(['b.json', 'a.json'], ['x.json']));
    expect(series.map((s) => s.name)).toEqual(['before', 'after']);
    expect(onShared(series, 'after').name).toBe('after');
  });

  it('restricts both trees when each has cases the other lacks', () => {
    const after = suites(['a.json', 'c.json'], ['x.json']);
    const series = planSeries(BEFORE, after);
    expect(series.map((s) => s.name)).toEqual(['before', 'after', 'before on shared cases', 'after on shared cases']);
    expect(onShared(series, 'before').cases).toEqual(suites(['a.json'], ['x.json']));
  });
});

describe('rotate', () => {
  it.each([
    [0, ['a', 'b', 'c']],
    [1, ['b', 'c', 'a']],
    [2, ['c', 'a', 'b']],
    [3, ['a', 'b', 'c']],
  ])('round %i starts from the next series', (round, order) => {
    expect(rotate(['a', 'b', 'c'], round)).toEqual(order);
  });

  it('takes an empty list', () => {
    expect(rotate([], 4)).toEqual([]);
  });
});

describe('verdicts', () => {
  it('takes ratios round by round', () => {
    expect(perRound([2, 6, 3], [1, 2, 3])).toEqual({ median: 2, min: 1, max: 3, n: 3 });
    expect(formatRatio(perRound([2, 6, 3], [1, 2, 3]))).toBe('2.00 (1.00–3.00)');
  });

  it.each([
    [1.05, 1, 'no worse'],
    [0.8, 1, 'no worse'],
    [1.06, 1, 'WORSE (×1.06)'],
    [2.53, 1.69, 'WORSE (×1.50)'],
  ])('after %d against before %d is %s', (after, before, said) => {
    expect(verdict(after, before)).toBe(said);
  });
});
