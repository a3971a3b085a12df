// Issue 36's attack at the stage agent-loop: test/fixtures/hostile-loop-inspects-batch is the course's stub runLoop
// plus a module that, as it loads, looks for the batch through Node's inspector, a heap snapshot and /proc/self/mem,
// and writes the results worked out of each case's turns to fd 1. The grader keeps the batch, serves each case's
// turns from its own process over the program's channel and makes every result line itself
// (src/modes/loop/serve.ts), so each way finds nothing and what reaches fd 1 is output. In the trusted job (CI set,
// the sandbox required, variants on) it gets 0 of the stage's cases, alone and in a class, where its classmate (the
// reference loop) passes every case as it does alone.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScratch } from '../../course-fixture.ts';
import { CHECKOUT_BIN, checkOut, gradeStep } from '../../../support/trusted-job.ts';
import { jsonTests, summaryRowOf } from './hostile-course.ts';

const scratch = useScratch();
const STAGE_CASES = (await readdir(join(import.meta.dirname, '../../../../cases/agent-loop'))).filter((f) =>
  f.endsWith('.json'),
).length;
// Looking through the heap and memory takes seconds on a busy machine: the program's load gets the time it needs.
const SLOW_LOAD = ['--timeout', '60000'];
const FOUND_NOTHING = [
  '[attack] cases found by the inspector: 0',
  '[attack] cases found in a heap snapshot: 0',
  '[attack] case lines found in /proc/self/mem: 0',
];

describe('a stub loop that looks for the batch in its own process and forges the result lines', () => {
  it('finds nothing and passes no case in the trusted job', async () => {
    const submission = await checkOut(scratch.root, 'hostile-loop-inspects-batch', 'agent-loop');
    // The terminal report besides: the json one cuts each message to stay under its cap.
    const pretty = join(scratch.root, 'report.txt');
    const reporters = ['--reporter', 'json', '--reporter', `pretty:${pretty}`];
    const step = await gradeStep(CHECKOUT_BIN, scratch.root, submission, [...reporters, ...SLOW_LOAD], {
      stage: 'agent-loop',
      timeoutMs: 600_000,
    });
    const tests = [...jsonTests(step.stdout).values()];
    expect(tests).toHaveLength(STAGE_CASES);
    expect(tests.filter((t) => t.status === 'pass')).toEqual([]);
    const report = await readFile(pretty, 'utf8');
    for (const line of FOUND_NOTHING) expect(report).toContain(line);
    // Its forged lines are shown as what it printed.
    expect(report).toContain('[your_program] {"results":[{"returned":[]}]}');
    expect(step.exitCode).toBe(1);
  }, 660_000);

  it("gets 0 of the stage's cases in a class run, beside a classmate who passes every one", async () => {
    const attacker = await checkOut(scratch.root, 'hostile-loop-inspects-batch', 'agent-loop');
    const classmate = await checkOut(scratch.root, 'right-loop', 'agent-loop');
    const summary = join(scratch.root, 'summary.json');
    const step = await gradeStep(CHECKOUT_BIN, scratch.root, 'submissions/*', ['--summary', summary, ...SLOW_LOAD], {
      stage: 'agent-loop',
      timeoutMs: 600_000,
    });
    const row = await summaryRowOf(scratch.root, summary);
    expect([row(attacker)?.passed, row(attacker)?.verdict]).toEqual([0, 'fail']);
    expect([row(classmate)?.passed, row(classmate)?.failed, row(classmate)?.verdict]).toEqual([STAGE_CASES, 0, 'pass']);
    expect(step.exitCode).toBe(1);
  }, 660_000);
});
