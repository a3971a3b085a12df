import type { CaseResult, FailureKind } from '../types.ts';
import { visibleLine } from './visible-text.ts';

// How CI formats tell the two kinds of failure apart: `fail` when the program ran and answered wrongly,
// `error` when it produced no verdict-worthy answer at all (JUnit <failure> vs <error>, Exercism fail vs error).
export type CaseStatus = 'pass' | 'fail' | 'error';

const ERROR_KINDS: ReadonlySet<FailureKind> = new Set(['crash', 'timeout', 'no-output', 'bad-output', 'no-snapshot']);

// The status of one case; a failure without a recorded kind counts as a plain `fail`.
export function caseStatus(result: CaseResult): CaseStatus {
  if (result.status === 'pass') return 'pass';
  return result.failure !== undefined && ERROR_KINDS.has(result.failure.kind) ? 'error' : 'fail';
}

// The failure's one-line message (what it quotes of the program made visible), or a stand-in when a failed case
// carries none.
export function failureMessage(result: CaseResult): string {
  return visibleLine(result.failure?.message ?? 'the case failed');
}
