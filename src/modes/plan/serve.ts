// The plan mode's grader side: the loop mode's (src/modes/loop/serve.ts) with the todo tool the loop's own to
// answer, so the batch, the turns and the records stay in the grader as they do for the loop.
import type { ModeServe } from '../../grade/run/channel-server.ts';
import { loopServe } from '../loop/serve.ts';
import { PLAN_OPTIONS } from './case.ts';

export const serve: ModeServe = loopServe(PLAN_OPTIONS);
