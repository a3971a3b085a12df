// The grader's staged copy of a submission: made on first hold, made to hold the submission as it is when a run
// stages it (and only rewritten when it changed), kept while anything holds it, removed with the last hold.
import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, readFile, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  holdStage,
  MODULES_MOUNT,
  runsStaged,
  stageForRun,
  stageSubmission,
} from '../../../../src/grade/run/isolation/stage-submission.ts';
import { PROGRAM_USER } from '../../../../src/grade/run/isolation/program-user.ts';
import { makeCourse, REPO, useScratch } from '../../course-fixture.ts';

// useScratch checks after each test that no staged copy is left in the temp dir.
const scratch = useScratch();

describe('the staged copy', () => {
  it("holds the submission's own files and an empty mount point for the grader's runtime packages", async () => {
    const dir = await realpath(await makeCourse(scratch));
    const hold = await holdStage(dir);
    try {
      expect(hold.path.startsWith(join(scratch.tmp, 'theinference-stage-'))).toBe(true);
      expect((await readdir(hold.path)).sort()).toEqual(
        [MODULES_MOUNT, 'package.json', 'program.ts', 'src', 'tsconfig.json'].sort(),
      );
      expect(await readdir(join(hold.path, MODULES_MOUNT))).toEqual([]);
      expect(await readFile(join(hold.path, 'program.ts'), 'utf8')).toBe(
        await readFile(join(dir, 'program.ts'), 'utf8'),
      );
    } finally {
      await hold.release();
    }
    expect(existsSync(hold.path)).toBe(false);
  });

  it('is one copy for every holder, refreshed when a run stages a changed submission, gone with the last hold', async () => {
    const dir = await realpath(await makeCourse(scratch));
    const standby = await holdStage(dir);
    await writeFile(join(dir, 'src', 'extra.ts'), 'export const saved = 1;\n');
    expect(existsSync(join(standby.path, 'src', 'extra.ts'))).toBe(false);
    const run = await stageSubmission(dir);
    expect(run.hold.path).toBe(standby.path);
    expect(await readFile(join(standby.path, 'src', 'extra.ts'), 'utf8')).toBe('export const saved = 1;\n');
    await run.hold.release();
    expect(existsSync(standby.path)).toBe(true);
    await standby.release();
    await standby.release();
    expect(existsSync(standby.path)).toBe(false);
  });
});

// Every file under `root` (the modules' mount point aside) with its text and whether it is executable, and every
// directory, by path.
async function tree(root: string): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name).slice(root.length + 1);
    if (path === MODULES_MOUNT || path === 'node_modules' || path.startsWith('node_modules/')) continue;
    const full = join(root, path);
    found[path] = entry.isDirectory()
      ? 'dir'
      : `${((await stat(full)).mode & 0o111) === 0 ? '-' : 'x'} ${await readFile(full, 'utf8')}`;
  }
  return found;
}

describe('the staged copy, refreshed', () => {
  it('holds exactly the submission after each change, rewriting only the files that changed', async () => {
    const dir = await realpath(await makeCourse(scratch));
    await mkdir(join(dir, 'lib', 'deep'), { recursive: true });
    await writeFile(join(dir, 'lib', 'deep', 'a.ts'), 'a');
    await writeFile(join(dir, 'lib', 'b.ts'), 'b');
    await writeFile(join(dir, 'c.ts'), 'c');
    const first = await stageSubmission(dir);
    const copy = first.hold.path;
    try {
      expect(await tree(copy)).toEqual(await tree(dir));
      const untouched = (await stat(join(copy, 'program.ts'))).mtimeMs;
      // A file changed, one removed with the directory it was the last of, a directory that became a file, a file
      // that became a directory, and a file made executable.
      await writeFile(join(dir, 'lib', 'b.ts'), 'b, saved');
      await rm(join(dir, 'lib', 'deep'), { recursive: true });
      await writeFile(join(dir, 'lib', 'deep'), 'now a file');
      await rm(join(dir, 'c.ts'));
      await mkdir(join(dir, 'c.ts'));
      await writeFile(join(dir, 'c.ts', 'inner.ts'), 'inner');
      await chmod(join(dir, 'src', 'execute.ts'), 0o755);
      const second = await stageSubmission(dir);
      await second.hold.release();
      expect(await tree(copy)).toEqual(await tree(dir));
      expect((await stat(join(copy, 'program.ts'))).mtimeMs).toBe(untouched);
      await rm(join(dir, 'lib'), { recursive: true });
      const third = await stageSubmission(dir);
      await third.hold.release();
      expect(await tree(copy)).toEqual(await tree(dir));
    } finally {
      await first.hold.release();
    }
  });
});

describe('stageForRun', () => {
  it('stages nothing for the reference in the package root, nor, for a grader not run as root, without the sandbox', async () => {
    const dir = await makeCourse(scratch);
    const runs: Array<readonly [string, boolean]> = [
      [REPO, true],
      [REPO, false],
    ];
    if (PROGRAM_USER === undefined) runs.push([dir, false]);
    for (const [d, sandbox] of runs) {
      const staged = await stageForRun(d, sandbox, REPO);
      expect(staged.warnings).toEqual([]);
      expect((await readdir(scratch.tmp)).filter((e) => e.startsWith('theinference-stage-'))).toEqual([]);
      await staged.release();
    }
  });

  it('stages a submission for every run that reads the copy: sandboxed, or as nobody for a grader run as root', async () => {
    const dir = await makeCourse(scratch);
    expect(runsStaged(true)).toBe(true);
    expect(runsStaged(false)).toBe(PROGRAM_USER !== undefined);
    const staged = await stageForRun(dir, false, REPO);
    const made = (await readdir(scratch.tmp)).filter((e) => e.startsWith('theinference-stage-'));
    expect(made).toHaveLength(PROGRAM_USER === undefined ? 0 : 1);
    await staged.release();
  });

  it('warns of the links it left out, which the program will not find', async () => {
    const dir = await makeCourse(scratch);
    await symlink('../shared/helpers.ts', join(dir, 'src', 'helpers.ts'));
    const staged = await stageForRun(dir, true, REPO);
    try {
      expect(staged.warnings).toEqual([
        'the grader copies only your own regular files for your program to run from, and never follows a link: src/helpers.ts (a link to ../shared/helpers.ts) is not there for your program. Replace a link with the file or directory itself.',
      ]);
    } finally {
      await staged.release();
    }
  });
});
