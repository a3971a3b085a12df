// What the loop's side of a case (the program process: the student's runLoop, a real Anthropic client, a local HTTP
// server it talks to) asks of the grader's side (./fake-api.ts), one thing at a time, and the answers: a request to
// the Messages API, a call of execute, and how the loop ended. Across the sandbox these travel over the program's
// channel (./serve.ts, src/modes/channel.ts); in-process (the audit, a case run by hand) they are function calls.
// Types and the one conversion each side needs. Pure.
import { canonical, describeThrow, type Json } from '../kit.ts';

// An HTTP request the SDK sent, as the local server received it, and the fake API's answer to write back.
export type HttpAsked = { method: string; url: string; body: string };
export type HttpAnswer = { status: number; type: string; body: string };

// What the scripted execute answered: an output to return, or a message to throw as an Error.
export type ExecuteAnswer = { output: Json } | { throws: string };

// How runLoop ended, as its side reports it: what it returned (as JSON carries it) or what it threw (worded), and
// the request it was given as it was once runLoop ended, each field as canonical JSON text (`givenAsJson`).
// `added`: what the mode's `around` adds to the end (./options.ts), when it has one.
export type LoopEnd = ({ returned: unknown } | { threw: string }) & { given: Record<string, string>; added?: Json };

// One case's fake API as the loop's side reaches it: the request to hand runLoop, and the two things it asks.
export type LoopLink = {
  request: Json;
  // What the mode's `around` sets up before the run, from the case (./options.ts `setup`): files already in the
  // working directory, say. Input, like the request: nothing in it tells the loop what to send.
  setup?: Json;
  http: (asked: HttpAsked) => Promise<HttpAnswer>;
  execute: (name: unknown, input: unknown) => Promise<ExecuteAnswer>;
};

// The request's fields as canonical JSON text, a field set to undefined left out as JSON leaves it out; a value
// JSON cannot write (a cycle, a BigInt) is said as what writing it threw.
export function givenAsJson(given: Json): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(given)) {
    if (value === undefined) continue;
    try {
      out[key] = canonical(value);
    } catch (error) {
      out[key] = JSON.stringify(`not JSON: ${describeThrow(error)}`);
    }
  }
  return out;
}
