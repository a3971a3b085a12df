// Grading a class in process: one plan for every submission, each submission its own verdict (a broken one
// included), the same variants for all, and nothing left behind.
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HarnessError } from '../../src/errors.ts';
import { runClass, type ClassOptions } from '../../src/grade/run-class.ts';
import { writeAnswers } from '../support/lookup-table.ts';
import { makeCourse, processRunning, useScratch } from './course-fixture.ts';

const scratch = useScratch();
const CASES = ['course-*', 'story-edit-then-view'];

const grade = (submissions: ClassOptions['submissions'], options: Partial<ClassOptions> = {}) =>
  runClass({ stage: 'register-tools', cases: CASES, timeoutMs: 30_000, jobs: 2, submissions, ...options });

describe('runClass', () => {
  it('gives every submission its own verdict, counts and report, in name order, with the variants all share', async () => {
    const lookup = await makeCourse(scratch, 'lookup-table');
    await writeAnswers(lookup);
    const broken = await makeCourse(scratch);
    await rm(join(broken, 'program.ts'));
    const notModule = await makeCourse(scratch);
    await writeFile(join(notModule, 'package.json'), '{ "type": "commonjs" }\n');
    const heard: string[] = [];
    const report = await grade(
      [
        { name: 'reference', dir: await makeCourse(scratch) },
        { name: 'lookup', dir: lookup },
        { name: 'wont-compile', dir: await makeCourse(scratch, 'does-not-compile') },
        { name: 'no-program', dir: broken },
        { name: 'commonjs', dir: notModule },
      ],
      { variants: { seed: 12 }, onSubmission: (s) => heard.push(s.name) },
    );
    expect(report.submissions.map((s) => [s.name, s.verdict, s.passed, s.failed])).toEqual([
      ['commonjs', 'misuse', 0, 4],
      ['lookup', 'fail', 1, 3],
      ['no-program', 'misuse', 0, 4],
      ['reference', 'pass', 4, 0],
      ['wont-compile', 'did not start', 0, 4],
    ]);
    expect(heard.sort()).toEqual(report.submissions.map((s) => s.name));
    expect(report.variants).toEqual({ seed: 12 });
    const byName = new Map(report.submissions.map((s) => [s.name, s]));
    expect(byName.get('no-program')?.message).toMatch(/has no program\.ts\./);
    expect(byName.get('commonjs')?.message).toMatch(/says "type": "commonjs"/);
    expect(byName.get('wont-compile')?.message).toMatch(/before running any case/);
    expect(
      byName
        .get('no-program')
        ?.report.cases.every((c) => c.failure?.message.startsWith('the submission cannot be graded: ')),
    ).toBe(true);
    expect(byName.get('lookup')?.report.cases.filter((c) => c.failure?.variant?.seed === 12).length).toBe(3);
    for (const s of report.submissions) expect(s.report.dir).toBe(s.dir);
  });

  it('refuses what is wrong with the run itself before grading anyone', async () => {
    const dir = await makeCourse(scratch);
    const error = await grade([{ name: 'a', dir }], { cases: ['no-such-case'] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).code).toBe('NO_CASES');
  });

  it('stops every submission when aborted, leaving nothing running', async () => {
    const dirs = await Promise.all([1, 2, 3].map(() => makeCourse(scratch, 'hangs')));
    const controller = new AbortController();
    const run = grade(
      dirs.map((dir, k) => ({ name: `s${k}`, dir })),
      { signal: controller.signal, timeoutMs: 600_000, cases: ['course-glob-everything'] },
    );
    setTimeout(() => controller.abort(), 1500);
    await expect(run).rejects.toThrow('This operation was aborted');
    for (const dir of dirs) expect(await processRunning('sleep 987654', dir)).toBe(false);
  });
});
