// The plan mode as the audit grades a loop in-process: the loop mode's audit (src/modes/loop/audit.ts) with the
// plan mode's driver options (case.ts: the todo tool the loop's own).
import type { ModeAudit } from '../../grade/audit/grade-in-process.ts';
import { loopAudit } from '../loop/audit.ts';
import { PLAN_OPTIONS } from './case.ts';

export const audit: ModeAudit = loopAudit(PLAN_OPTIONS);
