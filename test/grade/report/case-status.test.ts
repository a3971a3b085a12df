import { describe, expect, it } from 'vitest';
import { caseStatus, failureMessage } from '../../../src/grade/report/case-status.ts';
import type { CaseResult, FailureKind } from '../../../src/grade/types.ts';

const failed = (kind: FailureKind): CaseResult => ({
  name: 'c',
  description: 'd',
  status: 'fail',
  durationMs: 1,
  output: '',
  failure: { kind, message: `${kind} happened` },
});

describe('caseStatus', () => {
  it.each([
    ['mismatch', 'fail'],
    ['result-count', 'fail'],
    ['crash', 'error'],
    ['timeout', 'error'],
    ['no-output', 'error'],
    ['bad-output', 'error'],
    ['no-snapshot', 'error'],
  ] as const)('a %s is a %s', (kind, status) => {
    expect(caseStatus(failed(kind))).toBe(status);
  });

  it('a passing case is a pass', () => {
    expect(caseStatus({ ...withoutFailure(failed('mismatch')), status: 'pass' })).toBe('pass');
  });

  it('a failed case without a failure record is a fail', () => {
    expect(caseStatus(withoutFailure(failed('crash')))).toBe('fail');
  });
});

// The case without its failure record.
function withoutFailure(c: CaseResult): CaseResult {
  const { failure: _, ...rest } = c;
  return rest;
}

describe('failureMessage', () => {
  it('is the failure message, or says the case failed', () => {
    expect(failureMessage(failed('crash'))).toBe('crash happened');
    expect(failureMessage(withoutFailure(failed('crash')))).toBe('the case failed');
  });
});
