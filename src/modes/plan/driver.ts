// The driver's mode `plan` (stage "Plan with a todo list"): the loop mode's driver (src/modes/loop/driver.ts) run
// on the stage's module and export (src/plan-loop.ts, runPlanLoop: its row in src/course/stages.ts), with the `todo`
// tool the loop's own to answer: the scripted execute expects no todo call, and a case scripts no output for one.
// Its results are the loop's: the requests the loop sends (the handler's answers and the nag among their messages),
// then how it ended.
import type { DriverMode } from '../driver-mode.ts';
import { loopDriver } from '../loop/driver.ts';
import { PLAN_OPTIONS } from './case.ts';

export const driver: DriverMode = loopDriver(PLAN_OPTIONS);
