// A student's course directory in a fresh temp dir, made from this repository (test/support/reference-course.ts).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeReferenceCourse } from '../test/support/reference-course.ts';

// A temp course directory and the way to remove it.
export type CourseCopy = { dir: string; remove: () => Promise<void> };

// Copies the reference course into a fresh temp directory.
export async function copyCourse(): Promise<CourseCopy> {
  const root = await mkdtemp(join(tmpdir(), 'theinference-bench-course-'));
  const dir = join(root, 'course');
  await writeReferenceCourse(dir);
  return { dir, remove: () => rm(root, { recursive: true, force: true }) };
}
