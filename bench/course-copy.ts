// A student's course directory, made from this repository: the course-provided program.ts, the reference
// src/tools/ and src/execute.ts, and a package.json saying the code is ESM. node_modules is a link to this
// repository's, standing in for the student's own install (the reference tools import fast-glob).
import { cp, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// A temp course directory and the way to remove it.
export type CourseCopy = { dir: string; remove: () => Promise<void> };

// Copies the course files of `packageRoot` into a fresh temp directory.
export async function copyCourse(packageRoot: string): Promise<CourseCopy> {
  const root = await mkdtemp(join(tmpdir(), 'theinference-bench-course-'));
  const dir = join(root, 'course');
  await mkdir(join(dir, 'src'), { recursive: true });
  await cp(join(packageRoot, 'program.ts'), join(dir, 'program.ts'));
  await cp(join(packageRoot, 'tsconfig.json'), join(dir, 'tsconfig.json'));
  await cp(join(packageRoot, 'src', 'execute.ts'), join(dir, 'src', 'execute.ts'));
  await cp(join(packageRoot, 'src', 'tools'), join(dir, 'src', 'tools'), { recursive: true });
  await writeFile(join(dir, 'package.json'), `${JSON.stringify({ name: 'course', private: true, type: 'module' }, null, 2)}\n`);
  await symlink(join(packageRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return { dir, remove: () => rm(root, { recursive: true, force: true }) };
}
