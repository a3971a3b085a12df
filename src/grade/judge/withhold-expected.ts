// A hidden case's verdict, made once where the case's visibility is known: the failure keeps what the student's
// program did (its result, the call, the hint) and loses what the case expected, its message included, so that no
// reporter, the terminal's, the CI formats' or one still to be written, can show what the verdict does not hold.
import { short } from './compare-results.ts';
import type { Failure } from '../types.ts';

// The words that say an expected result is not shown.
export const WITHHELD = 'the expected result of this case is hidden';

// `failure` without the expected side; `calls` is how many calls (or, for a loop case, turns) the case has. Only a wrong answer holds one
// (a wrong count of results says nothing of what was expected): every other failure is about the program (a
// crash, a hang, a bad line) and stays as it is.
export function withholdExpected(failure: Failure, calls: number): Failure {
  if (failure.kind !== 'mismatch' && failure.kind !== 'result-count') return failure;
  const { expected: _expected, ...rest } = failure;
  if (failure.kind === 'result-count') return rest;
  const tool = failure.call === undefined ? '' : ` (${failure.call.tool})`;
  const step = failure.steps === 'requests' ? 'request' : 'call';
  const at =
    failure.steps === 'requests' && failure.callIndex === undefined
      ? 'the conversation runLoop returned'
      : `${step} ${(failure.callIndex ?? 0) + 1} of ${calls}${tool}`;
  return { ...rest, message: `${at} differs: ${WITHHELD}; received ${short(failure.received, 120)}` };
}
