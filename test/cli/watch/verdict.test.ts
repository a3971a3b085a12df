import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../../src/grade/types.ts';
import { compareVerdicts, verdictOf, type Comparison, type RunVerdict } from '../../../src/cli/watch/verdict.ts';

const v = (passed: number, failedNames: string[]): RunVerdict => ({ passed, failed: failedNames.length, failedNames });

describe('verdictOf', () => {
  it('counts and sorts the failed names (cases finish out of order)', () => {
    const status = (name: string, s: 'pass' | 'fail') => ({
      name,
      description: 'd',
      status: s,
      durationMs: 1,
      output: '',
    });
    const report: RunReport = {
      stage: 'register-tools',
      dir: '/course',
      cases: [status('zeta', 'fail'), status('ok', 'pass'), status('alpha', 'fail')],
      passed: 1,
      failed: 2,
      durationMs: 3,
    };
    expect(verdictOf(report)).toEqual({ passed: 1, failed: 2, failedNames: ['alpha', 'zeta'] });
  });
});

describe('compareVerdicts', () => {
  it.each<[string, RunVerdict | undefined, RunVerdict, Comparison]>([
    ['no run before', undefined, v(3, []), { kind: 'first' }],
    ['all passing again', v(3, []), v(3, []), { kind: 'same', verdict: v(3, []) }],
    ['the same failures', v(1, ['a', 'b']), v(1, ['a', 'b']), { kind: 'same', verdict: v(1, ['a', 'b']) }],
    ['fixed', v(1, ['a', 'b']), v(3, []), { kind: 'changed', before: v(1, ['a', 'b']), after: v(3, []) }],
    [
      'one fixed, another broken: same count, still a change',
      v(2, ['a']),
      v(2, ['b']),
      { kind: 'changed', before: v(2, ['a']), after: v(2, ['b']) },
    ],
    ['a case added to the stage', v(3, []), v(4, []), { kind: 'changed', before: v(3, []), after: v(4, []) }],
  ])('%s', (_name, before, after, comparison) => {
    expect(compareVerdicts(before, after)).toEqual(comparison);
  });
});
