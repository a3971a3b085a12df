// Issue 24's threat-model check (docs/trusted-job.md), after issue 36: the student's code runs inside the driver's
// process, so it can write a result line of its own straight to fd 1 (fs.writeSync), past the driver. The grader
// reads no result from fd 1 (the driver gives its results over the grader's channel), so such a line is output. A
// dispatcher that forges the course page's answers on fd 1 passes nothing, where one that returns them passes the
// Bash example, in the trusted job with variants (the course repository's checkout, CI set); the variants on
// renamed files fail the stored answers returned.
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
  it('is output, never a result: the forger passes nothing, the same answers returned pass what variants let through', async () => {
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
    // The Bash example has no file to rename: returned, it passes; forged, it is output, and the case's result is
    // execute's 'stub'. The other two fail on their variant when returned.
    const statuses = (step: Step) => verdicts(step).map(([name, status]) => [name, status]);
    expect(statuses(a)).toEqual([
      ['course-bash-echo-hi', 'fail'],
      ['course-glob-everything', 'fail'],
      ['course-read-seeded-file', 'fail'],
    ]);
    expect(statuses(b)).toEqual([
      ['course-bash-echo-hi', 'pass'],
      ['course-glob-everything', 'fail'],
      ['course-read-seeded-file', 'fail'],
    ]);
    expect(jsonTests(a.stdout).get('course-bash-echo-hi')?.output).toContain('{"results":[');
    expect(
      verdicts(b)
        .filter(([, status]) => status === 'fail')
        .every(([, , why]) => why.includes('variant')),
    ).toBe(true);
  });
});
