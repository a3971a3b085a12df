// How each driver mode's results are judged: compared with the snapshot, a process that ended mid-case explained,
// and the reference's results checked fit to be a snapshot. A stage's cases are judged by its mode's judge, the
// `judge` its folder exports (src/modes/<mode>/judge.ts), reached here by the mode's name through the one table of
// modes (src/modes/mode-table.ts): a new mode adds its folder and its row there, nothing here.
import { modeOf } from '../../course/stages.ts';
import { aspectExport, aspectUrl, MODE_NAMES, type ModeName } from '../../modes/mode-table.ts';
import type { Case, CaseData } from '../../course/types.ts';
import type { CaseOutcome } from '../run/case-outcome.ts';
import type { CaseResult, Failure } from '../types.ts';

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
  // How many steps a case's results answer one by one (a dispatch case's calls, a loop case's turns): a hidden
  // case's failure says which of them differs without saying what was expected.
  steps: (c: Case) => number;
  // Diagnosis by observation, for a mode with a probe: what the driver's probe is asked to run (on the first line a
  // process is given), and the failures put under the mistakes what it observed shows (`caseOf`: a case's file by
  // its name).
  probe?: {
    request: () => unknown;
    explain: (results: CaseResult[], observed: unknown, caseOf: (name: string) => CaseData | undefined) => CaseResult[];
  };
  // For a mode with variants (src/modes/<mode>/variants.ts): what they rename, as a report's variants line says it
  // ("on renamed files"), and the hint of a case that passes as written but not as its variant of `seed`.
  variant?: { renamed: string; hint: (seed: number) => string };
};

// Every mode's judge, loaded once with this module.
const JUDGES = new Map<ModeName, ModeJudge>(
  await Promise.all(
    MODE_NAMES.map(
      async (name) =>
        [name, aspectExport<ModeJudge>(await import(aspectUrl(name, 'judge').href), name, 'judge', 'judge')] as const,
    ),
  ),
);

// The judge of a case's stage (a stage the course does not list runs in the default mode).
export function judgeOf(c: Pick<Case, 'stage'>): ModeJudge {
  return JUDGES.get(modeOf(c.stage)) as ModeJudge;
}
