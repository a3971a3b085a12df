// The dispatch mode's grader side (the serve aspect, run by src/grade/run/run-program.ts for each program process):
// the process's batch stays here, in the grader. The program asks over its channel (src/grade/run/channel-server.ts)
// for its next case and gets only that case's files and calls, once the case before it has ended (its end may ask
// for the next in the same message); it says before each call which call it is about to make, and the progress line
// is made here from the grader's own case; when it gives the case's results, the result line is made here and
// handed to the process's supervision, as is the probe's observation once every case has ended. So the program process never holds another case, a case to come or the
// probe's request while it runs cases, and nothing it prints is read as a result. A message out of turn (a second
// `next` mid-case, a call out of order, an end for a case not running) is refused, and refused only.
import type { Json, ModeServe } from '../../grade/run/channel-server.ts';
import { describeThrow } from '../kit.ts';
import { type Case, parseCase } from './parse-case.ts';

// The grader's side of one program process's cases; `emit` hands a line to its supervision.
export function serveDispatchCases(cases: string[], emit: (line: string) => void): (message: Json) => Promise<Json> {
  let next = 0;
  let current: { key: string; testCase: Case; called: number } | undefined;
  // The probe's request (the first case's `observe`): handed out once every case has ended, its answer said once.
  let observe: unknown;
  let probe: 'not asked' | 'asked' | 'said' = 'not asked';
  // A line made as a message arrives goes out after what the program's pipes hold already (its output before it
  // said so belongs to the case the line ends).
  const later = (line: string): void => void setImmediate(() => emit(line));
  const running = (key: unknown): string | undefined =>
    current === undefined || key !== current.key ? `no case ${JSON.stringify(key)} is running` : undefined;

  const nextCase = (): Json => {
    if (current !== undefined) return { error: `case ${current.key} is still running: give its results first` };
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
      current = { key: String(k + 1), testCase, called: 0 };
      return { case: current.key, files: testCase.files ?? {}, calls: testCase.calls };
    }
    if (observe === undefined || probe !== 'not asked') return { done: true };
    probe = 'asked';
    return { probe: observe };
  };

  const calling = (key: unknown, call: unknown): Json => {
    const refused = running(key);
    if (refused !== undefined) return { error: refused };
    const { calls } = current!.testCase;
    if (call !== current!.called + 1 || call > calls.length)
      return { error: `call ${JSON.stringify(call)} is not the next of case ${current!.key}` };
    current!.called = call;
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
    current = undefined;
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
        // With `next`, the answer is the next case's (or why not), as `next` alone would give it.
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

export const serve: ModeServe = { open: serveDispatchCases };
