// A student's course directory for end-to-end tests (test/support/reference-course.ts) beside an empty TMPDIR
// for the grader, under one temp root.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, writeLoopCourse, writeReferenceCourse } from '../../support/reference-course.ts';

// This repository: the theinference package and the reference course.
export const repo = REPO;
export { writeLoopCourse };

// A temp root holding `course/` (the course directory) and `tmp/` (the grader's TMPDIR), and its removal.
export type TestCourse = { root: string; dir: string; tmp: string; remove: () => Promise<void> };

// Makes a fresh course directory and an empty TMPDIR for the grader, side by side under one temp root: the
// register-tools course, or with `write`, another stage's (writeLoopCourse: agent-loop's).
export async function makeCourse(write: (dir: string) => Promise<unknown> = writeReferenceCourse): Promise<TestCourse> {
  const root = await mkdtemp(join(tmpdir(), 'theinference-watch-e2e-'));
  const dir = join(root, 'course');
  const tmp = join(root, 'tmp');
  await write(dir);
  await mkdir(tmp);
  return { root, dir, tmp, remove: () => rm(root, { recursive: true, force: true }) };
}
