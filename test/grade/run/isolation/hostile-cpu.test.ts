// Issue 24's attack on the machine's CPU, against the trusted job (test/support/trusted-job.ts): a program whose
// case starts busy processes (within the process limit) is stopped once that case's processes have used their CPU
// budget together, long before its wall-clock timeout, and the verdict says it ran out of CPU time; what a case
// leaves running is killed when the case ends (src/modes/leftovers.ts); nothing it started survives.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { OUT_OF_CPU } from '../../../../src/grade/judge/limit-reached.ts';
import { CASE_CPU_SECONDS, OUT_OF_CPU_CASES } from '../../../../src/grade/run/isolation/program-limits.ts';
import { useScratch } from '../../course-fixture.ts';
import { checkOut, gradeStep, installGrader } from '../../../support/trusted-job.ts';
import { jsonTests, survivorsIn } from './hostile-course.ts';
import { REPO } from '../../../support/reference-course.ts';
import { loadCases } from '../../../../src/course/load-cases.ts';

const scratch = useScratch();
let grader: string;
beforeAll(async () => {
  grader = await installGrader(scratch.root);
});
afterEach(async () => expect(await survivorsIn(join(scratch.root, 'submissions'))).toEqual([]));

// The Glob calls of the stage's glob-* cases: how many in all, and the most one case makes.
async function globCalls(): Promise<{ total: number; mostInOneCase: number }> {
  const cases = await loadCases(REPO, 'register-tools');
  const perCase = cases
    .filter((c) => c.name.startsWith('glob-'))
    .map(
      (c) =>
        (c.data as unknown as { calls: Array<{ tool: string }> }).calls.filter((call) => /^glob$/i.test(call.tool))
          .length,
    );
  return { total: perCase.reduce((a, b) => a + b, 0), mostInOneCase: Math.max(...perCase) };
}

// A wall-clock timeout no CPU budget comes near: only the budget can end the case.
const TIMEOUT_MS = 120_000;

describe('CPU time', () => {
  it('stops a case whose 8 busy processes used its budget, well before its timeout, as out of CPU time', async () => {
    const submission = await checkOut(scratch.root, 'hostile-burns-cpu');
    const started = performance.now();
    const step = await gradeStep(grader, scratch.root, submission, [
      '--case',
      'course-bash-*',
      '--reporter',
      'json',
      '--timeout',
      String(TIMEOUT_MS),
    ]);
    const tookMs = performance.now() - started;
    expect(step.exitCode).toBe(1);
    const message = jsonTests(step.stdout).get('course-bash-echo-hi')?.message ?? '';
    expect(message).toMatch(
      new RegExp(
        `^ {2}out of CPU time: the program's processes used over ${CASE_CPU_SECONDS} s of CPU time during this case and were killed`,
        'm',
      ),
    );
    expect(message).toContain(`hint: ${OUT_OF_CPU.hint}`);
    // Killed by its CPU time (not run again alone, as a timeout is not), far from its timeout.
    expect(tookMs).toBeLessThan(TIMEOUT_MS / 2);
  }, 200_000);

  it(`runs none of a submission's other cases once ${OUT_OF_CPU_CASES} ran out of CPU time: each fails saying why`, async () => {
    const submission = await checkOut(scratch.root, 'hostile-burns-cpu');
    // Its Bash cases: each would hold the cores for its whole budget.
    const bash = readdirSync(join(REPO, 'cases', 'register-tools')).filter((f) => /^bash-.*\.json$/.test(f)).length;
    expect(bash).toBeGreaterThan(OUT_OF_CPU_CASES);
    const step = await gradeStep(grader, scratch.root, submission, ['--case', 'bash-*', '--reporter', 'json']);
    const tests = [...jsonTests(step.stdout).values()];
    expect([step.exitCode, tests.length, tests.some((t) => t.status === 'pass')]).toEqual([1, bash, false]);
    const burnt = tests.filter((t) => /used over \d+ s of CPU time during this case/.test(t.message ?? ''));
    const notRun = tests.filter((t) =>
      (t.message ?? '').includes(`out of CPU time: not run, because ${burnt.length} cases of this run ran out`),
    );
    // The batches stop at the fifth; those already running beside it may run out too.
    expect(burnt.length).toBeGreaterThanOrEqual(OUT_OF_CPU_CASES);
    expect(burnt.length + notRun.length).toBe(bash);
    expect(notRun.length).toBeGreaterThan(0);
  }, 200_000);

  it("kills what a case leaves running when the case ends: no Glob case finds an earlier case's busy processes", async () => {
    const submission = await checkOut(scratch.root, 'hostile-burns-cpu');
    // One process for every case, so that each later case would run beside what the earlier ones left.
    const step = await gradeStep(grader, scratch.root, submission, [
      '--case',
      'glob-*',
      '--jobs',
      '1',
      '--reporter',
      'json',
    ]);
    const tests = [...jsonTests(step.stdout).values()];
    expect([step.exitCode, tests.length, tests.every((t) => t.status === 'pass')]).toEqual([0, 10, true]);
    // Each Glob call counts what the Globs before it left running: only its own case's earlier calls' 4 each, never
    // an earlier case's. A loaded grader may show a line with the case before or after the one that printed it (the
    // output is attributed by when it is read), so the lines are taken together: had a case's end killed nothing,
    // the 15 calls of the 10 cases, run in one process, would count up to 56.
    const globs = await globCalls();
    const counts = tests.flatMap((t) =>
      [...(t.output ?? '').matchAll(/still running from earlier calls: (\d+)/g)].map((m) => Number(m[1])),
    );
    expect(counts.length).toBe(globs.total);
    expect(Math.max(...counts)).toBeLessThanOrEqual(4 * (globs.mostInOneCase - 1));
  });
});
