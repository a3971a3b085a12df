// A case's verdict from what the program did with it: every outcome the pool reports, one row each.
import { describe, expect, it } from 'vitest';
import type { Case } from '../../../src/course/types.ts';
import type { DispatchCaseData } from '../../../src/modes/dispatch/case.ts';
import { firstDifference } from '../../../src/grade/judge/first-difference.ts';
import { hintFor } from '../../../src/grade/judge/hints.ts';
import { judgeCase, noSnapshot } from '../../../src/grade/judge/judge-case.ts';
import {
  FILE_TOO_LARGE,
  type LimitReached,
  OUT_OF_MEMORY,
  TOO_MANY_PROCESSES,
} from '../../../src/grade/judge/limit-reached.ts';
import type { CaseOutcome } from '../../../src/grade/run/run-batches.ts';

const readCase: Case<DispatchCaseData> = {
  stage: 'register-tools',
  name: 'read-a',
  file: '/cases/register-tools/read-a.json',
  data: { description: 'Read returns the numbered lines.', calls: [{ tool: 'Read', input: { path: 'a.txt' } }] },
};
const snapshot = { results: [{ content: '1: A' }] };
const judge = (outcome: CaseOutcome, output = '') =>
  judgeCase(readCase, snapshot, { name: 'read-a', outcome, output, durationMs: 12.4567, afterProbe: false });

describe('judgeCase', () => {
  it('passes results equal to the snapshot, keeping the output and its duration to the microsecond (a fast case is never 0)', () => {
    expect(judge({ kind: 'results', results: [{ content: '1: A' }] }, 'debug\n')).toEqual({
      name: 'read-a',
      description: 'Read returns the numbered lines.',
      status: 'pass',
      durationMs: 12.457,
      output: 'debug\n',
    });
  });

  it('fails a differing result with the call, both results and the hint for it', () => {
    const received = { content: "Missing required parameter 'path'", is_error: true };
    const result = judge({ kind: 'results', results: [received] });
    expect(result.status).toBe('fail');
    expect(result.failure).toEqual({
      kind: 'mismatch',
      message: `call 1 of 1 (Read) differs: "content": expected "1: A", received "Missing required parameter 'path'"; unexpected "is_error": true`,
      callIndex: 0,
      call: readCase.data.calls[0],
      expected: { content: '1: A' },
      received,
      difference: firstDifference('view', { content: '1: A' }, received, readCase.data.calls[0]!.input),
      hint: hintFor({ call: readCase.data.calls[0]!, expected: { content: '1: A' }, received })?.text,
      hintCause: hintFor({ call: readCase.data.calls[0]!, expected: { content: '1: A' }, received })?.cause,
    });
    expect(result.failure?.hint).toBeDefined();
  });

  it.each<[string, CaseOutcome, string, string]>([
    [
      'a wrong result count',
      { kind: 'results', results: [] },
      'result-count',
      'printed 0 results for 1 call: program.ts prints exactly one result per call (was it modified?)',
    ],
    [
      'a line that is not JSON',
      { kind: 'bad-line', reason: 'printed a line that is not JSON: "hi"' },
      'bad-output',
      'the program printed a line that is not JSON: "hi". Result lines own stdout: print debugging output with console.error, and leave program.ts as the course gives it',
    ],
    [
      'a bad line before any case',
      { kind: 'bad-line', reason: 'printed a line that is not JSON: "hi"', beforeAnyCase: true },
      'bad-output',
      'before running any case, the program printed a line that is not JSON: "hi"',
    ],
    [
      'a crash',
      { kind: 'exited', code: 3, signal: null },
      'crash',
      'the program exited with code 3 before printing results for this case',
    ],
    [
      'a signal',
      { kind: 'exited', code: null, signal: 'SIGSEGV' },
      'crash',
      'the program was killed by SIGSEGV before printing results for this case',
    ],
    [
      'a crash while loading',
      { kind: 'exited', code: 1, signal: null, beforeAnyCase: true },
      'crash',
      'the program exited with code 1 before running any case (it fails while loading: see its output)',
    ],
    [
      'an exit 0 without a line',
      { kind: 'exited', code: 0, signal: null },
      'no-output',
      'the program exited with code 0 before printing results for this case',
    ],
    [
      'an exit 0 before any case',
      { kind: 'exited', code: 0, signal: null, beforeAnyCase: true },
      'no-output',
      'the program exited with code 0 before running any case without printing a result line',
    ],
    [
      'a timeout',
      { kind: 'timeout', timeoutMs: 2000, calling: { call: 1, ms: 1995 } },
      'timeout',
      'call 1 of 1 (Read) did not return within 2 s — an infinite loop or a promise that never settles in your code',
    ],
    [
      'a timeout while loading',
      { kind: 'timeout', timeoutMs: 12000, beforeAnyCase: true },
      'timeout',
      'the program did not finish loading within 12 s, before running any case: code at the top level of a module that never ends (a loop, an `await`), or a machine too busy to load it in time (raise the limit with --timeout <ms>). It was killed with every process it started',
    ],
    [
      'an unsettled promise',
      { kind: 'exited', code: 13, signal: null, calling: { call: 1, ms: 5 } },
      'crash',
      'call 1 of 1 (Read) never returned: a promise in your code never settled — an `await` on something that never resolves. Node exited with code 13 when nothing was left to run',
    ],
    [
      'a flood without a line break',
      { kind: 'overflow', limitBytes: 8 * 1024 * 1024 },
      'bad-output',
      'the program printed over 8 MB on stdout without a line break and was killed',
    ],
    [
      "its channel's answers left unread",
      { kind: 'overflow', limitUnread: 16 * 1024 * 1024, channel: true },
      'bad-output',
      "the program left over 16 MB of the grader's answers on its channel unread and was killed: the driver reads each answer before it asks again",
    ],
    [
      'a spawn failure',
      { kind: 'spawn-failed', message: 'spawn ENOENT' },
      'crash',
      'the program could not be started: spawn ENOENT',
    ],
  ])('fails %s', (_, outcome, kind, message) => {
    const result = judge(outcome, 'boom\n');
    expect([result.status, result.failure?.kind, result.failure?.message, result.output]).toEqual([
      'fail',
      kind,
      message,
      'boom\n',
    ]);
  });
});

