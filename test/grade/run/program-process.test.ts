// How a program process is started, for real: its TMPDIR holds the tsx cache of its command (never the grader's
// own), TSX_DISABLE_CACHE is honoured, a program killed by a signal is reported as such (bubblewrap reports it as
// an exit code), and a process that cannot be set up is a spawn failure, not a crash of the grader.
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openTsxCache, tsxCacheName } from '../../../src/grade/run/isolation/tsx-cache.ts';
import { startProcess } from '../../../src/grade/run/program-process.ts';
import { runProgram } from '../../../src/grade/run/run-program.ts';
import { SANDBOX } from '../../support/isolation.ts';
import { makeCourse, useScratch, REPO } from '../course-fixture.ts';

const scratch = useScratch();

// Runs one case whose Bash call counts the entries of the process's `$TMPDIR/tsx-<euid>` (the sandbox lives in
// that TMPDIR; Bash itself gets a fixed environment), and returns that count as printed.
async function cacheSeenByProgram(env: NodeJS.ProcessEnv, tsxCache: string | undefined): Promise<unknown> {
  const dir = await makeCourse(scratch);
  const command = `ls "<sandbox>/../${tsxCacheName()}" 2>/dev/null | wc -l`;
  const line = JSON.stringify({ calls: [{ tool: 'Bash', input: { command } }] });
  const lines: string[] = [];
  const confinement = { sandbox: SANDBOX, tsxCache };
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
  it("is the program's $TMPDIR/tsx-<euid>, filled as it compiles; the grader's own cache is never created", async () => {
    const cache = await openTsxCache(process.env);
    try {
      const seen = Number(await cacheSeenByProgram(process.env, cache.dir));
      const written = await readdir(cache.dir!);
      expect(seen).toBeGreaterThan(0);
      expect(written.length).toBe(seen);
      expect(existsSync(join(scratch.tmp, tsxCacheName()))).toBe(false);
    } finally {
      expect(await cache.close()).toBeUndefined();
    }
    expect(existsSync(cache.dir!)).toBe(false);
  });

  it('is none when the caller sets TSX_DISABLE_CACHE: nothing made, nothing seen', async () => {
    const env = { ...process.env, TSX_DISABLE_CACHE: '1' };
    const cache = await openTsxCache(env);
    expect(cache.dir).toBeUndefined();
    expect(await cacheSeenByProgram(env, undefined)).toBe('0');
  });
});

describe('startProcess', () => {
  it('reports a program killed by a signal as killed by it', async () => {
    const dir = await makeCourse(scratch, 'killed-by-signal');
    const result = await runProgram({
      dir,
      cases: ['{"calls":[]}'],
      timeoutMs: 30_000,
      env: process.env,
      confinement: { sandbox: SANDBOX, tsxCache: undefined },
      onLine: () => 'continue',
    });
    expect(result.end).toEqual({ kind: 'exited', code: null, signal: 'SIGTERM' });
  });

  it('runs program.ts with the cases on stdin and nothing of the grader in its arguments', async () => {
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
    expect(argv).toMatch(/ program\.ts dispatch - $/);
    expect(argv).not.toContain(join(REPO, 'cases'));
    expect(argv).not.toContain(join(REPO, 'snapshots'));
  });
});

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
