// A student's course directory for end-to-end tests, made from this repository at test time: program.ts, the
// reference src/tools/ and src/execute.ts, a package.json saying the code is ESM, and node_modules linked to
// this repository's (the reference tools import fast-glob; a student has their own install).
import { cp, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// This repository: the theinference package and the reference course.
export const repo = resolve(import.meta.dirname, '..', '..', '..');

// A temp root holding `course/` (the course directory) and `tmp/` (the grader's TMPDIR), and its removal.
export type TestCourse = { root: string; dir: string; tmp: string; remove: () => Promise<void> };

// Makes a fresh course directory and an empty TMPDIR for the grader, side by side under one temp root.
export async function makeCourse(): Promise<TestCourse> {
  const root = await mkdtemp(join(tmpdir(), 'theinference-watch-e2e-'));
  const dir = join(root, 'course');
  const tmp = join(root, 'tmp');
  await mkdir(join(dir, 'src'), { recursive: true });
  await mkdir(tmp);
  await cp(join(repo, 'program.ts'), join(dir, 'program.ts'));
  await cp(join(repo, 'tsconfig.json'), join(dir, 'tsconfig.json'));
  await cp(join(repo, 'src', 'execute.ts'), join(dir, 'src', 'execute.ts'));
  await cp(join(repo, 'src', 'tools'), join(dir, 'src', 'tools'), { recursive: true });
  await writeFile(join(dir, 'package.json'), `${JSON.stringify({ name: 'course', private: true, type: 'module' }, null, 2)}\n`);
  await symlink(join(repo, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return { root, dir, tmp, remove: () => rm(root, { recursive: true, force: true }) };
}
