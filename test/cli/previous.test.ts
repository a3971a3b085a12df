// `test --stage <slug> --previous`, by the real binary: the stage first, then the earlier stages the course
// directory has reached, each apart; the run fails when any of them does; a course directory that has reached no
// earlier stage is graded exactly as without the flag; the gradescope report, the summary and the line printed
// count every stage, for one course directory and for a class.
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCases } from '../../src/course/load-cases.ts';
import { STAGES } from '../../src/course/stages.ts';
import { failedRecordPath } from '../../src/grade/failed-record.ts';
import { makeCourse, REPO } from '../grade/course-fixture.ts';
import { useBinary } from '../support/binary.ts';

const { scratch, theinference } = useBinary();
// Every case of a stage or two, graded by the binary in the sandbox: on a busy 2-core machine, more than a minute.
const E2E_MS = 180_000;

// A course directory at register-tools that wrote the reference loop at agent-loop before.
async function bothStages(loop = join(REPO, 'src', 'agent-loop.ts')): Promise<string> {
  const course = await makeCourse(scratch);
  await copyFile(loop, join(course, 'src', 'agent-loop.ts'));
  return course;
}
const grade = (course: string, ...args: string[]) =>
  theinference(['test', '--stage', 'register-tools', '--case', 'course-*', '--isolation', 'required', ...args], course);

