// The hint for a loop that kept the case's API error from leaving it (api-error.ts): the snapshot threw the error
// the SDK threw for the request after the last turn, and the loop returned, sent another request, or threw an error
// of its own instead. What the results prove is that the error was caught; where the catch was, they cannot say, so
// the hint names the places a catch may be. Pure.
import type { LoopHint } from './loop-features.ts';
import { hint, type LoopHintContext } from './loop-hint-context.ts';
import { apiErrorSaid, requestsFor } from './api-error.ts';
import { returnedOf, threwOf } from './loop-results.ts';

const CAUSE = 'API error caught';

export function apiErrorHint(ctx: LoopHintContext): LoopHint | undefined {
  const said = apiErrorSaid(ctx.data);
  const asked = requestsFor(ctx.data);
  if (said === undefined || (ctx.at !== 'extra' && ctx.at !== 'end') || ctx.index < asked) return undefined;
  if (threwOf(ctx.expected) === undefined) return undefined;
  const { entry } = ctx.words;
  const error = `the API error of request ${asked} (${said})`;
  const propagate = `let it leave ${entry} as the SDK threw it (no try/catch around client.messages.create, nor around the loop): the error is the caller's to see, and the client retries only when its caller asks it to (maxRetries)`;
  if (ctx.at === 'extra')
    return hint(
      `${entry} went on after ${error}: a catch that retries the request or carries on kept it from leaving; ${propagate}`,
      CAUSE,
    );
  if (returnedOf(ctx.end) !== undefined)
    return hint(`a try/catch caught ${error}, and ${entry} returned the conversation instead; ${propagate}`, CAUSE);
  const threw = threwOf(ctx.end);
  if (threw === undefined || threw === threwOf(ctx.expected)) return undefined;
  return hint(
    `${entry} caught ${error} and threw an error of its own: ${propagate}, or rethrow the very error caught (throw error), so its status and type reach the caller`,
    CAUSE,
  );
}
