// The loop mode's judge (stage "Run the loop"): requests then the conversation, compared with the snapshot; a loop
// that hung or ended named by the turn it stood after. Its messages name the loop as the case's stage does
// (judge/loop-words.ts). A loop-kind mode built on this one judges with `loopJudge` and its own options.
import type { Case, CaseData } from '../../course/types.ts';
import type { ModeJudge } from '../../grade/judge/mode-judges.ts';
import { describeDifference, jsonEqual } from '../../grade/judge/compare-results.ts';
import type { Failure } from '../../grade/types.ts';
import type { LoopCaseData } from './case.ts';
import { requestsFor, unfitEnd } from './judge/api-error.ts';
import { compareLoop } from './judge/compare-loop.ts';
import { explainLoopFailures } from './judge/explain-loop-failures.ts';
import { findLoopMistakes } from './judge/find-loop-mistakes.ts';
import { loopExited, loopTimeout } from './judge/loop-ended.ts';
import { isEntry, splitLoopResults } from './judge/loop-results.ts';
import { loopWords } from './judge/loop-words.ts';
import { loopProbeRequest } from './judge/probe-scripts.ts';

// A loop stage's cases follow its mode's schema (they were validated against it when loaded).
const loopCase = (c: Case): Case<LoopCaseData> => c as Case<LoopCaseData>;

type Json = Record<string, unknown>;

// What a mode built on this one judges beyond the loop's requests and end (each absent for the loop mode itself).
export type LoopJudgeOptions = {
  // The stage whose words the probe's findings say (they come from no one case): the loop mode's first when absent.
  stage?: string;
  // The keys its driver's `around` adds to a run's end (src/modes/loop/driver.ts `LoopOptions`): the loop's
  // comparison leaves them out, and once the loop agrees they are compared, by `compareEnd` or else key by key.
  endKeys?: readonly string[];
  compareEnd?: (c: Case<LoopCaseData>, expected: Json, received: Json) => Failure | undefined;
};

// The end of a run's results without `keys`, and what they held.
function takeKeys(results: unknown[], keys: readonly string[]): [unknown[], Json] {
  const end = results.at(-1);
  if (!isEntry(end)) return [results, {}];
  const taken = Object.fromEntries(keys.filter((k) => k in end).map((k) => [k, end[k]]));
  const kept = Object.fromEntries(Object.entries(end).filter(([k]) => !keys.includes(k)));
  return [[...results.slice(0, -1), kept], taken];
}

// The first key whose values differ, said as the generic comparison says a difference.
function differingKey(expected: Json, received: Json, keys: readonly string[]): Failure | undefined {
  const key = keys.find((k) => !jsonEqual(expected[k], received[k]));
  if (key === undefined) return undefined;
  const [e, r] = [expected[key], received[key]];
  return {
    kind: 'mismatch',
    message: `the run's ${key} differs: ${describeDifference(e, r)}`,
    expected: e,
    received: r,
  };
}

export function loopJudge(options: LoopJudgeOptions = {}): ModeJudge {
  const keys = options.endKeys ?? [];
  const compare = (c: Case, expected: unknown[], received: unknown[]): Failure | undefined => {
    if (keys.length === 0) return compareLoop(loopCase(c), expected, received);
    const [e, eTaken] = takeKeys(expected, keys);
    const [r, rTaken] = takeKeys(received, keys);
    const loop = compareLoop(loopCase(c), e, r);
    if (loop !== undefined) return loop;
    return options.compareEnd?.(loopCase(c), eTaken, rTaken) ?? differingKey(eTaken, rTaken, keys);
  };
  return {
    compare,
    timeout: (c, o, first, early) => loopTimeout(loopCase(c), o, first, early),
    exited: (c, o, early) => loopExited(loopCase(c), o, early),
    // The reference sends one request per turn and returns the conversation, or, given an API error, throws it
    // after the request it answers: a case it cannot is a wrong script (a turn after one whose stop_reason ends the
    // loop, say).
    unsnapshottable: (c, results) => unfitEnd(loopCase(c).data, splitLoopResults(results)),
    steps: (c) => requestsFor(loopCase(c).data),
    probe: {
      request: loopProbeRequest,
      explain: (results, observed, caseOf) =>
        explainLoopFailures(results, findLoopMistakes(observed, loopWords(options.stage)), (name) =>
          asLoopCase(caseOf(name)),
        ),
    },
    variant: {
      renamed: "with the model's words, outputs and tool_use ids renamed",
      hint: (seed) =>
        `the case passes as written but not its variant: the same loop with the model's words, the tools' outputs and the tool_use ids renamed (seed ${seed}). A request or a conversation that does not follow the renaming was not built from what the loop was served: append each turn as received and send back what execute returned, under the id of its tool_use. \`--seed ${seed}\` gives the same variant again`,
    },
  };
}

export const judge: ModeJudge = loopJudge();

const asLoopCase = (data: CaseData | undefined): LoopCaseData | undefined =>
  data !== undefined && 'turns' in data ? (data as LoopCaseData) : undefined;
