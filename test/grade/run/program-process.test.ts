// How a program process is started, for real: its TMPDIR holds its tsx cache (in the sandbox, one of its own, in its
// tmpfs; without it, a link to its command's; never the grader's own), TSX_DISABLE_CACHE is honoured, a program killed by a signal is reported as such (bubblewrap reports it as
// an exit code), and a process that cannot be set up is a spawn failure, not a crash of the grader.
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROGRAM_USER } from '../../../src/grade/run/isolation/program-user.ts';
import { openTsxCache, tsxCacheName } from '../../../src/grade/run/isolation/tsx-cache.ts';
import { startProcess } from '../../../src/grade/run/program-process.ts';
import { runProgram } from '../../../src/grade/run/run-program.ts';
import { driverEntry } from '../../../src/modes/driver-files.ts';
import { SANDBOX } from '../../support/isolation.ts';
import { makeCourse, useScratch, REPO } from '../course-fixture.ts';

const scratch = useScratch();

// Runs one case whose Bash call counts the entries of the process's `$TMPDIR/tsx-<euid>` (the sandbox lives in
// that TMPDIR; Bash itself gets a fixed environment), and returns that count as printed.
async function cacheSeenByProgram(
  env: NodeJS.ProcessEnv,
  tsxCache: string | undefined,
  sandbox = SANDBOX,
  name = tsxCacheName(),
): Promise<unknown> {
  const dir = await makeCourse(scratch);
  const command = `ls "<sandbox>/../${name}" 2>/dev/null | wc -l`;
  const line = JSON.stringify({ calls: [{ tool: 'Bash', input: { command } }] });
  const lines: string[] = [];
  const confinement = { sandbox, tsxCache };
  const result = await runProgram({
    dir,
    cases: [line],
    timeoutMs: 30_000,
    env,
    confinement,
    onLine: (l) => {
      lines.push(l.text);
      return 'continue';
    },
  });
  expect(result.end).toEqual({ kind: 'exited', code: 0, signal: null });
  return (JSON.parse(lines[0]!) as { results: { content: string }[] }).results[0]?.content.trim();
}

describe('the tsx cache of a command', () => {
  it.runIf(SANDBOX)(
    "in the sandbox, is the program's own $TMPDIR/tsx-<euid>, filled as it compiles; nothing reaches the command's",
    async () => {
      // A command's cache, given to a sandboxed process all the same (a sandboxed command opens none): it is not used.
      const cache = await openTsxCache(process.env, false);
      try {
        expect(Number(await cacheSeenByProgram(process.env, cache.dir, true))).toBeGreaterThan(0);
        expect(await readdir(cache.dir!)).toEqual([]);
        expect(existsSync(join(scratch.tmp, tsxCacheName()))).toBe(false);
      } finally {
        expect(await cache.close()).toBeUndefined();
      }
    },
  );

  it.runIf(PROGRAM_USER === undefined)(
    "without the sandbox, is the command's, linked as the program's $TMPDIR/tsx-<euid>; the grader's own cache is never created",
    async () => {
      const cache = await openTsxCache(process.env, false);
      try {
        const seen = Number(await cacheSeenByProgram(process.env, cache.dir, false));
        const written = await readdir(cache.dir!);
        expect(seen).toBeGreaterThan(0);
        expect(written.length).toBe(seen);
        expect(existsSync(join(scratch.tmp, tsxCacheName()))).toBe(false);
      } finally {
        expect(await cache.close()).toBeUndefined();
      }
      expect(existsSync(cache.dir!)).toBe(false);
    },
  );

  it.runIf(PROGRAM_USER !== undefined)(
    "without the sandbox, for a grader run as root, is the submission's own in its $TMPDIR, as nobody; nothing reaches the command's",
    async () => {
      const cache = await openTsxCache(process.env, false);
      try {
        const own = `tsx-${PROGRAM_USER?.uid}`;
        expect(Number(await cacheSeenByProgram(process.env, cache.dir, false, own))).toBeGreaterThan(0);
        expect(await readdir(cache.dir!)).toEqual([]);
      } finally {
        expect(await cache.close()).toBeUndefined();
      }
    },
  );

  it('is none when the caller sets TSX_DISABLE_CACHE: nothing made, nothing seen', async () => {
    const env = { ...process.env, TSX_DISABLE_CACHE: '1' };
    const cache = await openTsxCache(env, false);
    expect(cache.dir).toBeUndefined();
    expect(await cacheSeenByProgram(env, undefined)).toBe('0');
  });
});

