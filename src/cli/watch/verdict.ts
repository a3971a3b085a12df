// A run's verdict reduced to what decides "same verdict as last run": the counts and which cases failed.
import type { RunReport } from '../../grade/types.ts';

// The part of a report that decides whether a verdict changed.
export type RunVerdict = { passed: number; failed: number; failedNames: string[] };

// How a run's verdict compares with the previous run over the same cases.
export type Comparison =
  | { kind: 'first' }
  | { kind: 'same'; verdict: RunVerdict }
  | { kind: 'changed'; before: RunVerdict; after: RunVerdict };

// Summarises a report; failed names sorted, since cases finish out of order. With --previous the counts are every
// stage's, the names the stage's own (what `f` re-runs).
export function verdictOf(report: RunReport): RunVerdict {
  const failedNames = report.cases
    .filter((c) => c.status === 'fail')
    .map((c) => c.name)
    .sort();
  const stages = [report, ...(report.previous ?? [])];
  const sum = (key: 'passed' | 'failed') => stages.reduce((n, r) => n + r[key], 0);
  return { passed: sum('passed'), failed: sum('failed'), failedNames };
}

// Compares a verdict with the one before it (undefined for a first run). The same count of failures in other
// cases is a change: the student fixed one thing and broke another.
export function compareVerdicts(before: RunVerdict | undefined, after: RunVerdict): Comparison {
  if (before === undefined) return { kind: 'first' };
  const same =
    before.passed === after.passed &&
    before.failed === after.failed &&
    before.failedNames.join('\n') === after.failedNames.join('\n');
  return same ? { kind: 'same', verdict: after } : { kind: 'changed', before, after };
}
