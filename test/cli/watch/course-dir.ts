// A student's course directory for end-to-end tests (test/support/reference-course.ts) beside an empty TMPDIR
// for the grader, under one temp root.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, writeReferenceCourse } from '../../support/reference-course.ts';

// This repository: the theinference package and the reference course.
export const repo = REPO;

// A temp root holding `course/` (the course directory) and `tmp/` (the grader's TMPDIR), and its removal.
export type TestCourse = { root: string; dir: string; tmp: string; remove: () => Promise<void> };

// Makes a fresh course directory and an empty TMPDIR for the grader, side by side under one temp root.
export async function makeCourse(): Promise<TestCourse> {
  const root = await mkdtemp(join(tmpdir(), 'theinference-watch-e2e-'));
  const dir = join(root, 'course');
  const tmp = join(root, 'tmp');
  await writeReferenceCourse(dir);
  await mkdir(tmp);
  return { root, dir, tmp, remove: () => rm(root, { recursive: true, force: true }) };
}
