// The real binary, end to end: `node bin/theinference.js …` with NO_COLOR, asserting stdout and exit codes,
// and that the grader's TMPDIR is empty and no process is left behind afterwards.
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { loadCases } from '../../src/course/load-cases.ts';
import { makeCourse, processRunning, REPO } from '../grade/course-fixture.ts';
import { useBinary } from '../support/binary.ts';
import { literally, STAGE_LINES, unknownStage } from '../support/stage-lists.ts';
import { sampleChildren, zombiesLeftBy } from '../support/child-zombies.ts';

const BIN = join(REPO, 'bin', 'theinference.js');
const { scratch, env, theinference } = useBinary();

// The course directories of this file's tests: a background sleep left in one of them is a leak.
const courses: string[] = [];

afterEach(async () => {
  for (const dir of courses.splice(0)) expect(await processRunning('sleep 987654', dir)).toBe(false);
});

// Resolves once the grader of the 'hangs' course in `course` has passed its Bash case: its background sleep is
// there, in the course directory; a moment more, and Glob is hanging.
async function bashHasRun(course: string): Promise<void> {
  while (!(await processRunning('sleep 987654', course))) await sleep(50);
  await sleep(500);
}

describe('theinference (the binary)', () => {
  it('lists the stages', async () => {
    const { exitCode, stdout } = await theinference(['stages']);
    expect(exitCode).toBe(0);
    expect(stdout).toMatch(new RegExp(`^${STAGE_LINES.join('\\n')}$`, 'm'));
  });

  it('passes the reference in this repository on every case of the stage', async () => {
    const count = (await loadCases(REPO, 'register-tools')).length;
    const { exitCode, stdout } = await theinference(['test', '--stage', 'register-tools', '--dir', REPO]);
    expect(stdout.split('\n')).toContain(`${count} passed, 0 failed`);
    expect(exitCode).toBe(0);
  });

  it('finds every committed snapshot up to date', async () => {
    const { exitCode, stdout } = await theinference(['snapshot', '--stage', 'register-tools', '--check']);
    // One line, not one per case: --check lists only what needs attention.
    expect(stdout).toMatch(/^\d+ up to date$/);
    expect(exitCode).toBe(0);
  });

  it.each([
    [['test', '--stage', 'nope'], new RegExp(`^${literally(unknownStage('nope').trimEnd())}`)],
    [
      ['test', '--stage', 'register-tools', '--dir', 'test'],
      /^error: .*test has no program\.ts\. .*npx theinference init <dir>/,
    ],
  ])('exits 2 on misuse: %j', async (args, message) => {
    const { exitCode, stdout, stderr } = await theinference(args);
    expect([exitCode, stdout]).toEqual([2, '']);
    expect(stderr).toMatch(message);
  });

  it('kills a hung case with its children, grades the rest, and prints the re-run command', async () => {
    const course = await makeCourse(scratch, 'hangs');
    courses.push(course);
    const args = ['test', '--stage', 'register-tools', '--case', 'course-*', '--jobs', '1', '--timeout', '2000'];
    const { exitCode, stdout } = await theinference(args, course);
    expect(exitCode).toBe(1);
    expect(stdout).toContain('✗ course-glob-everything — ');
    expect(stdout).toContain(
      '  call 1 of 1 (Glob) did not return within 2 s — an infinite loop or a promise that never settles in your code\n  input: {"pattern":"**"}\n',
    );
    expect(stdout.split('\n').slice(-4)).toEqual([
      '2 passed, 1 failed',
      '',
      'Re-run just the failures:',
      'npx theinference test --stage register-tools --timeout 2000 --case course-glob-everything',
    ]);
  });

  it("shows a program that does not compile with the compiler's words, each line marked as the program's", async () => {
    const course = await makeCourse(scratch, 'does-not-compile');
    const { exitCode, stdout } = await theinference(
      ['test', '--stage', 'register-tools', '--case', 'course-*'],
      course,
    );
    expect(exitCode).toBe(1);
    expect(stdout).toContain(
      'the program exited with code 1 before running any case (it fails while loading: see its output)',
    );
    expect(stdout).toMatch(/^ {2}\[your_program\] .*src\/execute\.ts:8:\d+: ERROR: Expected "\)" but found ";"$/m);
    expect(stdout.split('\n')).toContain('0 passed, 3 failed');
  });

  it('exits 0 quietly when whoever reads its output goes away (`… | head`): a closed pipe is not an interrupt', async () => {
    // The stub fails every case: its TAP report is far more than a pipe holds, so writing it meets the closed end.
    const course = await makeCourse(scratch);
    await cp(join(REPO, 'course-template', 'src', 'execute.ts'), join(course, 'src', 'execute.ts'));
    const command = `node ${BIN} test --stage register-tools --reporter tap | head -c 100 > /dev/null; echo "exit \${PIPESTATUS[0]}"`;
    const { stdout, stderr } = await execa('bash', ['-c', command], { cwd: course, env: env(), reject: false });
    expect([stdout, stderr]).toEqual(['exit 0', '']);
  });

  it('stops cleanly on Ctrl-C: exit 130, program processes killed, temp dirs removed', async () => {
    const course = await makeCourse(scratch, 'hangs');
    courses.push(course);
    const args = ['test', '--stage', 'register-tools', '--case', 'course-*', '--jobs', '1', '--timeout', '600000'];
    const grader = execa('node', [BIN, ...args], { cwd: course, env: env(), reject: false });
    await bashHasRun(course);
    grader.kill('SIGINT');
    const { exitCode, stderr } = await grader;
    expect(exitCode).toBe(130);
    expect(stderr).toContain('interrupted: every program process was stopped and its temp directory removed');
  });

  // Every kind of process the grader starts: early standbys (two, one left unused when a batch is handed back), a
  // hung case killed, the isolation re-check, the reference (snapshot), and a run stopped by Ctrl-C.
  it.each<[string, string | undefined, string[], boolean]>([
    ['a hang killed, standbys', 'hangs', ['test', '--case', 'course-*', '--jobs', '2', '--timeout', '1500'], false],
    // Every case passes alone: the re-check finds the leak, re-runs the failures alone, and fails them for it.
    ['the isolation re-check', 'leaks-call-budget', ['test', '--case', 'course-*', '--case', 'read-*'], false],
    ['the reference', undefined, ['snapshot', '--case', 'course-*', '--check'], false],
    ['a run stopped by Ctrl-C', 'hangs', ['test', '--case', 'course-*', '--timeout', '600000'], true],
  ])(
    'exits only once every process it started was waited for, leaving no <defunct>: %s',
    async (_, scenario, args, interrupt) => {
      const cwd = scenario === undefined ? REPO : await makeCourse(scratch, scenario);
      if (scenario !== undefined) courses.push(cwd);
      const [command = '', ...rest] = args;
      const grader = execa('node', [BIN, command, '--stage', 'register-tools', ...rest], {
        cwd,
        env: env(),
        reject: false,
        // A session of its own, so that what it starts without one (the sandbox probe) is found by its session.
        detached: true,
      });
      const children = sampleChildren(grader.pid!);
      if (interrupt) {
        await bashHasRun(cwd);
        grader.kill('SIGINT');
      }
      const { exitCode } = await grader;
      const seen = [grader.pid!, ...children.stop()];
      expect([exitCode, seen.length > 1]).toEqual([interrupt ? 130 : scenario === undefined ? 0 : 1, true]);
      expect(await zombiesLeftBy(seen)).toEqual([]);
    },
  );

  it('stops within a second of SIGTERM, mid-run, leaving nothing running and no temp dir', async () => {
    const course = await makeCourse(scratch, 'hangs');
    courses.push(course);
    const args = ['test', '--stage', 'register-tools', '--jobs', '2', '--timeout', '600000'];
    const grader = execa('node', [BIN, ...args], { cwd: course, env: env(), reject: false });
    // Mid-run: a Bash call has left its background sleep in the course directory.
    while (!(await processRunning('sleep 987654', course))) await sleep(50);
    const sent = performance.now();
    grader.kill('SIGTERM');
    const { exitCode } = await grader;
    expect(performance.now() - sent).toBeLessThan(1000);
    expect(exitCode).toBe(130);
  });
});
