// The hint for a task loop that kept the case's API error from leaving runTaskLoop (src/modes/loop/judge/
// api-error.ts): the snapshot threw what the SDK threw for the request after the last turn, and the loop returned,
// sent another request, or threw an error of its own. When that request was a child's, and its task call got a
// tool_result all the same, the catch was around the child: the error went back to the parent as the task's result.
// Pure.
import type { Hint } from '../../../grade/judge/hints.ts';
import { apiErrorSaid, requestsFor } from '../../loop/judge/api-error.ts';
import { isEntry, type LoopRun, requestOf, returnedOf, threwOf } from '../../loop/judge/loop-results.ts';
import { ownerName } from './request-owners.ts';
import type { TaskHintContext } from './task-hints.ts';

const CAUSE = 'API error caught';
const PROPAGATE =
  "let it leave runTaskLoop as the SDK threw it, from a child as from the parent's loop (no try/catch around the child loop, client.messages.create or the parent's loop): the error is the caller's to see";

export function taskApiErrorHint(ctx: TaskHintContext): Hint | undefined {
  const said = apiErrorSaid(ctx.data);
  const asked = requestsFor(ctx.data);
  if (said === undefined || (ctx.at !== 'extra' && ctx.at !== 'end') || ctx.index < asked) return undefined;
  if (threwOf(ctx.want.end) === undefined || ctx.want.requests.length !== asked) return undefined;
  const owner = ctx.owners[asked - 1];
  const error = `the API error (${said}) of request ${asked}, ${ownerName(owner)},`;
  if (owner?.who === 'child' && answered(ctx.got, owner.task)) {
    return {
      text: `${error} went back to the parent as the result of task ${owner.task}: a try/catch around the child loop caught it. A task's result is the final text of a child that ended, and this child never did; ${PROPAGATE}`,
      cause: CAUSE,
    };
  }
  const threw = threwOf(ctx.got.end);
  if (ctx.at === 'end' && returnedOf(ctx.got.end) === undefined) {
    if (threw === undefined || threw === threwOf(ctx.want.end)) return undefined;
    return {
      text: `runTaskLoop caught ${error} and threw an error of its own: ${PROPAGATE}, or rethrow the very error caught (throw error), so its status and type reach the caller`,
      cause: CAUSE,
    };
  }
  const how = ctx.at === 'extra' ? 'and runTaskLoop went on' : 'and runTaskLoop returned';
  return { text: `a try/catch caught ${error} ${how}; ${PROPAGATE}`, cause: CAUSE };
}

// Whether the loop sent or returned a tool_result for task call `task`.
function answered(run: LoopRun, task: string): boolean {
  const messages = [
    ...run.requests.flatMap((r) => {
      const m = requestOf(r)?.messages;
      return Array.isArray(m) ? m : [];
    }),
    ...(returnedOf(run.end) ?? []),
  ];
  return messages.some(
    (m) =>
      isEntry(m) &&
      Array.isArray(m.content) &&
      m.content.some((b) => isEntry(b) && b.type === 'tool_result' && b.tool_use_id === task),
  );
}
