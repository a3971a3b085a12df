// What the loop probe saw of execute's calls, beside the requests: each call in the order it was made, the
// tool_use it answered, when it finished, and the request that came while it was still running (program.ts's
// scripted execute and fake API count them). Four mistakes show only here, as claims the observation proves: a
// turn's results sent in the order their calls finished (a loop that runs them at once and pushes each as it
// comes), the next request sent before the turn's calls had finished (nothing awaited them), a throw that ended
// the turn's later calls, and a tool_use answered by the loop itself, execute never called for it. Pure.
import type { LoopCaseData } from '../case.ts';
import type { LoopFinding } from './find-loop-mistakes.ts';
import { isEntry, requestOf } from './loop-results.ts';

type Call = { id: string | null; finished?: number; overtaken?: number };
type Turn = { t: number; ids: string[]; sent: string[] };

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
    const turn = { t, ids, sent };
    const found = sentEarly(script, made, turn) ?? throwEndedTurn(script, made, turn) ?? finishOrder(made, turn);
    if (found !== undefined) return found;
    const unknown = answeredItself(script, made, turn);
    if (unknown !== undefined) return unknown;
  }
  return undefined;
}

// A request that came while a call of the turn before it was still running: the results were sent before every
// call was awaited (content.forEach(async …) starts them and goes on at once). Only in a turn without a throw: one
// rejection ends a Promise.all before the calls beside it finish, and what that loop sends names its mistake.
function sentEarly(script: LoopCaseData, made: Call[], { ids }: Turn): Omit<LoopFinding, 'rank'> | undefined {
  if (ids.some((id) => 'throws' in (script.outputs?.[id] ?? {}))) return undefined;
  if (!made.some((c) => c.id !== null && ids.includes(c.id) && c.overtaken !== undefined)) return undefined;
  return {
    cause: 'results sent before the calls finished',
    text: "your loop sent the next request while execute's calls for a turn's tool_use blocks were still running, so their results were not in it yet: await every call before sending the turn's results, with for…of and await, or await Promise.all(…) (forEach(async …), for one, does not wait for the calls it starts)",
    shows: 'out-of-order-turn',
  };
}

// A call whose execute threw (the script's output `throws`), and a later tool_use of its turn never passed to
// execute, though the loop went on to send the turn's results: the throw was caught around the turn's calls, not
// around each one. (A loop that returns at the throw sends no results: that is the case's own hint.)
function throwEndedTurn(script: LoopCaseData, made: Call[], { ids }: Turn): Omit<LoopFinding, 'rank'> | undefined {
  if (made.some((c) => c.id === null)) return undefined;
  const threw = ids.findIndex((id) => {
    const output = script.outputs?.[id];
    return output !== undefined && 'throws' in output && made.some((c) => c.id === id);
  });
  if (threw === -1 || !ids.slice(threw + 1).some((id) => !made.some((c) => c.id === id))) return undefined;
  return {
    cause: 'a throw ended the turn',
    text: "after execute threw for one tool_use, the turn's later tool_use blocks were never passed to execute: catch each call's throw on its own (a try/catch around each execute call, inside the loop over the blocks), so one failing tool answers its own tool_use and the rest of the turn still runs",
    shows: 'throwing-output',
  };
}

function finishOrder(made: Call[], { ids, sent }: Turn): Omit<LoopFinding, 'rank'> | undefined {
  const finished = finishedIds(made, ids);
  if (ids.length < 2 || finished.length !== ids.length || !same(sent, finished) || same(finished, ids))
    return undefined;
  return {
    cause: FINISH_ORDER,
    text: "your loop sends a turn's tool_results in the order its execute calls finished, not in the order the model asked for them: running the calls at once is fine, but put each result at its tool_use block's place (const results = await Promise.all(uses.map(run)) keeps the blocks' order; pushing each result as its call finishes does not)",
    shows: 'out-of-order-turn',
  };
}

// A tool_use whose name request.tools lacks, answered in the results, while every call made answered another.
function answeredItself(script: LoopCaseData, made: Call[], { t, sent }: Turn): Omit<LoopFinding, 'rank'> | undefined {
  const known = new Set(script.request.tools.map((tool) => tool.name));
  const message = script.turns[t]!.message;
  const unknown = message.content.find((b) => b.type === 'tool_use' && !known.has(b.name));
  const answered = made.every((c) => c.id !== null);
  if (unknown === undefined || !answered || made.some((c) => c.id === unknown.id) || !sent.includes(String(unknown.id)))
    return undefined;
  return {
    cause: 'a tool_use answered without execute',
    text: `your loop answered a tool_use whose name is not in request.tools itself, without calling execute: pass every tool_use to execute(block.name, block.input), whatever its name, and send back what it returns (the dispatcher answers a name it does not know)`,
    shows: 'unknown-tool-turn',
  };
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
      (c.finished === undefined || Number.isInteger(c.finished)) &&
      (c.overtaken === undefined || Number.isInteger(c.overtaken)),
  );
  return ok ? (calls as Call[]) : undefined;
}

const same = (a: unknown[], b: unknown[]) => a.length === b.length && a.every((v, k) => v === b[k]);