describe('judgeCase: a program that fails before its first case', () => {
  const syntaxError =
    'Error [TransformError]: Transform failed with 1 error:\n/c/src/execute.ts:8:36: ERROR: Expected ")" but found ";"\n';
  const run = (outcome: CaseOutcome, afterProbe: boolean) =>
    judgeCase(readCase, snapshot, { name: 'read-a', outcome, output: syntaxError, durationMs: 0, afterProbe });

  it('is marked as such, with a hint naming the cause read off its output', () => {
    const failure = run({ kind: 'exited', code: 1, signal: null, beforeAnyCase: true }, false).failure;
    expect(failure).toEqual({
      kind: 'crash',
      message: 'the program exited with code 1 before running any case (it fails while loading: see its output)',
      beforeAnyCase: true,
      hint: '/c/src/execute.ts:8:36 does not compile (Expected ")" but found ";"): fix it and save. Nothing runs until every file the program imports compiles',
    });
  });

  it("is told by its output in a process's first case, which has no probe", () => {
    const failure = run({ kind: 'exited', code: 1, signal: null }, false).failure;
    expect([failure?.beforeAnyCase, failure?.message]).toEqual([
      true,
      'the program exited with code 1 before running any case (it fails while loading: see its output)',
    ]);
    expect(failure?.hint).toMatch(/does not compile/);
  });

  it('is not guessed for a case that ran after the probe: the program had loaded', () => {
    const failure = run({ kind: 'exited', code: 1, signal: null }, true).failure;
    expect([failure?.beforeAnyCase, failure?.hint]).toEqual([undefined, undefined]);
  });

  it('is not guessed once a call of the case has started: the program had loaded', () => {
    const failure = run({ kind: 'exited', code: 1, signal: null, calling: { call: 1, ms: 3 } }, false).failure;
    expect([failure?.beforeAnyCase, failure?.message]).toEqual([
      undefined,
      'the program exited with code 1 during call 1 of 1 (Read), before printing results for this case',
    ]);
  });

  it.each<[string, CaseOutcome]>([
    ['a timeout while loading', { kind: 'timeout', timeoutMs: 12000, beforeAnyCase: true }],
    ['a spawn failure', { kind: 'spawn-failed', message: 'spawn ENOENT', beforeAnyCase: true }],
  ])('is marked for %s too, without a load hint', (_, outcome) => {
    const failure = run(outcome, false).failure;
    expect([failure?.beforeAnyCase, failure?.hint]).toEqual([true, undefined]);
  });
  it('a bad first line is named as a print while the code loads (a console.log at the top level)', () => {
    const failure = run(
      { kind: 'bad-line', reason: 'printed a line that is not JSON: "hi"', beforeAnyCase: true },
      false,
    ).failure;
    expect(failure?.beforeAnyCase).toBe(true);
    expect(failure?.hint).toMatch(
      /^something prints on stdout while your code is loaded: a `console\.log` at the top level of a module/,
    );
  });
});

