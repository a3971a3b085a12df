// A case's API error (its `api_error`: what the fake API answers the request after the last turn with) as the loop
// judges say it: how many requests the reference sends, the error in words, and where a loop that kept the error
// from leaving it went another way. The error leaves the loop as the SDK threw it, so a loop that returned, sent
// another request or threw something else caught it. Pure.
import { short } from '../../../grade/judge/compare-results.ts';
import type { LoopCaseData } from '../case.ts';
import { type LoopRun, returnedOf, threwOf } from './loop-results.ts';

type Scripted = Pick<LoopCaseData, 'turns' | 'api_error'>;

// The requests the contract sends for a case: one per turn, then the one the API error answers.
export function requestsFor(data: Scripted): number {
  return data.turns.length + (data.api_error === undefined ? 0 : 1);
}

// "HTTP 529 overloaded_error", or undefined for a case without an API error.
export function apiErrorSaid(data: Scripted): string | undefined {
  const error = data.api_error;
  return error === undefined ? undefined : `HTTP ${error.status} ${error.type}`;
}

// Why the reference's run of a case cannot be its snapshot, as far as the end goes: it returns, or, given an API
// error, it throws it after one request per turn and the one the error answers.
export function unfitEnd(data: Scripted, run: LoopRun): string | undefined {
  const turns = data.turns.length;
  if (data.api_error === undefined) {
    if (returnedOf(run.end) === undefined) return `the reference loop did not return: ${JSON.stringify(run.end)}`;
    if (run.requests.length !== turns)
      return `the reference loop sent ${run.requests.length} requests for ${turns} turns`;
    return undefined;
  }
  if (threwOf(run.end) === undefined)
    return `the reference loop did not throw the API error of request ${turns + 1}: ${JSON.stringify(run.end)}`;
  if (run.requests.length !== turns + 1)
    return `the reference loop sent ${run.requests.length} requests for ${turns} turns and the API error of request ${turns + 1}`;
  return undefined;
}

// How a loop that kept the case's API error from leaving it went another way, where the snapshot threw it: another
// request after it (`extra`), or an end that is not that throw (`end`). Undefined when the case has no API error or
// the difference is not that. `asked`: the request the error answered, as the stage names it ("request 3"); `entry`:
// the loop's function.
export function apiErrorDifference(
  data: Scripted,
  want: LoopRun,
  got: LoopRun,
  at: 'extra' | 'end',
  words: { entry: string; asked: string },
): string | undefined {
  const said = apiErrorSaid(data);
  const expected = threwOf(want.end);
  if (said === undefined || expected === undefined || want.requests.length !== requestsFor(data)) return undefined;
  const { entry, asked } = words;
  const answered = `${asked} was answered with ${said}, which the SDK throws`;
  if (at === 'extra')
    return `${entry} sent another request after the API error: ${answered}; that error leaves ${entry}, and no request follows it`;
  if (returnedOf(got.end) !== undefined)
    return `${entry} returned where the API error should have left it: ${answered}`;
  const threw = threwOf(got.end);
  if (threw === undefined || threw === expected) return undefined;
  return `${entry} threw ${short(threw, 120)}, not the API error as the SDK threw it: ${answered} (${short(expected, 120)})`;
}