describe('theinference test --previous', () => {
  it(
    'grades the stage, then the earlier one the course directory has reached, each under its name',
    async () => {
      const loopCases = (await loadCases(REPO, 'agent-loop')).length;
      const { exitCode, stdout } = await grade(await bothStages(), '--previous');
      expect(exitCode).toBe(0);
      const current = stdout.indexOf('═══ register-tools "Register the toolset" (this stage) ═══\n');
      const earlier = stdout.indexOf('═══ agent-loop "Run the loop" (an earlier stage) ═══\n');
      expect(current).toBeGreaterThanOrEqual(0);
      expect(earlier).toBeGreaterThan(current);
      expect(stdout.indexOf(' Stage  agent-loop\n')).toBeGreaterThan(earlier);
      expect(stdout).toContain(' Stages register-tools ✓ | agent-loop ✓\n');
      expect(stdout.split('\n')).toContain(`${3 + loopCases} passed, 0 failed`);
    },
    E2E_MS,
  );

  it(
    'fails when an earlier stage fails though the stage passes, and says how to re-run that one',
    async () => {
      const course = await bothStages(join(REPO, 'test', 'fixtures', 'wrong-loop', 'system-dropped.ts'));
      const { exitCode, stdout } = await grade(course, '--previous');
      expect(exitCode).toBe(1);
      expect(stdout).toContain(' Stages register-tools ✓ | agent-loop ✗\n');
      const record = JSON.parse(await readFile(failedRecordPath(course, 'agent-loop'), 'utf8')) as { failed: string[] };
      expect(record.failed).toContain('request-system-as-blocks');
      // The binary inherits this suite's environment: in a CI job it keeps no record, so it re-grades the stage.
      const rerun = process.env.CI === undefined || process.env.CI === '' ? ' --failed' : '';
      expect(stdout).toMatch(
        new RegExp(`\\nRe-run just the failures:\\nnpx theinference test --stage agent-loop${rerun}$`),
      );
    },
    E2E_MS,
  );

  it(
    'counts every stage in the gradescope report, the --summary row and the line it prints',
    async () => {
      const loopCases = (await loadCases(REPO, 'agent-loop')).length;
      const course = await bothStages(join(REPO, 'test', 'fixtures', 'wrong-loop', 'system-dropped.ts'));
      const out = join(scratch.root, 'one');
      await mkdir(out);
      const [results, summary] = [join(out, 'results.json'), join(out, 'summary.csv')];
      const { exitCode, stdout } = await grade(
        course,
        '--previous',
        '--reporter',
        'gradescope',
        '--output',
        results,
        '--summary',
        summary,
      );
      expect(exitCode).toBe(1);
      const gradescope = JSON.parse(await readFile(results, 'utf8'));
      const { passed, failed } = gradescope.extra_data;
      expect(passed + failed).toBe(3 + loopCases);
      expect(gradescope.extra_data.stages).toEqual([
        { stage: 'register-tools', task_id: 2, passed: 3, failed: 0 },
        { stage: 'agent-loop', task_id: 1, passed: passed - 3, failed },
      ]);
      expect(failed).toBeGreaterThan(0);
      expect([gradescope.score, gradescope.max_score]).toEqual([passed, 3 + loopCases]);
      expect(stdout.split('\n')[0]).toBe(`${passed} passed, ${failed} failed`);
      const rows = (await readFile(summary, 'utf8')).split('\r\n');
      expect(rows[1]?.split(',').slice(1, 4)).toEqual([String(passed), String(failed), 'fail']);
    },
    E2E_MS,
  );

  it(
    "grades a class's every submission on the earlier stages it reached, its summary row counting them",
    async () => {
      const loopCases = (await loadCases(REPO, 'agent-loop')).length;
      const root = join(scratch.root, 'class');
      await mkdir(join(root, 'reports'), { recursive: true });
      // alice wrote a loop that drops the system prompt before; bob never did the loop stage.
      const alice = await bothStages(join(REPO, 'test', 'fixtures', 'wrong-loop', 'system-dropped.ts'));
      const bob = await makeCourse(scratch);
      const { exitCode } = await theinference(
        [
          'test',
          '--stage',
          'register-tools',
          '--case',
          'course-*',
          '--isolation',
          'required',
          '--dir',
          alice,
          '--dir',
          bob,
          '--previous',
          '--reporter',
          'gradescope',
          '--output',
          'reports/{name}.json',
          '--summary',
          'summary.json',
        ],
        root,
      );
      expect(exitCode).toBe(1);
      const summary = JSON.parse(await readFile(join(root, 'summary.json'), 'utf8'));
      const rows = summary.submissions as { name: string; passed: number; failed: number; verdict: string }[];
      const row = (dir: string) => rows.find((r) => dir.endsWith(r.name))!;
      const report = async (dir: string) =>
        JSON.parse(await readFile(join(root, 'reports', `${row(dir).name}.json`), 'utf8'));
      const [a, b] = [await report(alice), await report(bob)];
      expect([row(alice).passed + row(alice).failed, row(alice).verdict]).toEqual([3 + loopCases, 'fail']);
      expect([a.extra_data.passed, a.extra_data.failed]).toEqual([row(alice).passed, row(alice).failed]);
      expect(a.extra_data.stages.map((s: { stage: string }) => s.stage)).toEqual(['register-tools', 'agent-loop']);
      expect([row(bob).passed, row(bob).failed, row(bob).verdict]).toEqual([3, 0, 'pass']);
      expect([b.extra_data.passed, b.extra_data.failed, b.extra_data.stages]).toEqual([3, 0, undefined]);
    },
    E2E_MS,
  );

  it(
    'grades a course directory that has reached no earlier stage as without --previous, and names the stage it left out',
    async () => {
      const course = await makeCourse(scratch);
      const times = (text: string) => text.replace(/\d+ ms\b/g, 'N ms').replace(/\d+\.\d\d s\b/g, 'N s');
      const [alone, previous] = [await grade(course), await grade(course, '--previous')];
      // The course is at the second stage, its first one's file absent.
      const [first] = STAGES;
      const warning = `warning: --previous did not grade the earlier stage ${first!.slug} (${first!.writes.join(', ')}): the course directory does not have its file`;
      expect(previous.stdout).toContain(warning);
      const without = previous.stdout.replace(`${warning}\n\n`, '');
      expect([previous.exitCode, times(without)]).toEqual([alone.exitCode, times(alone.stdout)]);
    },
    E2E_MS,
  );
});
