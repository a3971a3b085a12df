// Compares a task loop's results with the snapshot: the requests in order, the parent's and its children's as the
// contract interleaves them, then how runTaskLoop ended; says where it first went another way, naming whose request
// that was (request-owners.ts), with the hint for this stage's mistake when the results show one. Pure.
import type { Case } from '../../../course/types.ts';
import type { Failure } from '../../../grade/types.ts';
import { describeDifference, jsonEqual, short } from '../../../grade/judge/compare-results.ts';
import { firstDifference as generalDifference } from '../../../grade/judge/first-difference.ts';
import { describeConversation } from '../../loop/judge/compare-loop.ts';
import {
  type LoopRun,
  requestChangedOf,
  requestOf,
  returnedOf,
  splitLoopResults,
  threwOf,
  unaskedCallsOf,
  withoutChange,
  withoutUnasked,
} from '../../loop/judge/loop-results.ts';
import { callText } from '../../loop/unasked-calls.ts';
import type { TaskCaseData } from '../case.ts';
import { apiErrorDifference } from '../../loop/judge/api-error.ts';
import { ownerName, requestOwnersWithApiError } from './request-owners.ts';
import { type ChildCutShort, childCutShort, taskHintFor, type TaskHintContext } from './task-hints.ts';
import { SUBAGENT_MAX_ROUNDS } from '../case.ts';

export function compareTask(c: Case<TaskCaseData>, expected: unknown[], received: unknown[]): Failure | undefined {
  const want = splitLoopResults(expected);
  const got = splitLoopResults(received);
  const difference = firstDifference(c.data, want, got);
  if (difference === undefined) return undefined;
  const { ctx, message } = difference;
  const hint = taskHintFor(ctx);
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

type Difference = { ctx: TaskHintContext; message: string };

function firstDifference(data: TaskCaseData, want: LoopRun, got: LoopRun): Difference | undefined {
  const owners = requestOwnersWithApiError(data);
  const base = { data, owners, want, got };
  const n = want.requests.length;
  const caught = (at: 'extra' | 'end') =>
    apiErrorDifference(data, want, got, at, {
      entry: 'runTaskLoop',
      asked: `request ${n}, ${ownerName(owners[n - 1])},`,
    });
  for (let k = 0; k < Math.max(n, got.requests.length); k += 1) {
    const e = want.requests[k];
    const r = got.requests[k];
    const of = `request ${k + 1} of ${n}, ${ownerName(owners[k])}`;
    if (e !== undefined && r !== undefined) {
      if (jsonEqual(e, r)) continue;
      const ctx: TaskHintContext = { ...base, at: 'request', index: k, ...differingFields(e, r) };
      const cut = childCutShort(ctx);
      if (cut !== undefined) return { ctx, message: cutShortMessage(cut, k, n) };
      return { ctx, message: `${of}, differs: ${describeRequest(e, r)}` };
    }
    if (r !== undefined) {
      const ctx: TaskHintContext = { ...base, at: 'extra', index: k, expected: want.end, received: requestOf(r) };
      const after = caught('extra');
      if (after !== undefined) return { ctx, message: after };
      return {
        ctx,
        message: `runTaskLoop sent request ${k + 1}, but the contract sends ${n} for this script: after request ${n}, the parent's last turn ends the loop`,
      };
    }
    const ctx: TaskHintContext = { ...base, at: 'missing', index: k, expected: requestOf(e), received: got.end };
    const threw = threwOf(got.end);
    const ended = threw === undefined ? 'returned' : `threw (${short(threw, 120)})`;
    return {
      ctx,
      message: `runTaskLoop ${ended} after ${k} of ${n} requests: request ${k + 1} is ${ownerName(owners[k])}`,
    };
  }
  if (jsonEqual(want.end, got.end)) return undefined;
  const ctx: TaskHintContext = { ...base, at: 'end', index: n, expected: want.end, received: got.end };
  const unasked = unaskedCallsOf(got.end);
  if (
    unasked !== undefined &&
    unaskedCallsOf(want.end) === undefined &&
    jsonEqual(want.end, withoutChange(withoutUnasked(got.end)))
  ) {
    return {
      ctx,
      message: `runTaskLoop made ${unasked.length === 1 ? 'a call' : `${unasked.length} calls`} of execute that no tool_use waiting for a result asked for, the answer in nothing it sent or returned: ${unasked.map(callText).join(', ')}`,
    };
  }
  const changed = requestChangedOf(got.end);
  if (
    changed !== undefined &&
    requestChangedOf(want.end) === undefined &&
    jsonEqual(want.end, withoutChange(got.end))
  ) {
    return {
      ctx,
      message: `runTaskLoop changed the request it was given: ${Object.keys(changed)
        .map((k) => `\`${k}\``)
        .join(', ')}`,
    };
  }
  const ended = caught('end');
  if (ended !== undefined) return { ctx, message: ended };
  const threw = threwOf(got.end);
  if (threw !== undefined && threwOf(want.end) === undefined) {
    return { ctx, message: `runTaskLoop threw instead of returning the parent's conversation: ${short(threw, 200)}` };
  }
  const e = returnedOf(want.end);
  const r = returnedOf(got.end);
  if (e === undefined || r === undefined)
    return { ctx, message: `runTaskLoop returned ${short(got.end)}, not the parent's conversation` };
  return { ctx, message: `the conversation runTaskLoop returned differs: ${describeConversation(e, r)}` };
}

// "the child loop (task …) stopped after 29 requests, where the contract's cap is 30: …": said of the child, not as
// the parent's request compared with the child's it stands in for.
function cutShortMessage(cut: ChildCutShort, k: number, n: number): string {
  const requests = (m: number) => `${m} request${m === 1 ? '' : 's'}`;
  const where =
    cut.contract === SUBAGENT_MAX_ROUNDS
      ? `where the contract's cap is ${SUBAGENT_MAX_ROUNDS}`
      : `where the contract's child sends ${cut.contract}`;
  return `the child loop (task ${cut.task}) stopped after ${requests(cut.sent)}, ${where}: its turn ${cut.sent} has stop_reason ${JSON.stringify(cut.stopReason)}, so its request ${cut.sent + 1} comes next, and runTaskLoop sent the parent's next request instead (request ${k + 1} of ${n})`;
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

// Only the fields of two requests that differ (the tools and the system prompt are long and seldom the matter).
function differingFields(e: unknown, r: unknown): { expected: unknown; received: unknown } {
  const want = requestOf(e) ?? {};
  const got = requestOf(r) ?? {};
  const keys = [...new Set([...Object.keys(want), ...Object.keys(got)])].filter((k) => !jsonEqual(want[k], got[k]));
  const pick = (from: Record<string, unknown>) =>
    Object.fromEntries(keys.filter((k) => Object.hasOwn(from, k)).map((k) => [k, from[k]]));
  return requestOf(r) === undefined ? { expected: e, received: r } : { expected: pick(want), received: pick(got) };
}
