// The dispatch mode's judge (stage "Register the toolset"): one result per call, compared call by call, the first
// difference explained by the hints; a process that ended mid-case named by the call in flight.
import type { Case } from '../../course/types.ts';
import { callsOf, type DispatchCaseData } from './case.ts';
import { compareResults } from '../../grade/judge/compare-results.ts';
import { explainFailures } from '../../grade/judge/explain-failures.ts';
import { firstDifference } from '../../grade/judge/first-difference.ts';
import { ECHO, methodOf } from '../../course/dispatcher-contract.ts';
import { callExited, callTimeout } from './judge/call-ended.ts';
import { findMistakes } from './judge/find-mistakes.ts';
import { hintFor } from '../../grade/judge/hints.ts';
import type { ModeJudge } from '../../grade/judge/mode-judges.ts';
import { probeRequest } from './judge/probe-calls.ts';

// A dispatch stage's cases follow cases/case.schema.json (they were validated against it when loaded).
const calls = (c: Case): DispatchCaseData['calls'] => (c.data as DispatchCaseData).calls;

export const judge: ModeJudge = {
  compare: (c, expected, received) => {
    const failure = compareResults(calls(c), expected, received);
    if (failure?.kind !== 'mismatch' || failure.call === undefined) return failure;
    const { call } = failure;
    const hint = hintFor({ call, expected: failure.expected, received: failure.received });
    // Where the call went: its method's branch (both aliases), echo's, or the default branch of every other name.
    const branch = methodOf(call.tool) ?? (call.tool === ECHO ? ECHO : 'default');
    const difference = firstDifference(branch, failure.expected, failure.received, call.input);
    return { ...failure, difference, ...(hint === undefined ? {} : { hint: hint.text, hintCause: hint.cause }) };
  },
  timeout: callTimeout,
  exited: callExited,
  unsnapshottable: (c, results) =>
    results.length === calls(c).length ? undefined : `printed ${results.length} results for ${calls(c).length} calls`,
  steps: (c) => calls(c).length,
  probe: {
    request: probeRequest,
    explain: (results, observed, caseOf) =>
      explainFailures(results, findMistakes(observed), (name) => callsOf(caseOf(name))),
  },
  variant: {
    renamed: 'on renamed files',
    hint: (seed) =>
      `the case passes as written but not its variant: the same calls on files and contents renamed (seed ${seed}). A result that does not follow the renaming was not computed by running the call: make every result come from the Tools method the call reaches. \`--seed ${seed}\` gives the same variant again`,
  },
};
