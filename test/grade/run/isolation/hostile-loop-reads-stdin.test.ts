// Issue 24's threat model at the stage agent-loop (docs/trusted-job.md, "The student's code shares the driver's
// process"). test/fixtures/hostile-loop-reads-stdin never calls the model: at import it listens to process.stdin,
// where the grader sends each case whole, and patches JSON.stringify to swap results worked out of the script into
// the driver's line. It passed every case before the driver was sealed (src/modes/seal.ts): the driver now reads
// fd 0 itself, and every program process runs with the language's objects frozen, so the patch throws as the module
// loads and the listener hears nothing. The trusted job (the course repository's checkout, CI set, variants on)
// fails it on every case.
import { describe, expect, it } from 'vitest';
import { useScratch } from '../../course-fixture.ts';
import { CHECKOUT_BIN, checkOut, gradeStep } from '../../../support/trusted-job.ts';
import { jsonTests } from './hostile-course.ts';

const scratch = useScratch();
// A case with a tool call, one whose tool throws, and one without tools.
const CASES = ['tools-single-call', 'tools-execute-throws', 'stop-end-turn-without-tools'];

describe('a loop that reads its script off stdin instead of calling the model', () => {
  it('fails in the trusted job, on every case', async () => {
    const submission = await checkOut(scratch.root, 'hostile-loop-reads-stdin', 'agent-loop');
    const args = [...CASES.flatMap((c) => ['--case', c]), '--seed', '461850198', '--reporter', 'json'];
    const step = await gradeStep(CHECKOUT_BIN, scratch.root, submission, args, { stage: 'agent-loop' });
    const tests = [...jsonTests(step.stdout)];
    // Its module does not load: the patch throws (an error, the code's own, not a failed comparison)…
    expect(tests.map(([name, t]) => [name, t.status])).toEqual(CASES.map((c) => [c, 'error']).sort());
    for (const [, t] of tests) expect(t.message).toMatch(/^your program did not start/);
    expect(step.stdout).toMatch(/Cannot assign to read only property 'stringify'/);
    expect(step.exitCode).toBe(1);
  });

  it('finds stdin read to its end when it reads fd 0 itself at import, so it forges no line', async () => {
    const submission = await checkOut(scratch.root, 'hostile-loop-steals-stdin', 'agent-loop');
    const args = [...CASES.flatMap((c) => ['--case', c]), '--seed', '461850198', '--reporter', 'json'];
    const step = await gradeStep(CHECKOUT_BIN, scratch.root, submission, args, { stage: 'agent-loop' });
    const tests = [...jsonTests(step.stdout)];
    expect(tests.map(([name, t]) => [name, t.status === 'pass'])).toEqual(CASES.map((c) => [c, false]).sort());
    expect(step.stdout).toContain('[attack] cases read off stdin: 0');
    expect(step.exitCode).toBe(1);
  });
});
