// The task mode as the audit grades a task loop in-process (src/grade/audit/grade-in-process.ts): each case through
// the driver's fake Messages API with the loop given (`runTaskCase`). No probe: the mode has none.
import type { ModeAudit } from '../../grade/audit/grade-in-process.ts';
import { runTaskCase } from './driver.ts';

export const audit: ModeAudit = {
  // One loop at a time, as the loop mode's: a rejection a loop leaves unheard must be its own.
  atOnce: 1,
  hears: true,
  run: (data, runTaskLoop, before, course) => runTaskCase(data, runTaskLoop as never, before, course),
  probe: async () => ({ error: 'the task mode has no probe' }),
};
