// A student's course directory made from this repository, for end-to-end tests and the bench: the course's
// program.ts and tsconfig.json, the reference src/tools/ and src/execute.ts, a package.json saying the code is
// ESM (program.ts uses top-level await), and node_modules linked to this repository's, standing in for the
// student's own install (the reference tools import fast-glob).
import { cp, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// This repository's root: the theinference package and the reference course.
export const REPO = fileURLToPath(new URL('../../', import.meta.url));

// Fills `dir` (made if missing) with the reference course directory.
export async function writeReferenceCourse(dir: string): Promise<void> {
  await mkdir(join(dir, 'src'), { recursive: true });
  await cp(join(REPO, 'program.ts'), join(dir, 'program.ts'));
  await cp(join(REPO, 'tsconfig.json'), join(dir, 'tsconfig.json'));
  await cp(join(REPO, 'src', 'execute.ts'), join(dir, 'src', 'execute.ts'));
  await cp(join(REPO, 'src', 'tools'), join(dir, 'src', 'tools'), { recursive: true });
  await writeFile(join(dir, 'package.json'), '{ "name": "course", "private": true, "type": "module" }\n');
  await symlink(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'dir');
}
