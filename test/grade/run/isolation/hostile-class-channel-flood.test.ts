// A trial's attack on a class: test/fixtures/hostile-channel-flood floods its program's channel as its first case
// starts, 80 MB of lines the grader parses on the one event loop every submission shares, 0.5-1 s a line (the first
// line's 2.7 million values pass MAX_CHANNEL_VALUES, and the process is killed after it). In the trusted
// job, its classmate (the reference loop) passes every case, as it does alone: a deadline counts only the time in
// which the grader could hear the process (src/grade/run/event-loop-stalls.ts). Without that, the classmate's cases
// waiting on the grader for their turns meanwhile time out (3 of 34, measured).
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScratch } from '../../course-fixture.ts';
import { CHECKOUT_BIN, checkOut, gradeStep } from '../../../support/trusted-job.ts';
import { summaryRowOf } from './hostile-course.ts';

const scratch = useScratch();
const DEADLINE = ['--timeout', '1000'];
const STAGE_CASES = (await readdir(join(import.meta.dirname, '../../../../cases/agent-loop'))).filter((f) =>
  f.endsWith('.json'),
).length;

describe('a submission that floods its channel in a class run', () => {
  it('leaves its classmate passing every case', async () => {
    const attacker = await checkOut(scratch.root, 'hostile-channel-flood', 'agent-loop');
    const classmate = await checkOut(scratch.root, 'right-loop', 'agent-loop');
    const summary = join(scratch.root, 'summary.json');
    // Deadlines of 1 s, which the classmate's cases meet many times over, and which its time spent waiting on a
    // grader parsing the flood would pass.
    const step = await gradeStep(CHECKOUT_BIN, scratch.root, 'submissions/*', ['--summary', summary, ...DEADLINE], {
      stage: 'agent-loop',
      timeoutMs: 600_000,
    });
    const row = await summaryRowOf(scratch.root, summary);
    expect([row(attacker)?.passed, row(attacker)?.verdict]).toEqual([0, 'fail']);
    expect([row(classmate)?.passed, row(classmate)?.failed, row(classmate)?.verdict]).toEqual([STAGE_CASES, 0, 'pass']);
    expect(step.exitCode).toBe(1);
  }, 660_000);
});
