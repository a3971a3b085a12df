// The dispatch mode's grader side (the serve aspect, run by src/grade/run/run-program.ts for each program process):
// the process's batch stays here, in the grader. The program asks over its channel (src/grade/run/channel-server.ts)
// for its cases and gets one case's files and calls at a time, holding at most the case it runs and the one after
// it (AHEAD): a case's end is answered with the case after the one queued, so the program never waits on the grader
// between cases (a round trip per case was about 0.5 ms, 4-5 % of a cold run). It says before each call which call
// it is about to make, and the progress line is made here from the grader's own case; when it gives a case's
// results, the result line is made here and handed to the process's supervision, as is the probe's observation once
// every case has ended. So the program process never holds the batch, a case beyond the next or the probe's request
// while it runs cases, and nothing it prints is read as a result. A message out of turn (a case asked for past the
// one queued, a call out of order, an end for a case not running first) is refused, and refused only.
import type { Json, ModeServe } from '../../grade/run/channel-server.ts';
import { describeThrow } from '../kit.ts';
import { type Case, parseCase } from './parse-case.ts';

// The grader's side of one program process's cases; `emit` hands a line to its supervision.
export function serveDispatchCases(cases: string[], emit: (line: string) => void): (message: Json) => Promise<Json> {
  let next = 0;
  // The cases handed out and not ended, oldest first: the one running, and at most AHEAD queued after it.
  const out: { key: string; testCase: Case; called: number }[] = [];
  // The probe's request (the first case's `observe`): handed out once every case has ended, its answer said once.
  let observe: unknown;
  let probe: 'not asked' | 'asked' | 'said' = 'not asked';
  // A line made as a message arrives goes out after what the program's pipes hold already (its output before it
  // said so belongs to the case the line ends).
  const later = (line: string): void => void setImmediate(() => emit(line));
  const running = (key: unknown): string | undefined =>
    out[0] === undefined || key !== out[0].key ? `no case ${JSON.stringify(key)} is running` : undefined;

  const nextCase = (): Json => {
    if (out.length > AHEAD)
      return { error: `case ${out.at(-1)!.key} is queued already: give case ${out[0]!.key}'s results first` };
    if (next < cases.length) {
      const k = next;
      next += 1;
      let testCase: Case;
      try {
        testCase = parseCase(cases[k]!);
      } catch (error) {
        return { error: `cannot read case on stdin line ${k + 1}: ${describeThrow(error)}` };
      }
      if (k === 0) observe = testCase.observe;
      const handed = { key: String(k + 1), testCase, called: 0 };
      out.push(handed);
      return { case: handed.key, files: testCase.files ?? {}, calls: testCase.calls };
    }
    // The probe goes out only once every case has ended.
    if (out.length > 0) return { later: true };
    if (observe === undefined || probe !== 'not asked') return { done: true };
    probe = 'asked';
    return { probe: observe };
  };

  const calling = (key: unknown, call: unknown): Json => {
    const refused = running(key);
    if (refused !== undefined) return { error: refused };
    const current = out[0]!;
    const { calls } = current.testCase;
    if (call !== current.called + 1 || call > calls.length)
      return { error: `call ${JSON.stringify(call)} is not the next of case ${current.key}` };
    current.called = call;
    later(JSON.stringify({ calling: { call, of: calls.length, tool: calls[call - 1]!.tool } }));
    return { ok: true };
  };

  const ended = (key: unknown, results: unknown): Json => {
    const refused = running(key);
    if (refused !== undefined) return { error: refused };
    if (!Array.isArray(results)) return { error: 'the results must be an array' };
    // Results that arrived as JSON but cannot be written again (nested past the stack) end nothing: the case stays
    // running, and its process ends as it would have had it never said them.
    let line: string;
    try {
      line = JSON.stringify({ results });
    } catch (error) {
      return { error: `the results cannot be written as JSON: ${describeThrow(error)}` };
    }
    out.shift();
    later(line);
    return { ok: true };
  };

  const observed = (answer: unknown): Json => {
    if (probe !== 'asked') return { error: 'no probe is running' };
    probe = 'said';
    later(JSON.stringify({ observed: answer ?? null }));
    return { ok: true };
  };

  return async (message) => {
    switch (message.op) {
      case 'next':
        return nextCase();
      case 'calling':
        return calling(message.case, message.call);
      case 'end': {
        // With `next`, the answer is what `next` alone would give: the case after the one queued, `later` while one
        // is queued and none is left, or (every case ended) the probe's request or that all is done.
        const end = ended(message.case, message.results);
        return message.next === true && end.error === undefined ? nextCase() : end;
      }
      case 'observed':
        return observed(message.observed);
      default:
        return { error: `no such request ${JSON.stringify(message.op)}` };
    }
  };
}

// How many cases a program holds queued beyond the one it runs.
export const AHEAD = 1;

export const serve: ModeServe = { open: serveDispatchCases };
