// A student's course directory made from this repository, for end-to-end tests and the bench: the course's
// program.ts and tsconfig.json, the reference src/tools/ and src/execute.ts, a package.json saying the code is
// ESM (program.ts uses top-level await), and a node_modules of its own linking the tools' dependencies to this
// repository's, standing in for the student's own install: the sandbox never uses it (the program gets the grader's
// runtime packages), but a run with --isolation off, in the directory itself, does.
import { cp, mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COURSE_DEPENDENCIES, STAGES } from '../../src/course/stages.ts';

// This repository's root: the theinference package and the reference course.
export const REPO = fileURLToPath(new URL('../../', import.meta.url));

// Fills `dir` (made if missing) with the reference course directory; `linkModules: false` leaves node_modules
// to the caller (none at all: a plain checkout).
export async function writeReferenceCourse(dir: string, options: { linkModules?: boolean } = {}): Promise<void> {
  await mkdir(join(dir, 'src'), { recursive: true });
  await cp(join(REPO, 'program.ts'), join(dir, 'program.ts'));
  await cp(join(REPO, 'tsconfig.json'), join(dir, 'tsconfig.json'));
  await cp(join(REPO, 'src', 'execute.ts'), join(dir, 'src', 'execute.ts'));
  await cp(join(REPO, 'src', 'tools'), join(dir, 'src', 'tools'), { recursive: true });
  await writeFile(join(dir, 'package.json'), '{ "name": "course", "private": true, "type": "module" }\n');
  if (options.linkModules !== false) {
    for (const name of COURSE_DEPENDENCIES) {
      await mkdir(dirname(join(dir, 'node_modules', name)), { recursive: true });
      await symlink(join(REPO, 'node_modules', name), join(dir, 'node_modules', name), 'dir');
    }
  }
}

// Fills `dir` (made if missing) with a course directory at the stage agent-loop, as a student has it who wrote the
// reference loop: program.ts, tsconfig.json, src/agent-loop.ts, an ESM package.json, and node_modules linked to
// this repository's (the SDK among them; `linkModules: false` leaves it out: a plain checkout). No src/execute.ts
// and no src/tools/: the stage has none.
export async function writeLoopCourse(dir: string, options: { linkModules?: boolean } = {}): Promise<void> {
  await mkdir(join(dir, 'src'), { recursive: true });
  await cp(join(REPO, 'program.ts'), join(dir, 'program.ts'));
  await cp(join(REPO, 'tsconfig.json'), join(dir, 'tsconfig.json'));
  await cp(join(REPO, 'src', 'agent-loop.ts'), join(dir, 'src', 'agent-loop.ts'));
  await writeFile(join(dir, 'package.json'), '{ "name": "course", "private": true, "type": "module" }\n');
  if (options.linkModules !== false) await symlink(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'dir');
}

// The files of the theinference package an install puts in node_modules/theinference, but dist/ (without it the
// copy's bin runs its sources through tsx) and docs/; as packed, without any stage's reference (package.json
// `files`, from the stage rows).
const PACKAGE_FILES = [
  'package.json',
  'bin',
  'src',
  'cases',
  'snapshots',
  'program.ts',
  'tsconfig.json',
  'course-template',
];
const NOT_PACKED = new Set(STAGES.flatMap((s) => s.writes).map((f) => join(REPO, f)));

// Installs the package in `prefix` as `npm install theinference` does there: `prefix/node_modules` holds a copy of
// this package as node_modules/theinference and links to this repository's dependencies (to each as it is in
// `linkTo`, which is this repository's node_modules when not given). Returns the copy's bin.
export async function writeInstall(prefix: string, linkTo = join(REPO, 'node_modules')): Promise<string> {
  await mkdir(join(prefix, 'node_modules'), { recursive: true });
  for (const entry of await readdir(join(REPO, 'node_modules'))) {
    if (entry !== 'theinference' && !entry.startsWith('.'))
      await symlink(join(linkTo, entry), join(prefix, 'node_modules', entry), 'dir');
  }
  const installed = join(prefix, 'node_modules', 'theinference');
  for (const file of PACKAGE_FILES) {
    await cp(join(REPO, file), join(installed, file), { recursive: true, filter: (source) => !NOT_PACKED.has(source) });
  }
  // The command, where npx and npm scripts find it.
  await mkdir(join(prefix, 'node_modules', '.bin'), { recursive: true });
  await symlink('../theinference/bin/theinference.js', join(prefix, 'node_modules', '.bin', 'theinference'));
  return join(installed, 'bin', 'theinference.js');
}

// Copies the package into `dir` as a monorepo's package or the bench's copy has it: the files an install holds, and a
// node_modules that is a link to this repository's, outside the copy. Returns the copy's bin.
export async function writeLinkedPackage(dir: string): Promise<string> {
  for (const file of PACKAGE_FILES) {
    await cp(join(REPO, file), join(dir, file), { recursive: true, filter: (source) => !NOT_PACKED.has(source) });
  }
  await symlink(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return join(dir, 'bin', 'theinference.js');
}

// Fills `dir` with the reference course as a student has it after `npm install theinference`: node_modules is a
// directory of its own holding a copy of this package as node_modules/theinference (its snapshots inside the
// course directory), and links to this repository's dependencies. Returns the copy's bin.
export async function writeInstalledCourse(dir: string): Promise<string> {
  const bin = await writeInstall(dir);
  await writeReferenceCourse(dir, { linkModules: false });
  return bin;
}
