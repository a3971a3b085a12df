// Course directories for tests, made at test time: the reference course (test/support/reference-course.ts), its
// src/execute.ts also as src/reference-execute.ts for fixtures that wrap the reference dispatcher, then the
// scenario's own files from test/fixtures/<scenario>/ on top.
import { chmod, cp, mkdir, mkdtemp, readdir, readFile, readlink, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { REPO, writeInstalledCourse, writeLoopCourse, writeReferenceCourse } from '../support/reference-course.ts';
import { PROGRAM_USER } from '../../src/grade/run/isolation/program-user.ts';
import { holdStage } from '../../src/grade/run/isolation/stage-submission.ts';
import { tsxCacheName } from '../../src/grade/run/isolation/tsx-cache.ts';

// This repository's root.
export { REPO };

// A scratch area for one test file: `courses/` for course dirs, `tmp/` to point the grader's TMPDIR at.
export type Scratch = { root: string; tmp: string; remove: () => Promise<void> };

// Makes a scratch area outside whatever TMPDIR the grader will be given. Readable by every user, as an install of
// the grader is (a grader run as root sandboxes its programs as nobody: src/grade/run/isolation/program-user.ts).
export async function makeScratch(): Promise<Scratch> {
  const root = await mkdtemp(join(tmpdir(), 'theinference-test-'));
  await chmod(root, 0o755);
  const tmp = join(root, 'tmp');
  await mkdir(tmp);
  await mkdir(join(root, 'courses'));
  return { root, tmp, remove: () => rm(root, { recursive: true, force: true }) };
}

// The tsx cache kept on purpose between runs, not a leftover: the grader's own (`tsx-<euid>`, when it runs from its
// sources). Any other entry (a `theinference-*` dir above all: a command's tsx cache, a staged copy) is a leak.
export const isTsxCache = (entry: string): boolean => entry === tsxCacheName();

// Hooks for one test file: a scratch area made before its tests, TMPDIR pointed at its `tmp/` so every temp dir
// the grader and its programs make lands there, `tmp/` checked empty after each test but for the tsx cache
// (`ours` picks the entries that count), and all restored and removed at the end. The returned object is filled
// in before the tests run.
export function useScratch(ours: (entry: string) => boolean = (entry) => !isTsxCache(entry)): Scratch {
  const scratch = {} as Scratch;
  let savedTmp: string | undefined;
  beforeAll(async () => {
    Object.assign(scratch, await makeScratch());
    savedTmp = process.env.TMPDIR;
    process.env.TMPDIR = scratch.tmp;
  });
  afterEach(async () => {
    expect((await readdir(scratch.tmp)).filter(ours)).toEqual([]);
  });
  afterAll(async () => {
    if (savedTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmp;
    await scratch.remove();
  });
  return scratch;
}

// A course directory under `scratch`, with the scenario's files (if any) over the reference.
export async function makeCourse(scratch: Scratch, scenario?: string): Promise<string> {
  const dir = await mkdtemp(join(scratch.root, 'courses', `${scenario ?? 'reference'}-`));
  await writeReferenceCourse(dir);
  await cp(join(REPO, 'src', 'execute.ts'), join(dir, 'src', 'reference-execute.ts'));
  if (scenario !== undefined) await cp(join(REPO, 'test', 'fixtures', scenario), dir, { recursive: true });
  return dir;
}

// A course directory at the stage agent-loop under `scratch` (test/support/reference-course.ts), the scenario's
// files over the reference loop.
export async function makeLoopCourse(scratch: Scratch, scenario?: string): Promise<string> {
  const dir = await mkdtemp(join(scratch.root, 'courses', `${scenario ?? 'loop'}-`));
  await writeLoopCourse(dir);
  if (scenario !== undefined) await cp(join(REPO, 'test', 'fixtures', scenario), dir, { recursive: true });
  return dir;
}

// A course directory with theinference installed in its node_modules (test/support/reference-course.ts), the
// scenario's files over the reference; `bin` is the installed copy's command.
export async function makeInstalledCourse(scratch: Scratch, scenario?: string): Promise<{ dir: string; bin: string }> {
  const dir = await mkdtemp(join(scratch.root, 'courses', `${scenario ?? 'reference'}-installed-`));
  await chmod(dir, 0o755);
  const bin = await writeInstalledCourse(dir);
  await cp(join(REPO, 'src', 'execute.ts'), join(dir, 'src', 'reference-execute.ts'));
  if (scenario !== undefined) await cp(join(REPO, 'test', 'fixtures', scenario), dir, { recursive: true });
  return { dir, bin };
}

// Whether a process whose command line contains `marker` is running (Linux /proc), and, given `cwd`, works in
// that directory: test files run in parallel, and each must see only the processes of its own courses.
export async function processRunning(marker: string, cwd?: string): Promise<boolean> {
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (!cmdline.split('\0').join(' ').includes(marker)) continue;
    if (cwd === undefined || (await readlink(`/proc/${pid}/cwd`).catch(() => '')) === cwd) return true;
  }
  return false;
}

// The live standby bootstraps whose working directory is `dir` (Linux /proc; a zombie has no cwd to read): the
// Node processes, not the bubblewrap and the shell around a sandboxed one.
export async function standbysIn(dir: string): Promise<number[]> {
  // Outside the sandbox, a root grader's standby works in the staged copy its pool holds (stage-submission.ts).
  const copy = PROGRAM_USER === undefined ? undefined : await holdStage(await realpath(dir));
  try {
    return await standbysWorkingIn([dir, ...(copy === undefined ? [] : [copy.path])]);
  } finally {
    await copy?.release();
  }
}

async function standbysWorkingIn(dirs: string[]): Promise<number[]> {
  const found: number[] = [];
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const cwd = await readlink(`/proc/${pid}/cwd`).catch(() => '');
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    const program = cmdline.split('\0')[0] ?? '';
    if (dirs.includes(cwd) && /standby\.[jt]s/.test(cmdline) && program === process.execPath) found.push(Number(pid));
  }
  return found;
}
