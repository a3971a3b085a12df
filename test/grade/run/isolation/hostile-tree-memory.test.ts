// Issue 36's attack on memory: test/fixtures/hostile-holds-memory answers as the reference does after starting, as
// it loads, 8 processes of 150 MiB each (each under --memory 256 alone, 1.2 GiB together). The grader reads what the
// sandbox's processes hold together with its CPU samples and ends the tree past --memory, with a verdict and hint of
// its own: alone, and in a class beside a classmate (the reference) that passes every case as it would alone.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { treeOutOfMemory } from '../../../../src/grade/judge/limit-reached.ts';
import { useScratch } from '../../course-fixture.ts';
import { CHECKOUT_BIN, checkOut, gradeStep } from '../../../support/trusted-job.ts';

const scratch = useScratch();
const ARGS = ['--case', 'course-*', '--memory', '256', '--timeout', '60000'];

describe('memory for the whole sandbox', () => {
  it('ends a program whose processes hold more than --memory together, with its own verdict and hint', async () => {
    const submission = await checkOut(scratch.root, 'hostile-holds-memory');
    const step = await gradeStep(CHECKOUT_BIN, scratch.root, submission, ARGS, { timeoutMs: 600_000 });
    // Ended while it loaded: the processes it started then count, and none of its cases ran.
    expect(step.stdout).toContain('your program did not start — none of the 3 cases ran');
    expect(step.stdout).toMatch(/out of memory: the program's processes held \d+ MiB together, over the 256 MiB/);
    expect(step.stdout).toContain(`hint: ${treeOutOfMemory(256).hint}`);
    // It got as far as a second process of 150 MiB, not the eighth.
    expect(step.stdout).toContain('[attack] 1 of 8 processes hold 150 MiB');
    expect(step.stdout).not.toContain('[attack] 8 of 8');
    expect(step.exitCode).toBe(1);
  }, 660_000);

  it('fails it in a class run, beside a classmate who passes every case', async () => {
    const attacker = await checkOut(scratch.root, 'hostile-holds-memory');
    const classmate = await checkOut(scratch.root, 'right-execute');
    const summary = join(scratch.root, 'summary.json');
    const step = await gradeStep(CHECKOUT_BIN, scratch.root, 'submissions/*', [...ARGS, '--summary', summary], {
      timeoutMs: 600_000,
    });
    const rows = JSON.parse(await readFile(summary, 'utf8')).submissions as Array<Record<string, unknown>>;
    const row = (dir: string) => rows.find((r) => join(scratch.root, 'submissions', String(r.name)) === dir);
    // Ended while it loads. Run from the sources (this checkout), a process's load compiles the driver too, near the
    // CPU budget a process has before its first call: beside a classmate on a busy machine, that budget may run out
    // before the memory does. Either ends the tree, and says which.
    expect([row(attacker)?.passed, row(attacker)?.message]).toEqual([
      0,
      expect.stringMatching(/^out of (memory|CPU time): the program's processes /),
    ]);
    expect([row(classmate)?.passed, row(classmate)?.verdict]).toEqual([3, 'pass']);
    expect(step.exitCode).toBe(1);
  }, 660_000);
});

describe('memory the kernel holds outside every process', () => {
  // A trial's submission held 3 GiB of SysV segments under --memory 256 and passed every case: no process shows
  // them. The sandbox's seccomp filter refuses the calls that make them (isolation/seccomp-filter.ts).
  it('is refused in the sandbox: shmget, msgget and memfd_create fail with EPERM, and a program that tries still grades', async () => {
    const submission = await checkOut(scratch.root, 'hostile-holds-kernel-memory');
    const step = await gradeStep(CHECKOUT_BIN, scratch.root, submission, ARGS, { timeoutMs: 600_000 });
    expect(step.stdout).not.toContain('the sandbox let memory be held outside every process');
    expect(step.stdout).toMatch(/3 passed/);
    expect(step.exitCode).toBe(0);
  }, 660_000);
});
