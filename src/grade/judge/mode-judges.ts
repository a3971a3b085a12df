// How each driver mode's results are judged: compared with the snapshot, a process that ended mid-case explained,
// and the reference's results checked fit to be a snapshot. A stage's cases are judged by its mode's judge, so a
// stage that runs in an existing mode needs nothing here, and a new mode adds its judge to this table.
import { stageOf, type DriverMode } from '../../course/stages.ts';
import type { Case, CaseData } from '../../course/types.ts';
import type { CaseOutcome } from '../run/run-batches.ts';
import type { CaseResult, Failure } from '../types.ts';
import { dispatchJudge } from '../../modes/dispatch/judge.ts';
import { loopJudge } from '../../modes/loop/judge.ts';

export type Timeout = Extract<CaseOutcome, { kind: 'timeout' }>;
export type Exited = Extract<CaseOutcome, { kind: 'exited' }>;

// One mode's judge. `first`: the case ran first in a process without a probe (its time included loading the
// program). `early`: nothing of the program had run a case yet.
export type ModeJudge = {
  // The first difference between the snapshot's results and the program's, or undefined when they agree.
  compare: (c: Case, expected: unknown[], received: unknown[]) => Failure | undefined;
  timeout: (c: Case, o: Timeout, first: boolean, early: boolean) => Failure;
  exited: (c: Case, o: Exited, early: boolean) => Failure;
  // Why the reference's results for a case cannot be its snapshot, or undefined when they can.
  unsnapshottable: (c: Case, results: unknown[]) => string | undefined;
  // Diagnosis by observation: what program.ts's probe mode is asked to run (on the first line a process is given),
  // and the failures put under the mistakes what it observed shows (`caseOf`: a case's file by its name).
  probe: {
    request: () => unknown;
    explain: (results: CaseResult[], observed: unknown, caseOf: (name: string) => CaseData | undefined) => CaseResult[];
  };
};

const JUDGES: Record<DriverMode, ModeJudge> = { dispatch: dispatchJudge, loop: loopJudge };

// The judge of a case's stage (a stage the course does not list runs in dispatch mode, as program.ts's default).
export function judgeOf(c: Pick<Case, 'stage'>): ModeJudge {
  return JUDGES[stageOf(c.stage)?.mode ?? 'dispatch'];
}
