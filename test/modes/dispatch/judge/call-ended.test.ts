// The dispatch mode's verdict for a case whose process timed out or ended mid-case: which call was in flight, and
// what that means.
import { describe, expect, it } from 'vitest';
import type { Case } from '../../../../src/course/types.ts';
import type { DispatchCaseData } from '../../../../src/modes/dispatch/case.ts';
import { callExited, callTimeout } from '../../../../src/modes/dispatch/judge/call-ended.ts';
import { causeOf } from '../../../../src/grade/report/group-failures.ts';
import type { Failure } from '../../../../src/grade/types.ts';

const threeCalls: Case<DispatchCaseData> = {
  stage: 'register-tools',
  name: 'story',
  file: '/cases/register-tools/story.json',
  data: {
    description: 'd',
    calls: [
      { tool: 'Write', input: { path: 'a.txt', file_text: 'A' } },
      { tool: 'echo', input: { text: 'hi' } },
      { tool: 'Bash', input: { command: 'sleep 30' } },
    ],
  },
};
const LOOK_AT_ECHO = 'look at what `echo` runs in your code (its branch in makeExecute and the Tools method it calls)';

describe('callTimeout', () => {
  it('names the call that did not return, its input, and says a loop or a promise is the cause, not the limit', () => {
    const failure = callTimeout(
      threeCalls,
      { kind: 'timeout', timeoutMs: 10_000, calling: { call: 2, ms: 9990 } },
      false,
      false,
    );
    expect(failure).toEqual({
      kind: 'timeout',
      message:
        'call 2 of 3 (echo) did not return within 10 s — an infinite loop or a promise that never settles in your code',
      callIndex: 1,
      call: threeCalls.data.calls[1],
      hint: `${LOOK_AT_ECHO}: a loop that never ends, or an \`await\` on something that never resolves (a callback never called, an event never emitted)`,
    });
    expect(failure.message + failure.hint).not.toContain('--timeout');
  });

  it("says how long the call ran when earlier calls took part of the case's time", () => {
    const failure = callTimeout(
      threeCalls,
      { kind: 'timeout', timeoutMs: 10_000, calling: { call: 2, ms: 4120 } },
      false,
      false,
    );
    expect(failure.message).toBe(
      "call 2 of 3 (echo) had run 4.1 s without returning when the case's 10 s ran out — an infinite loop or a promise that never settles in your code",
    );
  });

  it('keeps the advice to raise the limit for a shell command, which may rightly take longer', () => {
    const failure = callTimeout(
      threeCalls,
      { kind: 'timeout', timeoutMs: 2000, calling: { call: 3, ms: 1999 } },
      false,
      false,
    );
    expect(failure.message).toBe(
      'call 3 of 3 (Bash) did not return within 2 s — its command may still be running, or your code waits for something that never comes',
    );
    expect(failure.hint).toMatch(
      /^if the command needs longer, raise the limit with --timeout <ms>\. If not, look at what `Bash` runs/,
    );
  });

  it('does not lead with --timeout for a shell command the reference runs within the default limit', () => {
    const failure = callTimeout(
      threeCalls,
      { kind: 'timeout', timeoutMs: 10_000, calling: { call: 3, ms: 9999 } },
      false,
      false,
    );
    expect(failure.message).toBe(
      'call 3 of 3 (Bash) did not return within 10 s — the reference runs this command within 10 s, so the wait is in your code',
    );
    expect(failure.hint).toMatch(/^look at what `Bash` runs in your code .*\. A higher --timeout would not help$/);
  });

  it('says no call had started when the program reports its calls and none of this case had', () => {
    expect(callTimeout(threeCalls, { kind: 'timeout', timeoutMs: 10_000, calling: 'none' }, false, false)).toEqual({
      kind: 'timeout',
      message:
        'no call of this case started within 10 s: seeding its files, `new Tools(…)` or your `makeExecute(tools)` did not finish — a loop or an `await` that never ends. The program was killed with every process it started',
    });
  });

  it.each<[string, boolean, string]>([
    ['after the probe', false, '(`new Tools(…)`, your `makeExecute(tools)`)'],
    ['first in its process', true, '(loading your code, `new Tools(…)`, your `makeExecute(tools)`)'],
  ])('claims nothing about the calls when no progress line said (an old program.ts), %s', (_, first, before) => {
    expect(callTimeout(threeCalls, { kind: 'timeout', timeoutMs: 10_000 }, first, false)).toEqual({
      kind: 'timeout',
      message: `the case did not finish within 10 s, and program.ts reported no call of it starting: a loop or an \`await\` that never ends in your code, before its first call ${before} or, if program.ts is an old copy that reports no calls, in a call. The program was killed with every process it started`,
    });
  });

  it('gives hangs in the same tool one cause, wherever the call is in its case, and hangs in another tool another', () => {
    const oneCall: Case<DispatchCaseData> = {
      ...threeCalls,
      name: 'echo-only',
      data: { description: 'd', calls: [threeCalls.data.calls[1]!] },
    };
    const result = (name: string, failure: Failure) => ({
      name,
      description: '',
      status: 'fail' as const,
      durationMs: 1,
      failure,
      output: '',
    });
    const here = callTimeout(
      threeCalls,
      { kind: 'timeout', timeoutMs: 10_000, calling: { call: 2, ms: 9990 } },
      false,
      false,
    );
    const there = callTimeout(
      oneCall,
      { kind: 'timeout', timeoutMs: 10_000, calling: { call: 1, ms: 9990 } },
      false,
      false,
    );
    const write = callTimeout(
      threeCalls,
      { kind: 'timeout', timeoutMs: 10_000, calling: { call: 1, ms: 9990 } },
      false,
      false,
    );
    expect(here.message).not.toBe(there.message);
    expect(causeOf(result('story', here))).toBe(causeOf(result('echo-only', there)));
    expect(causeOf(result('story', write))).not.toBe(causeOf(result('story', here)));
  });

  it('ignores a progress line naming a call the case does not have', () => {
    const failure = callTimeout(
      threeCalls,
      { kind: 'timeout', timeoutMs: 10_000, calling: { call: 4, ms: 10 } },
      false,
      false,
    );
    expect([failure.message.startsWith('the case did not finish within 10 s'), failure.call]).toEqual([
      true,
      undefined,
    ]);
  });
});

