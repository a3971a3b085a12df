// The loop mode's judge (stage "Run the loop"): requests then the conversation, compared with the snapshot; a loop
// that hung or ended named by the turn it stood after.
import type { Case, CaseData } from '../../course/types.ts';
import type { LoopCaseData } from './case.ts';
import type { ModeJudge } from '../../grade/judge/mode-judges.ts';
import { compareLoop } from './judge/compare-loop.ts';
import { explainLoopFailures } from './judge/explain-loop-failures.ts';
import { findLoopMistakes } from './judge/find-loop-mistakes.ts';
import { loopExited, loopTimeout } from './judge/loop-ended.ts';
import { returnedOf, splitLoopResults } from './judge/loop-results.ts';
import { loopProbeRequest } from './judge/probe-scripts.ts';

// A loop stage's cases follow cases/agent-loop.schema.json (they were validated against it when loaded).
const loopCase = (c: Case): Case<LoopCaseData> => c as Case<LoopCaseData>;

export const judge: ModeJudge = {
  compare: (c, expected, received) => compareLoop(loopCase(c), expected, received),
  timeout: (c, o, first, early) => loopTimeout(loopCase(c), o, first, early),
  exited: (c, o, early) => loopExited(loopCase(c), o, early),
  // The reference sends one request per turn and returns the conversation: a case it cannot is a wrong script
  // (a turn after one whose stop_reason ends the loop, say).
  unsnapshottable: (c, results) => {
    const run = splitLoopResults(results);
    const turns = loopCase(c).data.turns.length;
    if (returnedOf(run.end) === undefined) return `the reference loop did not return: ${JSON.stringify(run.end)}`;
    if (run.requests.length !== turns)
      return `the reference loop sent ${run.requests.length} requests for ${turns} turns`;
    return undefined;
  },
  steps: (c) => loopCase(c).data.turns.length,
  probe: {
    request: loopProbeRequest,
    explain: (results, observed, caseOf) =>
      explainLoopFailures(results, findLoopMistakes(observed), (name) => asLoopCase(caseOf(name))),
  },
  variant: {
    renamed: "with the model's words, outputs and tool_use ids renamed",
    hint: (seed) =>
      `the case passes as written but not its variant: the same loop with the model's words, the tools' outputs and the tool_use ids renamed (seed ${seed}). A request or a conversation that does not follow the renaming was not built from what the loop was served: append each turn as received and send back what execute returned, under the id of its tool_use. \`--seed ${seed}\` gives the same variant again`,
  },
};

const asLoopCase = (data: CaseData | undefined): LoopCaseData | undefined =>
  data !== undefined && 'turns' in data ? (data as LoopCaseData) : undefined;
