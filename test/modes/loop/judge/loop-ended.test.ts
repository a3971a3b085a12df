// A loop case whose process timed out or ended mid-case, named by where the loop stood: program.ts's progress
// line `call k` means turns 1 to k-1 were served.
import { describe, expect, it } from 'vitest';
import { loopExited, loopTimeout } from '../../../../src/modes/loop/judge/loop-ended.ts';
import { apiErrorCase, loopCase } from './loop-fixture.ts';

const timeout = (call?: number) => ({
  kind: 'timeout' as const,
  timeoutMs: 10_000,
  ...(call === undefined ? {} : { calling: { call, ms: 9000 } }),
});
const exited = (code: number | null, signal: string | null, call: number) => ({
  kind: 'exited' as const,
  code,
  signal,
  calling: { call, ms: 5 },
});

describe('loopTimeout', () => {
  it.each([
    [1, 'runLoop did not return within 10 s: it stood before its first request.'],
    [2, 'runLoop did not return within 10 s: it stood after turn 1 of 2 (stop_reason "tool_use"), before request 2.'],
    [
      3,
      'runLoop did not return within 10 s: it stood after turn 2 of 2 (stop_reason "end_turn"), the script\'s last, where the loop returns.',
    ],
    [
      4,
      "runLoop did not return within 10 s: it stood after request 3, past the script's 2 turns (the fake API answered it with an error).",
    ],
  ])('heading for request %i', (call, message) => {
    expect(loopTimeout(loopCase, timeout(call), false, false).message).toBe(
      `${message} The program was killed with every process it started`,
    );
  });

  it('blames going on past the script where the loop stood there, and a hang in the loop before', () => {
    expect(loopTimeout(loopCase, timeout(4), false, false).hint).toMatch(/^a loop that goes on after a turn/);
    expect(loopTimeout(loopCase, timeout(2), false, false).hint).toMatch(
      /^look at what your loop does after a response/,
    );
  });

  it.each([
    [
      2,
      'after turn 1 of 1 (stop_reason "tool_use"), the script\'s last, before request 2, which the fake API answers with the case\'s API error (HTTP 529 overloaded_error)',
    ],
    [
      3,
      "after request 2, which the fake API answered with the case's API error (HTTP 529 overloaded_error), where the error leaves the loop",
    ],
  ])('heading for request %i of a case whose request 2 gets an API error', (call, where) => {
    expect(loopTimeout(apiErrorCase, timeout(call), false, false).message).toContain(`it stood ${where}.`);
  });

  it('blames a loop that stood after the API error for catching it', () => {
    expect(loopTimeout(apiErrorCase, timeout(3), false, false).hint).toMatch(
      /^a loop that catches the API error and tries again never ends here .*: let the error leave runLoop as the SDK threw it$/,
    );
  });

  it('says the program did not load when nothing of it had run, as for any stage', () => {
    expect(loopTimeout(loopCase, timeout(), true, true).message).toMatch(
      /^the program did not finish loading within 10 s/,
    );
  });
});

describe('loopExited', () => {
  it('names where the loop stood when the program exited, was killed, or ran out of work', () => {
    expect(loopExited(loopCase, exited(1, null, 2), false)).toMatchObject({
      kind: 'crash',
      message:
        'the program exited with code 1 while runLoop ran, after turn 1 of 2 (stop_reason "tool_use"), before request 2, before printing results for this case',
      hint: expect.stringMatching(/a `process\.exit`/),
    });
    expect(loopExited(loopCase, exited(null, 'SIGKILL', 1), false).message).toBe(
      'the program was killed by SIGKILL while runLoop ran, before its first request, before printing results for this case',
    );
    expect(loopExited(loopCase, exited(13, null, 2), false).message).toMatch(
      /^runLoop never settled after turn 1 of 2 .*: a promise in your loop never resolves/,
    );
  });
});
