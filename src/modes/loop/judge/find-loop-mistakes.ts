// From what the loop probe observed to the loop's mistakes: each probe script's run compared with what the contract
// makes of it (contract-run.ts), where it first went another way named by the loop hints (or, closer, by what
// execute's calls prove: observed-calls.ts), one finding per mistake.
// An observation that is malformed, or that shows nothing of the loop (every script threw the same, as the stub
// does), gives no findings: the result-based hints then stand alone. Pure.
import { IS_ERROR_DROPPED, IS_ERROR_DROPPED_FOR_A_THROW } from './tool-result-hints.ts';
import { differsBy } from './compare-loop.ts';
import { contractRun } from './contract-run.ts';
import type { Feature } from './loop-features.ts';
import { isEntry, threwOf } from './loop-results.ts';
import { type LoopWords, loopWords } from './loop-words.ts';
import { callFinding, FINISH_ORDER, finishedOutOfOrder } from './observed-calls.ts';
import { PROBE_SCRIPTS } from './probe-scripts.ts';
import { STOPPED_AFTER_TOOLS, stoppedOnErrorsFinding } from './stopped-on-errors.ts';

// One mistake of the student's loop: its cause (as its hint's), the hint in words for any case, the feature a
// case needs to show it, and its rank (the order the scripts found them in: what every case needs first).
export type LoopFinding = { cause: string; text: string; shows: Feature; rank: number };

// What program.ts's loop probe saw of one script: the requests, execute's calls, then how runLoop ended.
type Seen = { requests: unknown[]; calls?: unknown; end: unknown };

// The findings of an observation (the payload of program.ts's `{"observed":…}` line), lowest rank first.
// `words`: how the stage names its loop (the loop mode's first stage's when not given).
export function findLoopMistakes(payload: unknown, words: LoopWords = loopWords(undefined)): LoopFinding[] {
  const seen = readSeen(payload);
  if (seen === undefined) return [];
  const threw = new Set(seen.map((s) => threwOf(s.end)));
  if (threw.size === 1 && !threw.has(undefined)) return [];
  // execute never called in any script, though some ran to a turn asking for tools and returned: every other
  // difference follows from that one (a result-based hint would guess at a cause: a throw caught, text seen).
  const never = neverExecuted(seen);
  if (never !== undefined) return [never];
  const findings = new Map<string, LoopFinding>();
  const called = PROBE_SCRIPTS.map((script, k) => callFinding(script, seen[k]!.requests, seen[k]!.calls));
  // Results in the order their calls finished is a claim only when every script whose calls finished out of order
  // shows it, each in an order of its own: one that matched by chance (results sorted by id) is not proof.
  const outOfOrder = PROBE_SCRIPTS.flatMap((script, k) => (finishedOutOfOrder(script, seen[k]!.calls) ? [k] : []));
  const proved = outOfOrder.length > 1 && outOfOrder.every((k) => called[k]?.cause === FINISH_ORDER);
  // Each script's hint's cause, for what only the scripts side by side prove.
  const causes: (string | undefined)[] = [];
  PROBE_SCRIPTS.forEach((script, k) => {
    const { requests, end } = seen[k]!;
    // A loop still running when the probe stopped waiting shows where it stood, not how it ends.
    if (isEntry(end) && end.pending === true) return;
    const differs = differsBy(script, contractRun(script), [...requests, end], words);
    if (differs === undefined) return;
    // What execute's calls prove names the mistake behind the difference more closely than the results can.
    const call = called[k];
    if (call !== undefined && (call.cause !== FINISH_ORDER || proved)) {
      if (!findings.has(call.cause)) findings.set(call.cause, { ...call, rank: findings.size });
      return;
    }
    const hint = differs.hint;
    causes[k] = hint?.cause;
    if (hint?.shows === undefined || findings.has(hint.cause)) return;
    const text = hint.general ?? hint.text;
    findings.set(hint.cause, { cause: hint.cause, text, shows: hint.shows, rank: findings.size });
  });
  // Stopping after the first tool turn, only where its tools all failed: the errors ended the loop.
  const stopped = findings.get(STOPPED_AFTER_TOOLS);
  const requests = seen.map((s) => s.requests);
  const onErrors = stopped && stoppedOnErrorsFinding(PROBE_SCRIPTS, requests, causes);
  if (stopped !== undefined && onErrors !== undefined)
    findings.set(STOPPED_AFTER_TOOLS, { ...onErrors, rank: stopped.rank });
  // is_error left off every error result, a throw's included, is one habit: the throw's finding folds into it.
  if (findings.has(IS_ERROR_DROPPED)) findings.delete(IS_ERROR_DROPPED_FOR_A_THROW);
  return [...findings.values()];
}

// The observation, one entry per probe script, or undefined when the payload is not one (it comes from the process
// under test: anything malformed voids it rather than giving a wrong finding).
function readSeen(payload: unknown): Seen[] | undefined {
  if (!Array.isArray(payload) || payload.length !== PROBE_SCRIPTS.length) return undefined;
  const ok = payload.every((s) => isEntry(s) && Array.isArray(s.requests) && isEntry(s.end));
  return ok ? (payload as Seen[]) : undefined;
}

// The cause of the finding for a loop that never calls execute.
export const NEVER_EXECUTED = 'execute never called';

// A loop that returned in every script without calling execute once, though their first turns ask for tools.
function neverExecuted(seen: Seen[]): LoopFinding | undefined {
  const none = seen.every((s) => Array.isArray(s.calls) && s.calls.length === 0);
  const returned = seen.filter((s) => isEntry(s.end) && Array.isArray(s.end.returned));
  const asked = PROBE_SCRIPTS.some(
    (script, k) => script.turns[0]?.message.stop_reason === 'tool_use' && returned.includes(seen[k]!),
  );
  // Each returned after appending a turn it read (a Stream taken for a Message has no content to read).
  const read = returned.every((s) => {
    const last = (s.end as { returned: unknown[] }).returned.at(-1);
    return isEntry(last) && last.role === 'assistant' && Array.isArray(last.content);
  });
  if (!none || !asked || !read) return undefined;
  return {
    cause: NEVER_EXECUTED,
    text: 'runLoop never called execute, in any of the probe\'s scripts: it returned after a turn whose stop_reason is "tool_use", that turn\'s tools unanswered. For each tool_use block of such a turn, call execute(block.name, block.input), send the results back in one user message, and call the model again, until a turn\'s stop_reason is not "tool_use"',
    shows: 'tool-turn',
    rank: 0,
  };
}
