// The stage agent-loop graded by the real binary, in the real sandbox: the reference loop passes every case with the
// real SDK against the fake Messages API on the sandbox's loopback; a wrong loop gets its hint; a loop that hangs or
// never stops gets a verdict naming where it stood, within the case timeout.
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCases } from '../../src/course/load-cases.ts';
import { makeLoopCourse, REPO } from '../grade/course-fixture.ts';
import { useBinary } from '../support/binary.ts';

const { scratch, theinference } = useBinary();
// Every case of a stage or two, graded by the binary in the sandbox: on a busy 2-core machine, more than a minute.
const E2E_MS = 180_000;
const grade = (course: string, ...args: string[]) =>
  theinference(['test', '--stage', 'agent-loop', '--isolation', 'required', ...args], course);

describe('theinference test --stage agent-loop', () => {
  it(
    'passes the reference loop on every case, sandboxed, in a course directory with no src/execute.ts',
    async () => {
      const count = (await loadCases(REPO, 'agent-loop')).length;
      const course = await makeLoopCourse(scratch);
      const { exitCode, stdout } = await grade(course);
      expect(stdout.split('\n')).toContain(`${count} passed, 0 failed`);
      expect(stdout).toContain(' Stage  agent-loop\n');
      expect(exitCode).toBe(0);
    },
    E2E_MS,
  );

  it(
    'names the first place a wrong loop went another way, with the hint for its mistake',
    async () => {
      const course = await makeLoopCourse(scratch);
      await copyFile(
        join(REPO, 'test', 'fixtures', 'wrong-loop', 'stops-on-text.ts'),
        join(course, 'src', 'agent-loop.ts'),
      );
      const { exitCode, stdout } = await grade(course, '--case', 'tools-text-before-tool-use');
      expect(exitCode).toBe(1);
      expect(stdout).toContain('tools-text-before-tool-use');
      expect(stdout).toContain(
        'runLoop returned after 1 request of 2: turn 1 ended with stop_reason "tool_use": the loop runs its tools, sends their results and calls the model again\n',
      );
      expect(stdout).toContain(
        '  hint: turn 1 has text and stop_reason "tool_use", and the loop stopped there: decide by stop_reason, not by what the turn holds; only "tool_use" goes on\n',
      );
    },
    E2E_MS,
  );

  it(
    'says a mistake once, whichever cases show it: the loop probe puts every failure under its finding',
    async () => {
      const course = await makeLoopCourse(scratch);
      await copyFile(
        join(REPO, 'test', 'fixtures', 'wrong-loop', 'assistant-not-appended.ts'),
        join(course, 'src', 'agent-loop.ts'),
      );
      const count = (await loadCases(REPO, 'agent-loop')).length;
      const { exitCode, stdout } = await grade(course);
      expect(exitCode).toBe(1);
      expect(stdout).toContain(`0 passed, ${count} failed`);
      // One message: the one-turn cases, whose own symptom is a returned conversation short of its last turn, are
      // put under the same finding as the rest.
      expect(stdout.match(/^ +hint: /gm)).toHaveLength(1);
      expect(stdout).toContain("  hint: the model's turn 1 is not in the conversation");
      expect(stdout).toContain(`  ${count - 1} more cases fail the same way:\n`);
    },
    E2E_MS,
  );

  it(
    'fails a loop that keeps its conversation between runs, in one message naming the state kept',
    async () => {
      const course = await makeLoopCourse(scratch, 'loop-keeps-history');
      const { exitCode, stdout } = await grade(course);
      expect(exitCode).toBe(1);
      expect(stdout.match(/^ +hint: /gm)).toHaveLength(1);
      expect(stdout).toContain(
        'hint: this case passed when run alone and failed after other cases ran in the same process',
      );
    },
    E2E_MS,
  );

  it(
    'stops a loop that hangs at the case timeout and says after which turn it stood',
    async () => {
      const course = await makeLoopCourse(scratch, 'loop-hangs');
      const { exitCode, stdout } = await grade(course, '--case', 'tools-single-call', '--timeout', '1500');
      expect(exitCode).toBe(1);
      expect(stdout).toContain(
        'runLoop did not return within 1.5 s: it stood after turn 1 of 2 (stop_reason "tool_use"), before request 2. The program was killed with every process it started',
      );
    },
    E2E_MS,
  );

  it(
    'stops a loop that goes on past the script and says so, in the JSON report too',
    async () => {
      const course = await makeLoopCourse(scratch, 'loop-keeps-going');
      const { exitCode, stdout } = await grade(
        course,
        '--case',
        'stop-end-turn-without-tools',
        '--timeout',
        '1500',
        '--reporter',
        'json',
      );
      expect(exitCode).toBe(1);
      const report = JSON.parse(stdout) as {
        stage: string;
        tests: { name: string; status: string; message: string }[];
      };
      expect(report.stage).toBe('agent-loop');
      expect(report.tests[0]).toMatchObject({ name: 'stop-end-turn-without-tools', status: 'error' });
      expect(report.tests[0]?.message).toMatch(
        /runLoop did not return within 1\.5 s: it stood after request \d+, past the script's 1 turn \(the fake API answered it with an error\)/,
      );
      expect(report.tests[0]?.message).toContain(
        'hint: a loop that goes on after a turn whose stop_reason is not "tool_use"',
      );
    },
    E2E_MS,
  );
});
