// The compact mode as `audit` grades a loop in-process (src/grade/audit/grade-in-process.ts): the loop mode's audit
// with the compact driver's options (driver.ts): each case in a working directory of its own, one at a time (each
// changes the process's working directory while it runs). No probe is asked for: the mode's judge has none.
import type { ModeAudit } from '../../grade/audit/grade-in-process.ts';
import { loopAudit } from '../loop/audit.ts';
import { COMPACT_OPTIONS } from './driver.ts';

export const audit: ModeAudit = loopAudit(COMPACT_OPTIONS);
