// The dispatch mode as the audit grades a dispatcher in-process (src/grade/audit/grade-in-process.ts): each case's
// calls through the driver's `dispatch` with the dispatcher given, its probe through `observe`.
import type { ModeAudit } from '../../grade/audit/grade-in-process.ts';
import type { DispatchCaseData } from './case.ts';
import { dispatch, observe } from './driver.ts';

export const audit: ModeAudit = {
  // Wrong dispatchers graded at once: each waits mostly on its cases' bash commands.
  atOnce: 6,
  // Its methods' promises are awaited by the driver: no rejection is left unheard.
  hears: false,
  run: (data, make, before, course) => {
    const { files = {}, calls } = data as DispatchCaseData;
    return dispatch({ files, calls }, make as never, before, course);
  },
  probe: (request, make, course) => observe(request, make as never, course),
};
