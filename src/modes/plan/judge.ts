// The plan mode's judge (stage "Plan with a todo list"): the loop mode's judge (src/modes/loop/judge.ts), whose
// comparison and probe a plan loop's results go through as they are, with the stage's own hints first where the
// difference is the nag's or the todo handler's (judge/plan-hints.ts). The loop probe's scripts run the plan loop
// too: what they see of it is read as a loop's, the nag's blocks taken out (judge/as-loop.ts).
import type { Case, CaseData } from '../../course/types.ts';
import type { ModeJudge } from '../../grade/judge/mode-judges.ts';
import type { LoopCaseData } from '../loop/case.ts';
import { judge as loopJudge } from '../loop/judge.ts';
import { splitLoopResults } from '../loop/judge/loop-results.ts';
import { withoutReminders } from './judge/as-loop.ts';
import { planHint } from './judge/plan-hints.ts';

export const judge: ModeJudge = {
  ...loopJudge,
  compare: (c: Case, expected, received) => {
    const failure = loopJudge.compare(c, expected, received);
    if (failure === undefined) return undefined;
    const hint = planHint(c.data as CaseData & LoopCaseData, splitLoopResults(expected), splitLoopResults(received));
    return hint === undefined ? failure : { ...failure, hint: hint.text, hintCause: hint.cause };
  },
  probe: {
    request: loopJudge.probe!.request,
    explain: (results, observed, caseOf) => loopJudge.probe!.explain(results, withoutReminders(observed), caseOf),
  },
};
