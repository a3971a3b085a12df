// The compact mode as `audit` grades a loop in-process (src/grade/audit/grade-in-process.ts): each case through the
// loop driver's fake Messages API with the loop given, in a working directory of its own (driver.ts). No probe:
// the findings come from the cases' own results (judge/compact-findings.ts).
import type { ModeAudit } from '../../grade/audit/grade-in-process.ts';
import type { LoopCaseData } from '../loop/case.ts';
import { runLoopCase } from '../loop/driver.ts';
import { COMPACT_SEAMS } from './driver.ts';

export const audit: ModeAudit = {
  // One loop at a time: each case changes the process's working directory while it runs.
  atOnce: 1,
  hears: true,
  run: (data, runLoop, before, course) => {
    const loop = data as LoopCaseData;
    return runLoopCase(
      { ...loop, outputs: loop.outputs ?? {} } as never,
      runLoop as never,
      before,
      course,
      COMPACT_SEAMS,
    );
  },
  // Never asked: the mode's judge has no probe.
  probe: async () => ({ error: 'the compact mode has no probe' }),
};
