// The compact mode's judge (stage "Compact the context"): the loop mode's judge, which finds where a loop first went
// another way than the snapshot, with that place said in the stage's terms when the results show which layer of
// compaction broke (judge/compact-findings.ts). Timeouts, crashes and variants are judged as the loop's are.
import type { Case } from '../../course/types.ts';
import type { ModeJudge } from '../../grade/judge/mode-judges.ts';
import type { Failure } from '../../grade/types.ts';
import { judge as loopJudge } from '../loop/judge.ts';
import { splitLoopResults } from '../loop/judge/loop-results.ts';
import type { CompactCaseData } from './case.ts';
import { compactFinding } from './judge/compact-findings.ts';

const compactCase = (c: Case): Case<CompactCaseData> => c as Case<CompactCaseData>;

// The loop judge's words name the loop mode's entry point; this stage's student writes runCompactLoop.
const ownWords = (text: string): string => text.replace(/\brunLoop\b/g, 'runCompactLoop');

function compare(c: Case, expected: unknown[], received: unknown[]): Failure | undefined {
  const failure = loopJudge.compare(c, expected, received);
  if (failure === undefined) return undefined;
  const want = splitLoopResults(expected);
  const got = splitLoopResults(received);
  const index = failure.callIndex;
  const at =
    index === undefined
      ? ({ at: 'end', index: want.requests.length } as const)
      : index >= want.requests.length
        ? ({ at: 'extra', index } as const)
        : index >= got.requests.length
          ? ({ at: 'missing', index } as const)
          : ({ at: 'request', index } as const);
  const found = compactFinding(compactCase(c).data, want, got, at);
  if (found === undefined) {
    const { hint, hintCause, ...rest } = failure;
    return {
      ...rest,
      message: ownWords(failure.message),
      ...(hint === undefined ? {} : { hint: ownWords(hint) }),
      ...(hintCause === undefined ? {} : { hintCause }),
    };
  }
  return { ...failure, message: found.message, hint: found.hint, hintCause: found.cause };
}

export const judge: ModeJudge = {
  compare,
  timeout: loopJudge.timeout,
  exited: loopJudge.exited,
  unsnapshottable: loopJudge.unsnapshottable,
  steps: loopJudge.steps,
  ...(loopJudge.variant === undefined ? {} : { variant: loopJudge.variant }),
};
