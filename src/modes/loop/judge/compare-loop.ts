// Compares a loop's results with the snapshot: the requests in order (what each asked for), then how the loop
// ended, and says where the loop first went another way than the script: a request that differs, one it should
// not have sent, one it never sent, or the conversation it returned. Pure.
import type { Case } from '../../../course/types.ts';
import type { LoopCaseData } from '../case.ts';
import type { Failure } from '../../../grade/types.ts';
import { count, describeDifference, jsonEqual, short, wasOrWere } from '../../../grade/judge/compare-results.ts';
import { firstDifference as generalDifference } from '../../../grade/judge/first-difference.ts';
import type { LoopHint } from './loop-features.ts';
import { loopHintFor, type LoopHintContext } from './loop-hints.ts';
import {
  describeChange,
  isEntry,
  type LoopRun,
  requestChangedOf,
  requestOf,
  returnedOf,
  splitLoopResults,
  stopReason,
  threwOf,
  unaskedCallsOf,
  withoutChange,
  withoutUnasked,
} from './loop-results.ts';
import { callText } from '../unasked-calls.ts';
import { apiErrorDifference, requestsFor } from './api-error.ts';
import { type LoopWords, loopWords } from './loop-words.ts';

// The first difference, with the hint that names the mistake behind it, or undefined when the results agree.
export function compareLoop(c: Case<LoopCaseData>, expected: unknown[], received: unknown[]): Failure | undefined {
  const want = splitLoopResults(expected);
  const got = splitLoopResults(received);
  const difference = firstDifference(c.data, loopWords(c.stage), want, got);
  if (difference === undefined) return undefined;
  const { ctx, message } = difference;
  const hint = loopHintFor(ctx);
  return {
    kind: 'mismatch',
    message,
    steps: 'requests',
    ...(ctx.at === 'end' ? {} : { callIndex: ctx.index }),
    expected: ctx.expected,
    received: ctx.received,
    difference: generalDifference(ctx.at, ctx.expected, ctx.received),
    ...(hint === undefined ? {} : { hint: hint.text, hintCause: hint.cause }),
  };
}

// Whether a run of a script went another way than it should have, and the hint for where it first did (undefined
// when no recogniser knows the mistake): the probe's reading of each of its scripts.
export function differsBy(
  data: LoopCaseData,
  expected: unknown[],
  received: unknown[],
  words: LoopWords,
): { hint: LoopHint | undefined } | undefined {
  const difference = firstDifference(data, words, splitLoopResults(expected), splitLoopResults(received));
  return difference === undefined ? undefined : { hint: loopHintFor(difference.ctx) };
}

type Difference = { ctx: LoopHintContext; message: string };

function firstDifference(data: LoopCaseData, words: LoopWords, want: LoopRun, got: LoopRun): Difference | undefined {
  const n = data.turns.length;
  const base = { data, words, end: got.end, sent: got.requests };
  const { entry } = words;
  const caught = (at: 'extra' | 'end') =>
    apiErrorDifference(data, want, got, at, { entry, asked: `request ${want.requests.length}` });
  for (let k = 0; k < Math.max(want.requests.length, got.requests.length); k += 1) {
    const e = want.requests[k];
    const r = got.requests[k];
    if (e !== undefined && r !== undefined) {
      if (jsonEqual(e, r)) continue;
      const ctx: LoopHintContext = { ...base, at: 'request', index: k, ...differingFields(e, r) };
      return { ctx, message: `${requestName(data, k)} differs: ${describeRequest(e, r)}` };
    }
    if (r !== undefined) {
      const last = want.requests.length;
      const ctx: LoopHintContext = { ...base, at: 'extra', index: k, expected: want.end, received: r };
      const after = caught('extra');
      if (after !== undefined) return { ctx, message: after };
      const stop = `turn ${last} ended with stop_reason ${stopReason(data, last)}, which ends the loop: it returns the conversation`;
      return { ctx, message: `the loop sent request ${k + 1}, but the script has ${count(n, 'turn')}: ${stop}` };
    }
    // The diff shows how the request never sent would have ended, and how the loop ended instead.
    const shown = k === 0 ? 1 : 2;
    const ctx: LoopHintContext = {
      ...base,
      at: 'missing',
      index: k,
      expected: tailOf(e, shown),
      received: tailOf(got.end, 2),
    };
    const threw = threwOf(got.end);
    const ended = threw === undefined ? 'returned' : `threw (${short(threw, 120)})`;
    const why =
      k === 0
        ? 'the loop starts by calling client.messages.create({ ...request, messages })'
        : `turn ${k} ended with stop_reason ${stopReason(data, k)}: the loop runs its tools, sends their results and calls the model again`;
    const sent = k === 0 ? 'without sending a request' : `after ${count(k, 'request')} of ${requestsFor(data)}`;
    return { ctx, message: `${entry} ${ended} ${sent}: ${why}` };
  }
  if (jsonEqual(want.end, got.end)) return undefined;
  const ctx: LoopHintContext = {
    ...base,
    at: 'end',
    index: want.requests.length,
    expected: want.end,
    received: got.end,
  };
  // The loop ended as it should, and called execute on the way for what no tool_use asked for, the answer thrown
  // away (the request it was given changed too, maybe: this is said first).
  const unasked = unaskedCallsOf(got.end);
  if (
    unasked !== undefined &&
    unaskedCallsOf(want.end) === undefined &&
    jsonEqual(want.end, withoutChange(withoutUnasked(got.end)))
  ) {
    const made = unasked.length === 1 ? 'a call' : `${unasked.length} calls`;
    const answer = unasked.length === 1 ? 'its answer' : 'their answers';
    return {
      ctx,
      message: `${entry} made ${made} of execute that no tool_use waiting for a result asked for, ${answer} in nothing it sent or returned: ${unasked.map(callText).join(', ')}`,
    };
  }
  // The loop ended as it should, and changed the request it was given on the way.
  const changed = requestChangedOf(got.end);
  if (
    changed !== undefined &&
    requestChangedOf(want.end) === undefined &&
    jsonEqual(want.end, withoutChange(got.end))
  ) {
    return { ctx, message: `${entry} changed the request it was given: ${describeChange(data, changed, entry)}` };
  }
  const ended = caught('end');
  if (ended !== undefined) return { ctx, message: ended };
  const threw = threwOf(got.end);
  if (threw !== undefined && threwOf(want.end) === undefined) {
    return { ctx, message: `${entry} threw instead of returning the conversation: ${short(threw, 200)}` };
  }
  const e = returnedOf(want.end);
  const r = returnedOf(got.end);
  if (e === undefined || r === undefined) {
    return {
      ctx,
      message: `${entry} returned ${short(isEntry(got.end) ? got.end.returned : got.end)}, not the conversation`,
    };
  }
  return { ctx, message: `the conversation ${entry} returned differs: ${describeConversation(e, r)}` };
}

