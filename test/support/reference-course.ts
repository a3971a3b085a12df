// A student's course directory made from this repository, for end-to-end tests and the bench: the course's
// program.ts and tsconfig.json, the reference src/tools/ and src/execute.ts, a package.json saying the code is
// ESM (program.ts uses top-level await), and node_modules linked to this repository's, standing in for the
// student's own install (the reference tools import fast-glob).
import { cp, mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// This repository's root: the theinference package and the reference course.
export const REPO = fileURLToPath(new URL('../../', import.meta.url));

// Fills `dir` (made if missing) with the reference course directory; `linkModules: false` leaves node_modules
// to the caller.
export async function writeReferenceCourse(dir: string, options: { linkModules?: boolean } = {}): Promise<void> {
  await mkdir(join(dir, 'src'), { recursive: true });
  await cp(join(REPO, 'program.ts'), join(dir, 'program.ts'));
  await cp(join(REPO, 'tsconfig.json'), join(dir, 'tsconfig.json'));
  await cp(join(REPO, 'src', 'execute.ts'), join(dir, 'src', 'execute.ts'));
  await cp(join(REPO, 'src', 'tools'), join(dir, 'src', 'tools'), { recursive: true });
  await writeFile(join(dir, 'package.json'), '{ "name": "course", "private": true, "type": "module" }\n');
  if (options.linkModules !== false) await symlink(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'dir');
}

// Fills `dir` (made if missing) with a course directory at the stage agent-loop, as a student has it who wrote the
// reference loop: program.ts, tsconfig.json, src/agent-loop.ts, an ESM package.json, and node_modules linked to
// this repository's (the SDK among them). No src/execute.ts and no src/tools/: the stage has none.
export async function writeLoopCourse(dir: string): Promise<void> {
  await mkdir(join(dir, 'src'), { recursive: true });
  await cp(join(REPO, 'program.ts'), join(dir, 'program.ts'));
  await cp(join(REPO, 'tsconfig.json'), join(dir, 'tsconfig.json'));
  await cp(join(REPO, 'src', 'agent-loop.ts'), join(dir, 'src', 'agent-loop.ts'));
  await writeFile(join(dir, 'package.json'), '{ "name": "course", "private": true, "type": "module" }\n');
  await symlink(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'dir');
}

// The files of the theinference package an install puts in node_modules/theinference, but dist/ (without it the
// copy's bin runs its sources through tsx) and docs/.
const PACKAGE_FILES = ['package.json', 'bin', 'src', 'cases', 'snapshots', 'program.ts', 'tsconfig.json'];

// Fills `dir` with the reference course as a student has it after `npm install theinference`: node_modules is a
// directory of its own holding a copy of this package as node_modules/theinference (its snapshots inside the
// course directory), and links to this repository's dependencies. Returns the copy's bin.
export async function writeInstalledCourse(dir: string): Promise<string> {
  await mkdir(join(dir, 'node_modules'), { recursive: true });
  for (const entry of await readdir(join(REPO, 'node_modules'))) {
    if (entry !== 'theinference')
      await symlink(join(REPO, 'node_modules', entry), join(dir, 'node_modules', entry), 'dir');
  }
  const installed = join(dir, 'node_modules', 'theinference');
  for (const file of PACKAGE_FILES) await cp(join(REPO, file), join(installed, file), { recursive: true });
  await writeReferenceCourse(dir, { linkModules: false });
  return join(installed, 'bin', 'theinference.js');
}
