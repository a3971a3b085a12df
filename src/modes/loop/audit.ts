// The loop mode as the audit grades a loop in-process (src/grade/audit/grade-in-process.ts): each case through the
// driver's fake Messages API with the loop given (`runLoopCase`), its probe through `observeLoops`. A mode built on
// this one grades its loops with its own driver options (`loopAudit`).
import type { ModeAudit } from '../../grade/audit/grade-in-process.ts';
import type { LoopCaseData } from './case.ts';
import { type LoopOptions, observeLoops, runLoopCase } from './driver.ts';

export function loopAudit(options: LoopOptions = {}): ModeAudit {
  return {
    // One loop at a time: a rejection a loop leaves unheard must be its own, and each case answers from 127.0.0.1
    // at once.
    atOnce: 1,
    // A rejection left unheard is the case's crash, as it would end a program process.
    hears: true,
    run: (data, runLoop, before, course) => {
      const loop = data as LoopCaseData;
      return runLoopCase({ ...loop, outputs: loop.outputs ?? {} } as never, runLoop as never, before, course, options);
    },
    probe: (request, runLoop, course) => observeLoops(request, runLoop as never, course, options),
  };
}

export const audit: ModeAudit = loopAudit();