describe('callExited', () => {
  it('names an unsettled promise (exit 13) and the call that awaited it', () => {
    const failure = callExited(
      threeCalls,
      { kind: 'exited', code: 13, signal: null, calling: { call: 2, ms: 3 } },
      false,
    );
    expect(failure).toMatchObject({
      kind: 'crash',
      message:
        'call 2 of 3 (echo) never returned: a promise in your code never settled — an `await` on something that never resolves. Node exited with code 13 when nothing was left to run',
      callIndex: 1,
      hint: expect.stringMatching(/^look at what `echo` runs .*: an `await` on a promise that nothing resolves/),
    });
  });

  it('names an unsettled promise while loading, and the top-level await to look for', () => {
    expect(callExited(threeCalls, { kind: 'exited', code: 13, signal: null }, true)).toEqual({
      kind: 'crash',
      message:
        'a promise never settled while the program loaded. Node exited with code 13 when nothing was left to run, before running any case',
      hint: 'an `await` at the top level of a module (outside any function), in src/ or a module it imports, waits for something that never resolves: move it into a function, or make it settle',
    });
  });

  it.each<[string, 'none' | undefined, string]>([
    ['before the first call', 'none', "before this case's first call"],
    ['where no progress line said', undefined, 'before printing results for this case'],
  ])('names an unsettled promise %s', (_, calling, when) => {
    const outcome = { kind: 'exited' as const, code: 13, signal: null, ...(calling === undefined ? {} : { calling }) };
    expect(callExited(threeCalls, outcome, false)).toEqual({
      kind: 'crash',
      message: `a promise in your code never settled: an \`await\` on something that never resolves. Node exited with code 13 when nothing was left to run, ${when}`,
    });
  });

  it('says what ends a program with exit 0 before any case: a process.exit while loading', () => {
    expect(callExited(threeCalls, { kind: 'exited', code: 0, signal: null }, true)).toEqual({
      kind: 'no-output',
      message: 'the program exited with code 0 before running any case without printing a result line',
      hint: "something ends the process while your code is loaded, before any case runs: a `process.exit()` at the top level of a module (outside any function), or a program.ts that is not the course's",
    });
  });

  it('names the call in flight when the program exits', () => {
    const failure = callExited(
      threeCalls,
      { kind: 'exited', code: 3, signal: null, calling: { call: 3, ms: 40 } },
      false,
    );
    expect(failure.message).toBe(
      'the program exited with code 3 during call 3 of 3 (Bash), before printing results for this case',
    );
    expect(failure.hint).toMatch(/something there ends the process — a `process\.exit`/);
  });

  it('names the call in flight when the program is killed by a signal, without guessing why', () => {
    const failure = callExited(
      threeCalls,
      { kind: 'exited', code: null, signal: 'SIGKILL', calling: { call: 1, ms: 40 } },
      false,
    );
    expect([failure.message, failure.hint]).toEqual([
      'the program was killed by SIGKILL during call 1 of 3 (Write), before printing results for this case',
      undefined,
    ]);
  });
});
