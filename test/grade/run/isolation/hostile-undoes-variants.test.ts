// Issue 24's variants against stored answers (docs/variants.md, "Limits and cost"). test/fixtures/hostile-undoes-variants
// has no dispatcher: it keeps every case's shipped results, finds the case at hand on the driver's stdin (a listener
// on process.stdin), and undoes a variant's letter permutation in about eighty lines. Before the driver was sealed
// (src/modes/seal.ts) that passed the course page's three examples in the trusted job, variants and all. The driver
// now reads its cases from fd 0 before this code loads, so it finds no case to answer, and fails every one.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, useScratch } from '../../course-fixture.ts';
import { CHECKOUT_BIN, checkOut, gradeStep } from '../../../support/trusted-job.ts';
import { COURSE_CASES, jsonTests } from './hostile-course.ts';

const scratch = useScratch();

// Every shipped register-tools case with its snapshot's results, as a student's copy of the package holds them.
async function shippedAnswers(): Promise<{ case: unknown; results: unknown }[]> {
  const dir = join(REPO, 'cases', 'register-tools');
  const names = (await readdir(dir)).filter((f) => f.endsWith('.json'));
  return Promise.all(
    names.map(async (name) => ({
      case: JSON.parse(await readFile(join(dir, name), 'utf8')) as unknown,
      results: (
        JSON.parse(await readFile(join(REPO, 'snapshots', 'register-tools', name), 'utf8')) as { results: unknown }
      ).results,
    })),
  );
}

describe('stored answers that undo the renaming of a variant', () => {
  it('fail the variants in the trusted job', async () => {
    const submission = await checkOut(scratch.root, 'hostile-undoes-variants');
    await writeFile(join(submission, 'src', 'answers.json'), JSON.stringify(await shippedAnswers()));
    const args = [...COURSE_CASES, '--seed', '461850198', '--reporter', 'json'];
    const step = await gradeStep(CHECKOUT_BIN, scratch.root, submission, args);
    expect([...jsonTests(step.stdout)].map(([name, t]) => [name, t.status])).toEqual([
      ['course-bash-echo-hi', 'fail'],
      ['course-glob-everything', 'fail'],
      ['course-read-seeded-file', 'fail'],
    ]);
  });
});
