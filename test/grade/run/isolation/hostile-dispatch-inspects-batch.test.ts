// Issue 36's inspector attack at register-tools (test/fixtures/hostile-dispatch-inspects-batch): a dispatcher that
// searches its own heap for the batch, at load and at each call. The grader keeps the batch and hands out a case at
// a time over the program's channel, the next one queued ahead (src/modes/dispatch/serve.ts, AHEAD), so in the
// trusted job (CI set, the sandbox required, variants on), in one process of six cases and more, it finds no case at
// load and, during a call, the case running and at most the one after it (finding one proves the search works:
// before, it found the whole batch at load).
import { describe, expect, it } from 'vitest';
import { useScratch } from '../../course-fixture.ts';
import { CHECKOUT_BIN, checkOut, gradeStep } from '../../../support/trusted-job.ts';
import { AHEAD } from '../../../../src/modes/dispatch/serve.ts';
import { COURSE_CASES, jsonTests } from './hostile-course.ts';

const scratch = useScratch();

// Every count the attack printed after `what`, from the report's outputs.
function counts(stdout: string, what: string): number[] {
  return [...stdout.matchAll(new RegExp(`\\[attack\\] cases found ${what}: (\\d+)`, 'g'))].map((m) => Number(m[1]));
}

describe('a dispatcher that looks for the batch on its own heap', () => {
  it('finds no case at load and, during a call, only the running one and the one queued after it', async () => {
    const submission = await checkOut(scratch.root, 'hostile-dispatch-inspects-batch');
    const step = await gradeStep(CHECKOUT_BIN, scratch.root, submission, [
      ...COURSE_CASES,
      '--reporter',
      'json',
      '--timeout',
      '60000',
      // One process: the course cases and their variants, more than it may hold at once.
      '--jobs',
      '1',
    ]);
    const outputs = [...jsonTests(step.stdout).values()].map((t) => t.output ?? '').join('\n');
    expect(counts(outputs, 'at load')).not.toEqual([]);
    expect(new Set(counts(outputs, 'at load'))).toEqual(new Set([0]));
    const during = counts(outputs, 'during a call');
    expect(during.length).toBeGreaterThan(1 + AHEAD);
    expect(Math.min(...during)).toBeGreaterThanOrEqual(1);
    expect(Math.max(...during)).toBeLessThanOrEqual(1 + AHEAD);
    expect(step.exitCode).toBe(1);
  }, 240_000);
});