describe('startProcess', () => {
  it.runIf(SANDBOX && PROGRAM_USER !== undefined)(
    'run as root, grades a submission under a TMPDIR only root can enter (its copy is made in /tmp), leaving nothing there',
    async () => {
      const dir = await makeCourse(scratch);
      const closed = join(scratch.tmp, 'closed');
      await mkdir(closed, { mode: 0o700 });
      const saved = process.env.TMPDIR;
      process.env.TMPDIR = closed;
      try {
        const lines: string[] = [];
        const result = await runProgram({
          dir,
          cases: [JSON.stringify({ files: { 'a.txt': 'A' }, calls: [{ tool: 'Read', input: { path: 'a.txt' } }] })],
          timeoutMs: 30_000,
          env: process.env,
          confinement: { sandbox: true, tsxCache: undefined },
          onLine: (l) => {
            lines.push(l.text);
            return 'continue';
          },
        });
        expect(result.end).toEqual({ kind: 'exited', code: 0, signal: null });
        expect(lines).toEqual(['{"results":[{"content":"1: A"}]}']);
        expect(await readdir(closed)).toEqual([]);
      } finally {
        process.env.TMPDIR = saved;
        await rm(closed, { recursive: true, force: true });
      }
    },
  );

  // Outside the sandbox a root grader's submission runs as nobody, from the staged copy: the grader's install (the
  // reference, the snapshots) can then be closed to it, as Gradescope's run_autograder does. The reference keeps root.
  it.runIf(PROGRAM_USER !== undefined)(
    "run as root without the sandbox, starts a submission's process as nobody, who cannot read a root-only file",
    async () => {
      const dir = await makeCourse(scratch);
      const secret = join(await mkdtemp('/tmp/theinference-secret-'), 'answer.ts');
      await chmod(dirname(secret), 0o755);
      await writeFile(secret, 'export const answer = 42;\n', { mode: 0o600 });
      const probe = (at: string) =>
        outputOf(at, [
          '-e',
          `const fs = require('node:fs'); let read; try { fs.readFileSync(${JSON.stringify(secret)}); read = 'read'; } catch (e) { read = e.code; } console.log(JSON.stringify({ uid: process.getuid(), read, program: fs.existsSync('program.ts') }));`,
        ]);
      try {
        expect(await probe(dir)).toEqual({ uid: PROGRAM_USER?.uid, read: 'EACCES', program: true });
        expect(await probe(REPO)).toEqual({ uid: 0, read: 'read', program: true });
      } finally {
        await rm(dirname(secret), { recursive: true, force: true });
      }
    },
  );

  it('reports a program killed by a signal as killed by it', async () => {
    const dir = await makeCourse(scratch, 'killed-by-signal');
    const result = await runProgram({
      dir,
      driver: 'program.ts',
      cases: ['{"calls":[]}'],
      timeoutMs: 30_000,
      env: process.env,
      confinement: { sandbox: SANDBOX, tsxCache: undefined },
      onLine: () => 'continue',
    });
    expect(result.end).toEqual({ kind: 'exited', code: null, signal: 'SIGTERM' });
  });

  it("runs the package's driver with the cases on stdin and nothing else of the grader in its arguments", async () => {
    const dir = await makeCourse(scratch);
    const command = 'cat /proc/$PPID/cmdline | tr "\\\\0" " "';
    const line = JSON.stringify({ calls: [{ tool: 'Bash', input: { command } }] });
    const lines: string[] = [];
    await runProgram({
      dir,
      cases: [line],
      timeoutMs: 30_000,
      env: process.env,
      confinement: { sandbox: SANDBOX, tsxCache: undefined },
      onLine: (l) => {
        lines.push(l.text);
        return 'continue';
      },
    });
    const argv = (JSON.parse(lines[0]!) as { results: { content: string }[] }).results[0]?.content ?? '';
    expect(argv).toMatch(new RegExp(` ${driverEntry().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} dispatch - $`));
    expect(argv).not.toContain(join(REPO, 'cases'));
    expect(argv).not.toContain(join(REPO, 'snapshots'));
  });
});

// What a process started unsandboxed in `dir` with `args` prints on stdout, as JSON.
async function outputOf(dir: string, args: string[]): Promise<unknown> {
  const proc = await startProcess({
    dir,
    env: process.env,
    args,
    stdin: 'ignore',
    sandbox: false,
    tsxCache: undefined,
  });
  let out = '';
  proc.child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await new Promise((exited) => proc.child.once('exit', exited));
  expect(await proc.dispose()).toBeUndefined();
  return JSON.parse(out);
}

describe('a sandboxed process, once disposed', () => {
  // bwrap's session: bwrap itself, the sandbox's pid 1 and everything in it.
  const leftIn = async (session: number): Promise<string[]> => {
    const left: string[] = [];
    for (const pid of await readdir('/proc')) {
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
      const [state, , , sid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(sid) === session) left.push(`${pid} ${state}`);
    }
    return left;
  };
  const start = (dir: string, args: string[]) =>
    startProcess({ dir, env: process.env, args, stdin: 'pipe', sandbox: true, tsxCache: undefined });

  it.runIf(SANDBOX).each<[string, string[], number]>([
    ['after it exited on its own', ['-e', '0'], -1],
    ['killed while it runs', ['-e', 'setInterval(() => {}, 1000)'], 300],
    ['killed as soon as it is spawned', ['-e', 'setInterval(() => {}, 1000)'], 0],
  ])('leaves nothing of its session, not even a zombie: %s', async (_, args, killAfterMs) => {
    const dir = await makeCourse(scratch);
    const proc = await start(dir, args);
    const session = proc.child.pid!;
    if (killAfterMs < 0) await new Promise((exited) => proc.child.once('exit', exited));
    else await new Promise((wait) => setTimeout(wait, killAfterMs));
    expect(await proc.dispose()).toBeUndefined();
    expect(await leftIn(session)).toEqual([]);
  });
});
