// The task mode's judge (stage "Delegate to a subagent"): the parent's and its children's requests, then the
// parent's conversation, compared with the snapshot (judge/compare-task.ts); a loop that hung or ended is named by
// the turn it stood after, as the loop mode's judge names it.
import type { Case } from '../../course/types.ts';
import type { ModeJudge } from '../../grade/judge/mode-judges.ts';
import type { Failure } from '../../grade/types.ts';
import { loopExited, loopTimeout } from '../loop/judge/loop-ended.ts';
import { requestsFor, unfitEnd } from '../loop/judge/api-error.ts';
import { splitLoopResults } from '../loop/judge/loop-results.ts';
import type { TaskCaseData } from './case.ts';
import { compareTask } from './judge/compare-task.ts';
import { requestOwners } from './judge/request-owners.ts';

const taskCase = (c: Case): Case<TaskCaseData> => c as Case<TaskCaseData>;

// The loop mode's words for a loop that hung or ended, naming this stage's function.
const named = (f: Failure): Failure => ({ ...f, message: f.message.replace(/\brunLoop\b/g, 'runTaskLoop') });

// What the scripted execute says when it refuses a call: never in a reference's results.
const REFUSAL = "theinference's scripted execute:";

export const judge: ModeJudge = {
  compare: (c, expected, received) => compareTask(taskCase(c), expected, received),
  timeout: (c, o, first, early) => named(loopTimeout(taskCase(c), o, first, early)),
  exited: (c, o, early) => named(loopExited(taskCase(c), o, early)),
  // The reference sends the requests the contract orders for the turns (request-owners.ts), every one answered,
  // and returns, or, given an API error, throws it after the request it answers: a case it cannot is a wrong
  // script (a child's turn missing, a tool_use without its output).
  unsnapshottable: (c, results) => {
    const data = taskCase(c).data;
    const unfit = unfitEnd(data, splitLoopResults(results));
    if (unfit !== undefined) return unfit;
    if (requestOwners(data).length !== data.turns.length)
      return 'the turns do not end where the contract ends the parent: a turn after the parent stopped';
    if (JSON.stringify(results).includes(REFUSAL))
      return 'the scripted execute refused a call of the reference: a tool_use the reference runs has no output';
    return undefined;
  },
  steps: (c) => requestsFor(taskCase(c).data),
  variant: {
    renamed: "with the model's words, outputs and tool_use ids renamed",
    hint: (seed) =>
      `the case passes as written but not its variant: the same parent and children with the model's words, the tools' outputs and the tool_use ids renamed (seed ${seed}). A request or a result that does not follow the renaming was not built from what the loop was served: the child's prompt is the task call's input.prompt, its result the child's last turn's text. \`--seed ${seed}\` gives the same variant again`,
  },
};
