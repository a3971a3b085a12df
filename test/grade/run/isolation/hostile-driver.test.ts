// Issue 24's attacks on the driver, each asserted against the trusted job (test/support/trusted-job.ts: a separate
// install of the grader, the submission a plain checkout, graded with --dir, CI set): the grader runs the driver of
// its own install, never the submission's program.ts, and nothing in the submission (tsconfig.json `paths` or
// `extends`, package.json `imports` or `exports`) changes which module the driver loads. A stub src/execute.ts fails
// every case whatever program.ts does; a correct one passes whatever program.ts holds, with a one-line note.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useScratch } from '../../course-fixture.ts';
import { checkOut, gradeStep, installGrader, type Step } from '../../../support/trusted-job.ts';
import { COURSE_CASES, jsonTests, survivorsIn } from './hostile-course.ts';

const scratch = useScratch();
let grader: string;
beforeAll(async () => {
  grader = await installGrader(scratch.root);
});

const NOTE = "program.ts is not the course's: the grader never runs it (it runs its own driver)";
const statuses = (step: Step): string[] => [...jsonTests(step.stdout).values()].map((t) => t.status);
const outputs = (step: Step): string => [...jsonTests(step.stdout).values()].map((t) => t.output ?? '').join('\n');
const messages = (step: Step): string[] => [...jsonTests(step.stdout).values()].map((t) => t.message ?? '');

describe("the submission's program.ts never grades it", () => {
  it.each([
    ['hostile-own-dispatcher', 'imports a dispatcher of its own instead of src/execute.ts'],
    ['hostile-program-prints-results', 'prints results worked out of the cases'],
  ])('fails the stub of %s (a program.ts that %s), in every reporter, with the note', async (scenario) => {
    const submission = await checkOut(scratch.root, scenario);
    const json = await gradeStep(grader, scratch.root, submission, [...COURSE_CASES, '--reporter', 'json']);
    expect([json.exitCode, statuses(json)]).toEqual([1, ['fail', 'fail', 'fail']]);
    // Why: the stub's own results, against what the course expects.
    expect(messages(json).every((m) => m.includes('stub'))).toBe(true);
    expect(json.stderr).toContain(`warning: ${NOTE}`);
    const pretty = await gradeStep(grader, scratch.root, submission, COURSE_CASES);
    expect(pretty.exitCode).toBe(1);
    expect(pretty.stdout).toContain('0 passed, 3 failed');
    expect(pretty.stdout).toContain(NOTE);
    expect(await survivorsIn(join(scratch.root, 'submissions'))).toEqual([]);
  });

  it('fails the stub of hostile-redirect-imports: its tsconfig.json and package.json redirect none of the driver', async () => {
    const submission = await checkOut(scratch.root, 'hostile-redirect-imports');
    const step = await gradeStep(grader, scratch.root, submission, [...COURSE_CASES, '--reporter', 'json']);
    expect([step.exitCode, statuses(step)]).toEqual([1, ['fail', 'fail', 'fail']]);
    expect(messages(step).every((m) => m.includes('stub'))).toBe(true);
    expect(`${outputs(step)}${step.stderr}`).not.toContain('EVIL MODULE LOADED');
  });

  it('fails each attack in a class, and passes an honest submission beside them', async () => {
    const attacks = await Promise.all(
      ['hostile-own-dispatcher', 'hostile-program-prints-results', 'hostile-redirect-imports'].map((s) =>
        checkOut(scratch.root, s),
      ),
    );
    const honest = await checkOut(scratch.root, 'outdated-program');
    const dirs = [...attacks, honest].flatMap((dir) => ['--dir', dir]);
    const step = await gradeStep(grader, scratch.root, attacks[0]!, [...dirs.slice(2), ...COURSE_CASES]);
    const line = (dir: string): string | undefined =>
      step.stdout.split('\n').find((r) => r.includes(` ${dir.slice(dir.lastIndexOf('/') + 1)} — `));
    for (const dir of attacks) expect(line(dir)).toMatch(/ — 0 passed, 3 failed$/);
    expect(line(honest)).toMatch(/ — 3 passed, 0 failed$/);
    expect(step.stdout).toMatch(/^1 of 4 submissions passed/m);
    // The note, once per submission whose program.ts is not the course's (all but hostile-redirect-imports).
    expect(step.stderr.split('\n').filter((l) => l.includes(NOTE))).toHaveLength(3);
  });
});

describe("the grader's contract table is not the submission's to borrow", () => {
  it('fails a dispatcher that imports the dispatcher contract beside the driver: the sandbox does not show it', async () => {
    const submission = await checkOut(scratch.root, 'hostile-borrows-contract');
    const step = await gradeStep(grader, scratch.root, submission, [...COURSE_CASES, '--reporter', 'json']);
    // Its import fails while it loads: the program did not start, an error on every case.
    expect([step.exitCode, statuses(step)]).toEqual([1, ['error', 'error', 'error']]);
    expect(messages(step).every((m) => m.startsWith('your program did not start'))).toBe(true);
    expect(JSON.parse(step.stdout).message).toMatch(/Cannot find module '[^']*\/course\/dispatcher-contract\.ts'/);
  });
});

describe("the probe's observation is the program's word: it never stops a run", () => {
  it('grades a class beside a dispatcher that swaps its observation for one nested 3,000 deep', async () => {
    const hostile = await checkOut(scratch.root, 'hostile-deep-observation');
    const honest = await checkOut(scratch.root, 'outdated-program');
    const step = await gradeStep(grader, scratch.root, hostile, ['--dir', honest, ...COURSE_CASES]);
    const line = (dir: string): string | undefined =>
      step.stdout.split('\n').find((r) => r.includes(` ${dir.slice(dir.lastIndexOf('/') + 1)} — `));
    expect(step.exitCode).toBe(1);
    expect(line(hostile)).toMatch(/ — \d passed, [1-3] failed$/);
    expect(line(honest)).toMatch(/ — 3 passed, 0 failed$/);
    expect(step.stderr).not.toContain('internal error');
  });
});

describe('a correct submission grades the same whatever its program.ts holds', () => {
  it('passes with the old 774-line program.ts an earlier init wrote, saying so in one line', async () => {
    const submission = await checkOut(scratch.root, 'outdated-program');
    const json = await gradeStep(grader, scratch.root, submission, [...COURSE_CASES, '--reporter', 'json']);
    expect([json.exitCode, statuses(json)]).toEqual([0, ['pass', 'pass', 'pass']]);
    expect(json.stderr.split('\n').filter((l) => l.includes(NOTE))).toHaveLength(1);
    const pretty = await gradeStep(grader, scratch.root, submission, COURSE_CASES);
    expect([pretty.exitCode, pretty.stdout.split('\n').filter((l) => l.includes(NOTE)).length]).toEqual([0, 1]);
  });

  it("says nothing of program.ts when it is the course's", async () => {
    const submission = await checkOut(scratch.root, 'harmless');
    const step = await gradeStep(grader, scratch.root, submission, COURSE_CASES);
    expect(`${step.stdout}${step.stderr}`).not.toContain(NOTE);
  });
});
