// The task mode's grader side: the loop mode's (src/modes/loop/serve.ts) with the task tool the loop's own to answer
// with a child, whose turns come first; the batch, the parent's and children's turns and the records stay in the
// grader as they do for the loop.
import type { ModeServe } from '../../grade/run/channel-server.ts';
import { loopServe } from '../loop/serve.ts';
import { TASK_LOOP } from './driver.ts';

export const serve: ModeServe = loopServe(TASK_LOOP);
