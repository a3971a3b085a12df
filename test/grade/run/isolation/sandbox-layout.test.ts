// What a sandbox shows of the grader's own install, for real: a grader whose node_modules reaches its packages
// through a link (a node_modules linked elsewhere, as a monorepo's or a shared install's is, whose entries a copy
// links through) still gives a sandboxed submission the course's packages at the submission's node_modules, and a
// grader whose own node_modules is a link out of the package still loads the driver's packages.
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, writeInstall, writeLinkedPackage } from '../../../support/reference-course.ts';
import { checkOut, gradeStep } from '../../../support/trusted-job.ts';
import { useScratch } from '../../course-fixture.ts';
import { COURSE_CASES } from './hostile-course.ts';

const scratch = useScratch();

describe('the sandbox layout of a grader installed through links', () => {
  it('gives a submission the course packages when every one of them is reached through a linked node_modules', async () => {
    // elsewhere/node_modules is a link to this repository's; the grader's node_modules links each package there.
    const elsewhere = join(scratch.root, 'elsewhere');
    await mkdir(elsewhere, { recursive: true });
    await symlink(join(REPO, 'node_modules'), join(elsewhere, 'node_modules'), 'dir');
    const grader = await writeInstall(join(scratch.root, 'grader'), join(elsewhere, 'node_modules'));
    // The reference course: its tools import fast-glob.
    const submission = await checkOut(scratch.root, 'harmless');
    const step = await gradeStep(grader, scratch.root, submission, COURSE_CASES);
    expect([step.exitCode, step.stdout.trim().split('\n').at(-1)]).toEqual([0, '3 passed, 0 failed']);
  });

  it("loads the driver's packages when the grader's own node_modules is a link out of the package", async () => {
    // The package copied to grader-copy/, its node_modules a link to this repository's (elsewhere on the machine):
    // the driver's imports (fast-glob) walk up to that link from the copy's files.
    const grader = await writeLinkedPackage(join(scratch.root, 'grader-copy'));
    const submission = await checkOut(scratch.root, 'harmless');
    const step = await gradeStep(grader, scratch.root, submission, COURSE_CASES);
    expect([step.exitCode, step.stdout.trim().split('\n').at(-1)]).toEqual([0, '3 passed, 0 failed']);
  });
});
