// Issue 24's threat-model check (docs/trusted-job.md): the student's code runs inside the driver's process, so it
// can write a result line of its own straight to fd 1 (fs.writeSync), past the driver. Such a line says only what
// the code could make the driver say itself: in dispatch mode a result line is execute's return values. So a
// dispatcher that forges the course page's answers on fd 1 grades no better than one that returns them, case by case and
// variant by variant, in the trusted job with variants (the course repository's checkout, CI set): whatever passes
// forged passes returned, and the variants on renamed files fail both.
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScratch } from '../../course-fixture.ts';
import { CHECKOUT_BIN, checkOut, gradeStep, type Step } from '../../../support/trusted-job.ts';
import { COURSE_CASES, jsonTests } from './hostile-course.ts';

const scratch = useScratch();

// The cases with their verdicts and what each message says failed.
function verdicts(step: Step): [string, string, string][] {
  return [...jsonTests(step.stdout)].map(([name, t]) => [name, t.status, (t.message ?? '').split('\n')[1] ?? '']);
}

describe('a result line written to fd 1 by the code under test', () => {
  it('grades no better than the same answers returned from execute: variants fail both', async () => {
    const [forged, returned] = await Promise.all([
      checkOut(scratch.root, 'hostile-forges-result-line'),
      checkOut(scratch.root, 'hostile-forges-result-line'),
    ]);
    await cp(join(returned, 'src', 'stored-execute.ts'), join(returned, 'src', 'execute.ts'));
    const args = [...COURSE_CASES, '--seed', '461850198', '--reporter', 'json'];
    const [a, b] = [
      await gradeStep(CHECKOUT_BIN, scratch.root, forged, args),
      await gradeStep(CHECKOUT_BIN, scratch.root, returned, args),
    ];
    expect([a.exitCode, b.exitCode]).toEqual([1, 1]);
    // The Bash example has no file to rename; the other two fail on their variant when returned. Forged, they fail
    // too: in a batch a forged line stands before the driver's own, so the driver's is the next case's, and a case
    // that passes only alone fails (the leaked-state rule). Forging never grades better than returning.
    const statuses = (step: Step) => verdicts(step).map(([name, status]) => [name, status]);
    const expected = [
      ['course-bash-echo-hi', 'pass'],
      ['course-glob-everything', 'fail'],
      ['course-read-seeded-file', 'fail'],
    ];
    expect([statuses(a), statuses(b)]).toEqual([expected, expected]);
    expect(
      verdicts(b)
        .filter(([, status]) => status === 'fail')
        .every(([, , why]) => why.includes('variant')),
    ).toBe(true);
  });
});
