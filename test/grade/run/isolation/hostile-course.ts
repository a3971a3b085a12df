// Running the real grader binary on a hostile course directory (test/fixtures/hostile-*), for the tests of
// issue 9's attacks: its exit code, its stdout and stderr, and the JSON report when asked for one.
import { createHash } from 'node:crypto';
import { readdir, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { REPO } from '../../course-fixture.ts';

// This repository's own command.
export const BIN = join(REPO, 'bin', 'theinference.js');

// The course page's three examples: a Read, a Bash and a Glob, graded in one process after the startup probe.
export const COURSE_CASES = ['--case', 'course-*'];

// What one run of the grader did.
export type Graded = { exitCode: number | undefined; stdout: string; stderr: string; pid: number | undefined };

// How to run it: extra environment, and whether its stdout is a plain pipe (as a CI runner's log is) rather than
// the socket Node gives a child, which /proc/<pid>/fd/1 cannot open.
export type RunWith = { env?: Record<string, string>; plainPipe?: boolean };

// Runs `bin test --stage register-tools … --isolation <mode>` in `dir` with the test's environment (TMPDIR is the
// scratch area's).
export function grade(
  bin: string,
  dir: string,
  isolation: 'required' | 'off',
  args: string[],
  how: RunWith = {},
): Promise<Graded> {
  return theinference(bin, dir, ['test', '--stage', 'register-tools', ...args, '--isolation', isolation], how);
}

// Runs `bin <args…>` in `dir` with the test's environment.
export async function theinference(bin: string, dir: string, args: string[], how: RunWith = {}): Promise<Graded> {
  const command =
    how.plainPipe === true
      ? ['bash', '-o', 'pipefail', '-c', '"$@" | cat', 'bash', 'node', bin, ...args]
      : ['node', bin, ...args];
  const run = execa(command[0]!, command.slice(1), {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1', ...how.env },
    reject: false,
    timeout: 120_000,
  });
  const { exitCode, stdout, stderr } = await run;
  return { exitCode, stdout, stderr, pid: run.pid };
}

// The `tests` of a JSON report, by name, with what each printed.
export function jsonTests(
  text: string,
): Map<string, { status: string; output: string | null; message: string | null }> {
  const report = JSON.parse(text) as {
    tests: { name: string; status: string; output: string | null; message: string | null }[];
  };
  return new Map(report.tests.map((t) => [t.name, t]));
}

// The live processes (zombies are dead) working anywhere under `root`, described: what a run left running.
export async function survivorsIn(root: string): Promise<string[]> {
  const found: string[] = [];
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const cwd = await readlink(`/proc/${pid}/cwd`).catch(() => '');
    if (cwd !== root && !cwd.startsWith(`${root}/`)) continue;
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => ') Z');
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    found.push(`${pid} ${cmdline.split('\0').join(' ').slice(0, 200)}`);
  }
  return found;
}

// A digest of every file under `dir` (name and content), to show that nothing there changed.
export async function digestTree(dir: string): Promise<string> {
  const hash = createHash('sha256');
  for (const entry of (await readdir(dir, { recursive: true, withFileTypes: true })).sort((a, b) =>
    join(a.parentPath, a.name).localeCompare(join(b.parentPath, b.name)),
  )) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    hash.update(file).update(await readFile(file));
  }
  return hash.digest('hex');
}

// A class run's summary (`--summary <file>`), row by submission directory under `<root>/submissions`.
export async function summaryRowOf(
  root: string,
  summary: string,
): Promise<(dir: string) => Record<string, unknown> | undefined> {
  const rows = JSON.parse(await readFile(summary, 'utf8')).submissions as Array<Record<string, unknown>>;
  return (dir) => rows.find((r) => join(root, 'submissions', String(r.name)) === dir);
}
