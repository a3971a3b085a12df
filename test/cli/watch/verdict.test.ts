import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../../src/grade/types.ts';
import { compareVerdicts, verdictOf, type Comparison, type RunVerdict } from '../../../src/cli/watch/verdict.ts';

const v = (passed: number, failedNames: string[], kind = 'mismatch'): RunVerdict => ({
  passed,
  failed: failedNames.length,
  failedNames,
  failedKinds: failedNames.map(() => kind),
});

describe('verdictOf', () => {
  it('counts and sorts the failed names (cases finish out of order)', () => {
    const status = (name: string, s: 'pass' | 'fail') => ({
      name,
      description: 'd',
      status: s,
      durationMs: 1,
      output: '',
      ...(s === 'fail' ? { failure: { kind: 'mismatch' as const, message: 'm' } } : {}),
    });
    const report: RunReport = {
      stage: 'register-tools',
      dir: '/course',
      cases: [status('zeta', 'fail'), status('ok', 'pass'), status('alpha', 'fail')],
      passed: 1,
      failed: 2,
      durationMs: 3,
    };
    expect(verdictOf(report)).toEqual({
      passed: 1,
      failed: 2,
      failedNames: ['alpha', 'zeta'],
      failedKinds: ['mismatch', 'mismatch'],
    });
  });

  it('says a failure before any case ran is one where the program did not start', () => {
    const failure = { kind: 'crash' as const, message: 'SyntaxError', beforeAnyCase: true };
    const report: RunReport = {
      stage: 'register-tools',
      dir: '/course',
      cases: [{ name: 'a', description: 'd', status: 'fail', durationMs: 1, output: '', failure }],
      passed: 0,
      failed: 1,
      durationMs: 1,
    };
    expect(verdictOf(report).failedKinds).toEqual(['did not start']);
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
    [
      'the same cases failing, now because the program did not start (a syntax error saved)',
      v(0, ['a', 'b']),
      v(0, ['a', 'b'], 'did not start'),
      { kind: 'changed', before: v(0, ['a', 'b']), after: v(0, ['a', 'b'], 'did not start') },
    ],
    [
      'the same cases failing otherwise: a mismatch became a timeout',
      v(1, ['a']),
      v(1, ['a'], 'timeout'),
      { kind: 'changed', before: v(1, ['a']), after: v(1, ['a'], 'timeout') },
    ],
    ['a case added to the stage', v(3, []), v(4, []), { kind: 'changed', before: v(3, []), after: v(4, []) }],
  ])('%s', (_name, before, after, comparison) => {
    expect(compareVerdicts(before, after)).toEqual(comparison);
  });
});