// "request 2 of 3 (after turn 1, stop_reason "tool_use")".
function requestName(data: LoopCaseData, k: number): string {
  const of = `request ${k + 1} of ${requestsFor(data)}`;
  return k === 0 ? `${of} (the first)` : `${of} (after turn ${k}, stop_reason ${stopReason(data, k)})`;
}

// Only the fields of two requests that differ (the tools and the system prompt are long and seldom the matter).
function differingFields(e: unknown, r: unknown): { expected: unknown; received: unknown } {
  const want = requestOf(e) ?? {};
  const got = requestOf(r) ?? {};
  const keys = [...new Set([...Object.keys(want), ...Object.keys(got)])].filter((k) => !jsonEqual(want[k], got[k]));
  const pick = (from: Record<string, unknown>) =>
    Object.fromEntries(keys.filter((k) => Object.hasOwn(from, k)).map((k) => [k, from[k]]));
  return requestOf(r) === undefined ? { expected: e, received: r } : { expected: pick(want), received: pick(got) };
}

function describeRequest(e: unknown, r: unknown): string {
  const want = requestOf(e);
  const got = requestOf(r);
  if (want === undefined || got === undefined) return describeDifference(e, r);
  const missing = Object.keys(want).filter((k) => !Object.hasOwn(got, k));
  if (missing.length > 0) return `it has no ${missing.map((k) => `"${k}"`).join(', ')}`;
  if (Array.isArray(want.messages) && Array.isArray(got.messages) && !jsonEqual(want.messages, got.messages)) {
    return `its messages differ: ${describeConversation(want.messages, got.messages)}`;
  }
  return describeDifference(want, got);
}

// Which message of a conversation differs first, and how.
export function describeConversation(e: unknown[], r: unknown[]): string {
  const i = e.findIndex((m, k) => !jsonEqual(m, r[k]));
  const at = i === -1 ? e.length : i;
  const role = (m: unknown) => (isEntry(m) && typeof m.role === 'string' ? m.role : 'none');
  const a = (m: unknown) =>
    role(m) === 'none' ? 'none' : `${role(m) === 'assistant' ? 'an' : 'a'} ${role(m)} message`;
  const differs = `message ${at + 1}${e.length === r.length ? ` of ${e.length}` : ''} (${role(e[at])}) differs: ${describeDifference(e[at], r[at])}`;
  if (e.length === r.length) return differs;
  const sameRole = role(e[at]) !== 'none' && role(e[at]) === role(r[at]);
  const from = sameRole
    ? differs
    : `message ${at + 1} is ${role(r[at]) === 'none' ? 'missing' : a(r[at])}, expected ${a(e[at])}`;
  return `${count(r.length, 'message')} where ${wasOrWere(e.length)} expected; ${from}`;
}

// The last `n` messages of a request or a returned conversation, to show in a diff; anything else as it is.
function tailOf(entry: unknown, n: number): unknown {
  const messages = requestOf(entry)?.messages;
  if (Array.isArray(messages)) return { request: { messages: messages.slice(-n) } };
  const returned = returnedOf(entry);
  return returned === undefined ? entry : { returned: returned.slice(-n) };
}
