// A run's verdict reduced to what decides "same verdict as last run": the counts, which cases failed and how.
import type { CaseResult, RunReport } from '../../grade/types.ts';

// The part of a report that decides whether a verdict changed. `failedKinds[i]` is how `failedNames[i]` failed:
// its failure's kind, or `did not start` when the program failed before any case (a syntax error saved).
export type RunVerdict = { passed: number; failed: number; failedNames: string[]; failedKinds: string[] };

// The kind of a failure that means the program did not start: no case of its process ran.
export const DID_NOT_START = 'did not start';

// How a run's verdict compares with the previous run over the same cases.
export type Comparison =
  | { kind: 'first' }
  | { kind: 'same'; verdict: RunVerdict }
  | { kind: 'changed'; before: RunVerdict; after: RunVerdict };

// Summarises a report; failed names sorted, since cases finish out of order. With --previous the counts are every
// stage's, the names the stage's own (what `f` re-runs).
export function verdictOf(report: RunReport): RunVerdict {
  const failed = report.cases
    .filter((c) => c.status === 'fail')
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const kindOf = (c: CaseResult): string =>
    c.failure?.beforeAnyCase === true ? DID_NOT_START : (c.failure?.kind ?? 'failed');
  const stages = [report, ...(report.previous ?? [])];
  const sum = (key: 'passed' | 'failed') => stages.reduce((n, r) => n + r[key], 0);
  return {
    passed: sum('passed'),
    failed: sum('failed'),
    failedNames: failed.map((c) => c.name),
    failedKinds: failed.map(kindOf),
  };
}

// Compares a verdict with the one before it (undefined for a first run). The same count of failures in other
// cases is a change: the student fixed one thing and broke another. So is the same cases failing otherwise: 34
// mismatches, then a syntax error saved, is 34 cases that did not start.
export function compareVerdicts(before: RunVerdict | undefined, after: RunVerdict): Comparison {
  if (before === undefined) return { kind: 'first' };
  const same =
    before.passed === after.passed &&
    before.failed === after.failed &&
    before.failedNames.join('\n') === after.failedNames.join('\n') &&
    before.failedKinds.join('\n') === after.failedKinds.join('\n');
  return same ? { kind: 'same', verdict: after } : { kind: 'changed', before, after };
}
