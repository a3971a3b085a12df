// The plan mode as the audit grades a loop in-process: the loop mode's audit (src/modes/loop/audit.ts) with the
// stage's module and its own tool (case.ts).
import type { ModeAudit } from '../../grade/audit/grade-in-process.ts';
import type { LoopCaseData } from '../loop/case.ts';
import { observeLoops, runLoopCase } from '../loop/driver.ts';
import { PLAN_STAGE } from './case.ts';

export const audit: ModeAudit = {
  atOnce: 1,
  hears: true,
  run: (data, runLoop, before, course) => {
    const loop = data as LoopCaseData;
    const testCase = { ...loop, outputs: loop.outputs ?? {} } as never;
    return runLoopCase(testCase, runLoop as never, before, course, PLAN_STAGE);
  },
  probe: (request, runLoop, course) => observeLoops(request, runLoop as never, course, PLAN_STAGE),
};
