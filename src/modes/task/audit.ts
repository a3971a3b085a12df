// The task mode as the audit grades a task loop in-process (src/grade/audit/grade-in-process.ts): the loop mode's
// audit with the task mode's driver options. The mode's judge asks for no probe, so none runs.
import type { ModeAudit } from '../../grade/audit/grade-in-process.ts';
import { loopAudit } from '../loop/audit.ts';
import { TASK_LOOP } from './driver.ts';

export const audit: ModeAudit = loopAudit(TASK_LOOP);
