// The compact mode's grader side: the loop mode's (src/modes/loop/serve.ts) recording `compact_threshold` too, with
// the compact tool the loop's own to answer. The loop's side runs each case in a working directory of its own and
// says what the loop wrote under .transcripts/ there; only that key of what it says reaches the results.
import type { ModeServe } from '../../grade/run/channel-server.ts';
import { loopServe } from '../loop/serve.ts';
import { COMPACT_OPTIONS } from './driver.ts';

export const serve: ModeServe = loopServe(COMPACT_OPTIONS);
