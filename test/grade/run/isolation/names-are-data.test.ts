// Issue 36: a submission's directory name is data. It never becomes part of an import specifier (Node refuses a
// module URL with an encoded `\`, so such a submission is shown in its sandbox at a path of the grader's) or of a
// glob (`--dir` naming a directory as it is takes it literally), and every report writes a line break in it as `\n`
// (the summary CSV and JSON included), in the trusted job.
import { mkdir, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScratch } from '../../course-fixture.ts';
import { CHECKOUT_BIN, checkOut, gradeStep } from '../../../support/trusted-job.ts';
import { COURSE_CASES, jsonTests } from './hostile-course.ts';

const scratch = useScratch();

// A submission checked out, then renamed to `name` in the folder `under` (each test its own: the scratch area is
// the file's).
async function named(name: string, under: string): Promise<string> {
  await mkdir(join(scratch.root, under), { recursive: true });
  const dir = join(scratch.root, under, name);
  await rename(await checkOut(scratch.root, 'right-execute'), dir);
  return dir;
}

describe("a submission's directory name", () => {
  it('with a backslash and glob characters grades normally, named literally by --dir', async () => {
    const dir = await named('ada\\lovelace [1]', 'one');
    const step = await gradeStep(CHECKOUT_BIN, scratch.root, dir, [...COURSE_CASES, '--reporter', 'json']);
    const tests = [...jsonTests(step.stdout).values()];
    expect(tests.map((t) => t.status)).toEqual(['pass', 'pass', 'pass']);
    expect(step.exitCode).toBe(0);
  }, 240_000);

  it('with a line break is written with `\\n` in the summary CSV and JSON, and grades like any other', async () => {
    await named('grace\nhopper\\x', 'class');
    await named('alan', 'class');
    const csv = join(scratch.root, 'summary.csv');
    const step = await gradeStep(CHECKOUT_BIN, scratch.root, 'class/*', [...COURSE_CASES, '--summary', csv]);
    const rows = (await readFile(csv, 'utf8')).split('\r\n');
    expect(rows.map((r) => r.split(',').slice(0, 4).join(','))).toEqual([
      'submission,passed,failed,verdict',
      'alan,3,0,pass',
      'grace\\nhopper\\x,3,0,pass',
      '',
    ]);
    expect(step.stdout).toContain('grace\\nhopper\\x');
    expect(step.stdout).not.toMatch(/^hopper/m);
    expect(step.exitCode).toBe(0);
  }, 240_000);
});
