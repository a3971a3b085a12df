// The verdict for a loop case whose process timed out or ended before printing its results, said from where the
// loop stood: program.ts prints `{"calling":{"call":k,…}}` as the loop heads for request k (before runLoop starts,
// then as each turn is served), so call k means turns 1 to k-1 were served and request k had not come. Pure.
import type { Case } from '../../../course/types.ts';
import type { LoopCaseData } from '../case.ts';
import { count } from '../../../grade/judge/compare-results.ts';
import type { Failure } from '../../../grade/types.ts';
import { exitFailure, timeoutFailure } from '../../../grade/judge/ended-mid-case.ts';
import type { Exited, Timeout } from '../../../grade/judge/mode-judges.ts';
import { apiErrorSaid } from './api-error.ts';
import { stopReason } from './loop-results.ts';
import { loopWords } from './loop-words.ts';

// Node's exit code when the event loop empties while a top-level await still waits.
const UNSETTLED_AWAIT = 13;

// Where the loop stood, in words: after which turn, and what it should have done next.
function standing(data: LoopCaseData, call: number): string {
  const n = data.turns.length;
  if (call <= 1) return 'before its first request';
  const served = `after turn ${call - 1} of ${n} (stop_reason ${stopReason(data, call - 1)})`;
  if (call - 1 < n) return `${served}, before request ${call}`;
  const said = apiErrorSaid(data);
  if (said !== undefined) {
    if (call - 1 === n)
      return `${served}, the script's last, before request ${call}, which the fake API answers with the case's API error (${said})`;
    if (call - 1 === n + 1)
      return `after request ${call - 1}, which the fake API answered with the case's API error (${said}), where the error leaves the loop`;
  }
  if (call - 1 === n) return `${served}, the script's last, where the loop returns`;
  return `after request ${call - 1}, past the script's ${count(n, 'turn')} (the fake API answered it with an error)`;
}

const inFlight = (o: Timeout | Exited): number | undefined =>
  typeof o.calling === 'object' ? o.calling.call : undefined;

export function loopTimeout(c: Case<LoopCaseData>, o: Timeout, first: boolean, early: boolean): Failure {
  const call = inFlight(o);
  if (early || call === undefined) return timeoutFailure(c, o, first, early);
  const limit = `${Number((o.timeoutMs / 1000).toFixed(1))} s`;
  const { entry } = loopWords(c.stage);
  const message = `${entry} did not return within ${limit}: it stood ${standing(c.data, call)}. The program was killed with every process it started`;
  const pastTheApiError = c.data.api_error !== undefined && call - 1 > c.data.turns.length;
  const hint = pastTheApiError
    ? `a loop that catches the API error and tries again never ends here (every request after it is answered with an error): let the error leave ${entry} as the SDK threw it`
    : call - 1 >= c.data.turns.length
      ? 'a loop that goes on after a turn whose stop_reason is not "tool_use" (retrying, catching the error the fake API answers with) never ends: return the conversation there'
      : 'look at what your loop does after a response: a loop that never ends, or an `await` on something that never resolves (the client and execute both answer at once here)';
  return { kind: 'timeout', message, hint };
}

export function loopExited(c: Case<LoopCaseData>, o: Exited, early: boolean): Failure {
  const call = inFlight(o);
  if (early || call === undefined) return exitFailure(c, o, early);
  const where = standing(c.data, call);
  if (o.code === UNSETTLED_AWAIT && o.signal === null) {
    return {
      kind: 'crash',
      message: `${loopWords(c.stage).entry} never settled ${where}: a promise in your loop never resolves. Node exited with code 13 when nothing was left to run`,
      hint: 'an `await` on a promise that nothing resolves (a `new Promise` whose resolve is never called, an event never emitted)',
    };
  }
  const how = o.signal !== null ? `was killed by ${o.signal}` : `exited with code ${o.code}`;
  const message = `the program ${how} while ${loopWords(c.stage).entry} ran, ${where}, before printing results for this case`;
  if (o.signal !== null) return { kind: o.code === 0 ? 'no-output' : 'crash', message };
  const hint =
    'something in your loop ends the process: a `process.exit`, or an error thrown in a callback or an event handler, where nothing catches it (the output shows which)';
  return { kind: o.code === 0 ? 'no-output' : 'crash', message, hint };
}
