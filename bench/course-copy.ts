// Temp copies for the bench: a student's course directory made from this repository
// (test/support/reference-course.ts), and the grader package with every case of its stages there `copies` times
// (the 10x suite), each copy with its snapshot.
import { execFile } from 'node:child_process';
import { chmod, cp, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { writeReferenceCourse } from '../test/support/reference-course.ts';

const execFileAsync = promisify(execFile);

// A temp directory and the way to remove it.
export type CourseCopy = { dir: string; remove: () => Promise<void> };

// Copies the reference course into a fresh temp directory.
export async function copyCourse(): Promise<CourseCopy> {
  const root = await mkdtemp(join(tmpdir(), 'theinference-bench-course-'));
  const dir = join(root, 'course');
  await writeReferenceCourse(dir);
  return { dir, remove: () => rm(root, { recursive: true, force: true }) };
}

// What of the package the compiled grader needs (no .git: the copy always runs dist/, which must be built).
const PACKAGE_FILES = ['package.json', 'bin', 'dist', 'program.ts', 'tsconfig.json', 'course-template'];

// The package at `packageRoot` copied into a fresh temp directory, its node_modules linked, each case of each
// stage written `copies` times (`<name>.json`, then `<name>-copy-<k>.json`), its snapshot beside each. With
// `keep`, only the cases it names (by stage, then file name) are there: a suite as it was at an earlier commit.
export async function copyPackage(
  packageRoot: string,
  copies: number,
  keep?: ReadonlyMap<string, ReadonlySet<string>>,
): Promise<CourseCopy> {
  const root = await mkdtemp(join(tmpdir(), 'theinference-bench-package-'));
  // The sandbox shows the grader's package.json and bootstrap at their paths: a grader run as root starts its
  // sandboxes as nobody, who must be able to reach them.
  await chmod(root, 0o755);
  const dir = join(root, 'theinference');
  for (const file of PACKAGE_FILES) await cp(join(packageRoot, file), join(dir, file), { recursive: true });
  // A copy of node_modules made of hard links (instant, no space), as an install has it. A link would do as well:
  // the sandbox makes a grader's linked node_modules again (test/grade/run/isolation/sandbox-layout.test.ts).
  await execFileAsync('cp', ['-al', join(packageRoot, 'node_modules'), join(dir, 'node_modules')]);
  for (const kind of ['cases', 'snapshots']) {
    await mkdir(join(dir, kind), { recursive: true });
    for (const stage of await readdir(join(packageRoot, kind), { withFileTypes: true })) {
      // The schemas beside the stages' folders (case.schema.json, agent-loop.schema.json, …), as they are.
      if (stage.isFile()) await cp(join(packageRoot, kind, stage.name), join(dir, kind, stage.name));
      if (!stage.isDirectory()) continue;
      await mkdir(join(dir, kind, stage.name), { recursive: true });
      for (const file of await readdir(join(packageRoot, kind, stage.name))) {
        if (!file.endsWith('.json') || keep?.get(stage.name)?.has(file) === false) continue;
        const name = file.slice(0, -'.json'.length);
        for (let k = 0; k < copies; k++) {
          const copy = k === 0 ? file : `${name}-copy-${k}.json`;
          await cp(join(packageRoot, kind, stage.name, file), join(dir, kind, stage.name, copy));
        }
      }
    }
  }
  return { dir, remove: () => rm(root, { recursive: true, force: true }) };
}