describe('noSnapshot', () => {
  it('fails the case with the command a course author runs to make its snapshot', () => {
    expect(noSnapshot(readCase).failure).toEqual({
      kind: 'no-snapshot',
      message:
        'the stage has no snapshot for this case (a course author runs `theinference snapshot --stage register-tools --case read-a` to make it)',
    });
  });
});

describe('a program that reached a limit of its process', () => {
  it('is said to have, when Node aborted because its heap could not grow', () => {
    const output = 'FATAL ERROR: CALL_AND_RETRY_LAST Allocation failed - JavaScript heap out of memory\n';
    const failure = judge(
      { kind: 'exited', code: null, signal: 'SIGABRT', calling: { call: 1, ms: 900 } },
      output,
    ).failure;
    expect(failure?.message).toMatch(/^out of memory: the program was killed by SIGABRT during call 1 of 1 \(Read\)/);
    expect(failure?.hint).toBe(OUT_OF_MEMORY.hint);
  });

  it('is said to have, when execute threw for want of a buffer', () => {
    const failure = judge({
      kind: 'results',
      results: [{ threw: 'RangeError: Array buffer allocation failed' }],
    }).failure;
    expect(failure?.message).toBe(
      'out of memory: call 1 of 1 (Read) differs: execute threw instead of returning a result: "RangeError: Array buffer allocation failed"',
    );
    expect(failure?.hint).toBe(OUT_OF_MEMORY.hint);
  });

  it.each<[string, unknown, string, LimitReached]>([
    [
      'a spawn that failed for want of a process',
      { threw: 'Error: spawn sleep EAGAIN' },
      'too many processes',
      TOO_MANY_PROCESSES,
    ],
    [
      "a tool's error from a fork that failed",
      { content: 'bash: fork: retry: Resource temporarily unavailable', is_error: true },
      'too many processes',
      TOO_MANY_PROCESSES,
    ],
    ['a write past the file size', { threw: 'Error: EFBIG: file too large, write' }, 'file too large', FILE_TOO_LARGE],
    [
      'a command killed for writing past it',
      { content: 'bash: line 1: 12 File size limit exceeded  seq 1e9 > big', is_error: true },
      'file too large',
      FILE_TOO_LARGE,
    ],
  ])('is said to have, for %s', (_, received, name, limit) => {
    const failure = judge({ kind: 'results', results: [received as { content: string }] }).failure;
    expect(failure?.message).toMatch(new RegExp(`^${name}: call 1 of 1 \\(Read\\) differs: `));
    expect([failure?.hint, failure?.hintCause]).toEqual([limit.hint, name]);
  });

  it('is not said of a result that merely mentions a limit without being an error', () => {
    const failure = judge({ kind: 'results', results: [{ content: 'EFBIG EAGAIN' }] }).failure;
    expect(failure?.message).toMatch(/^call 1 of 1 \(Read\) differs: /);
  });

  it('is not said of any other crash', () => {
    expect(
      judge({ kind: 'exited', code: 1, signal: null, calling: { call: 1, ms: 1 } }, 'Error: boom\n').failure?.hint,
    ).not.toBe(OUT_OF_MEMORY.hint);
  });
});
