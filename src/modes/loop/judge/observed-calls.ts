// What the loop probe saw of execute's calls, beside the requests: each call in the order it was made, the
// tool_use it answered and when it finished (program.ts's scripted execute counts them). Two mistakes show only
// here, as claims the observation proves: a turn's results sent in the order their calls finished (a loop that
// runs them at once and pushes each as it comes), and a tool_use answered by the loop itself, execute never
// called for it. Pure.
import type { LoopCaseData } from '../case.ts';
import type { LoopFinding } from './find-loop-mistakes.ts';
import { isEntry, requestOf } from './loop-results.ts';

type Call = { id: string | null; finished?: number };

export const FINISH_ORDER = 'tool results in the order their calls finished';

// The finding the calls of one script prove (without its rank), or undefined.
export function callFinding(
  script: LoopCaseData,
  requests: unknown[],
  calls: unknown,
): Omit<LoopFinding, 'rank'> | undefined {
  const made = readCalls(calls);
  if (made === undefined) return undefined;
  for (const [t, { message }] of script.turns.entries()) {
    if (message.stop_reason !== 'tool_use') break;
    const ids = message.content.filter((b) => b.type === 'tool_use').map((b) => String(b.id));
    const sent = resultIds(requests[t + 1]);
    if (sent === undefined) return undefined;
    const finished = finishedIds(made, ids);
    if (ids.length > 1 && finished.length === ids.length && same(sent, finished) && !same(finished, ids)) {
      return {
        cause: FINISH_ORDER,
        text: "your loop sends a turn's tool_results in the order its execute calls finished, not in the order the model asked for them: running the calls at once is fine, but put each result at its tool_use block's place (const results = await Promise.all(uses.map(run)) keeps the blocks' order; pushing each result as its call finishes does not)",
        shows: 'out-of-order-turn',
      };
    }
    const known = new Set(script.request.tools.map((tool) => tool.name));
    const unknown = message.content.find((b) => b.type === 'tool_use' && !known.has(b.name));
    const answered = made.every((c) => c.id !== null);
    if (
      unknown !== undefined &&
      answered &&
      !made.some((c) => c.id === unknown.id) &&
      sent.includes(String(unknown.id))
    ) {
      return {
        cause: 'a tool_use answered without execute',
        text: `your loop answered a tool_use whose name is not in request.tools itself, without calling execute: pass every tool_use to execute(block.name, block.input), whatever its name, and send back what it returns (the dispatcher answers a name it does not know)`,
        shows: 'unknown-tool-turn',
      };
    }
  }
  return undefined;
}

// Whether some turn's calls finished in another order than the turn asked for them.
export function finishedOutOfOrder(script: LoopCaseData, calls: unknown): boolean {
  const made = readCalls(calls);
  if (made === undefined) return false;
  return script.turns.some(({ message }) => {
    const ids = message.content.filter((b) => b.type === 'tool_use').map((b) => String(b.id));
    const finished = finishedIds(made, ids);
    return message.stop_reason === 'tool_use' && finished.length === ids.length && !same(finished, ids);
  });
}

// The ids of the calls answering these tool_uses, in the order they finished.
function finishedIds(made: Call[], ids: string[]): (string | null)[] {
  return made
    .filter((c) => c.id !== null && ids.includes(c.id) && c.finished !== undefined)
    .sort((a, b) => a.finished! - b.finished!)
    .map((c) => c.id);
}

// The tool_use ids of the tool_results in a request's last message, in order, or undefined when it has none.
function resultIds(entry: unknown): string[] | undefined {
  const messages = requestOf(entry)?.messages;
  const last = Array.isArray(messages) ? messages.at(-1) : undefined;
  if (!isEntry(last) || last.role !== 'user' || !Array.isArray(last.content)) return undefined;
  return last.content
    .filter(isEntry)
    .filter((b) => b.type === 'tool_result')
    .map((b) => String(b.tool_use_id));
}

// The calls as the probe gave them, or undefined when they are not (an older program.ts gives none).
function readCalls(calls: unknown): Call[] | undefined {
  if (!Array.isArray(calls)) return undefined;
  const ok = calls.every(
    (c) =>
      isEntry(c) &&
      (c.id === null || typeof c.id === 'string') &&
      (c.finished === undefined || Number.isInteger(c.finished)),
  );
  return ok ? (calls as Call[]) : undefined;
}

const same = (a: unknown[], b: unknown[]) => a.length === b.length && a.every((v, k) => v === b[k]);
