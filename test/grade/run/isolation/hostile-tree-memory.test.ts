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
import { jsonTests } from './hostile-course.ts';

const scratch = useScratch();
const ARGS = ['--case', 'course-*', '--memory', '256', '--timeout', '60000'];

describe('memory for the whole sandbox', () => {
  it('ends a program whose processes hold more than --memory together, with its own verdict and hint', async () => {
    const submission = await checkOut(scratch.root, 'hostile-holds-memory');
    const step = await gradeStep(CHECKOUT_BIN, scratch.root, submission, [...ARGS, '--reporter', 'json']);
    const tests = [...jsonTests(step.stdout).values()];
    expect(tests).toHaveLength(3);
    for (const t of tests) {
      expect(t.status).not.toBe('pass');
      // Ended while it loaded: the processes it started then count.
      expect(t.message).toMatch(/^your program did not start/);
      expect(t.message).toMatch(/out of memory: the program's processes held \d+ MiB together, over the 256 MiB/);
      expect(t.message).toContain(`hint: ${treeOutOfMemory(256).hint}`);
    }
    expect(step.exitCode).toBe(1);
  }, 240_000);

  it('fails it in a class run, beside a classmate who passes every case', async () => {
    const attacker = await checkOut(scratch.root, 'hostile-holds-memory');
    const classmate = await checkOut(scratch.root, 'right-execute');
    const summary = join(scratch.root, 'summary.json');
    const step = await gradeStep(CHECKOUT_BIN, scratch.root, 'submissions/*', [...ARGS, '--summary', summary]);
    const rows = JSON.parse(await readFile(summary, 'utf8')).submissions as Array<Record<string, unknown>>;
    const row = (dir: string) => rows.find((r) => join(scratch.root, 'submissions', String(r.name)) === dir);
    expect(row(attacker)?.passed).toBe(0);
    expect([row(classmate)?.passed, row(classmate)?.verdict]).toEqual([3, 'pass']);
    expect(step.stdout).toContain('out of memory');
    expect(step.exitCode).toBe(1);
  }, 240_000);
});
