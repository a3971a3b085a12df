// Issue 14's attacks on the machine, against the trusted job (test/support/trusted-job.ts), run as this suite runs
// (as root, as CI does here: the sandbox then runs as nobody, so that the process count holds). Each program process
// may use 1 GiB of memory (--memory changes it) and says so in the verdict when it dies of it, start at most 256
// processes and threads, and write no file past 64 MiB; its tsx cache is in its own tmpfs, so nothing it writes there
// fills or stays on the host (useScratch checks the temp dir after each test); and no file descriptor the grader
// inherited reaches it, by /proc or by number; SIGTERM mid-fill stops the grader within a second, leaving nothing.
import { readdir, readFile, readlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { OUT_OF_MEMORY, TOO_MANY_PROCESSES } from '../../../../src/grade/judge/limit-reached.ts';
import { tsxCacheName } from '../../../../src/grade/run/isolation/tsx-cache.ts';
import { useScratch } from '../../course-fixture.ts';
import { checkOut, gradeStep, installGrader, type Step } from '../../../support/trusted-job.ts';
import { jsonTests, survivorsIn } from './hostile-course.ts';

const scratch = useScratch();
let grader: string;
beforeAll(async () => {
  grader = await installGrader(scratch.root);
});
afterEach(async () => expect(await survivorsIn(join(scratch.root, 'submissions'))).toEqual([]));

const REPORT = ['--reporter', 'json', '--timeout', '60000'];
const tested = (step: Step, name: string) => jsonTests(step.stdout).get(name);

describe("the sandbox's own file systems", () => {
  it('lets a program write its TMPDIR and nothing else: /, /etc, /dev and /dev/shm are read-only', async () => {
    const submission = await checkOut(scratch.root, 'hostile-fills-sandbox-root');
    const step = await gradeStep(grader, scratch.root, submission, ['--case', 'course-read-seeded-file', ...REPORT]);
    const output = tested(step, 'course-read-seeded-file')?.output ?? '';
    for (const dir of ['/', '/etc', '/dev', '/dev/shm', '/tmp']) expect(output).toContain(`[attack] ${dir} EROFS`);
    expect(output).toContain('[attack] $TMPDIR written');
  });
});

describe('memory', () => {
  it('stops a process at 1 GiB, and the verdict says it ran out of memory', async () => {
    const submission = await checkOut(scratch.root, 'hostile-exhausts-limits');
    const step = await gradeStep(grader, scratch.root, submission, ['--case', 'course-read-*', ...REPORT]);
    expect(step.exitCode).toBe(1);
    // Past the limit either a buffer cannot be allocated (execute throws) or V8's heap cannot grow (the process
    // aborts), whichever comes first: the verdict says the same of both.
    const message = tested(step, 'course-read-seeded-file')?.message ?? '';
    expect(message).toMatch(
      /^ {2}out of memory: (call 1 of 1 \(Read\) differs: execute threw .*allocation failed|the program (was killed by SIG[A-Z]+|exited with code \d+) during call 1 of 1 \(Read\))/m,
    );
    expect(message).toContain(`hint: ${OUT_OF_MEMORY.hint}`);
    expect(OUT_OF_MEMORY.hint).toContain('1024 MiB');
    expect(OUT_OF_MEMORY.hint).toContain('--memory');
  });

  it('lets it hold more with --memory', async () => {
    const submission = await checkOut(scratch.root, 'hostile-exhausts-limits');
    const step = await gradeStep(grader, scratch.root, submission, [
      '--case',
      'course-read-*',
      '--memory',
      '2048',
      ...REPORT,
    ]);
    expect(step.exitCode).toBe(1);
    const read = tested(step, 'course-read-seeded-file');
    expect(read?.output ?? '', read?.message ?? '').toContain('[attack] held 1536 MiB');
    expect(tested(step, 'course-read-seeded-file')?.message).not.toContain('out of memory');
  });

  it('refuses a --memory too small to start Node (exit 2)', async () => {
    const submission = await checkOut(scratch.root, 'hostile-exhausts-limits');
    const step = await gradeStep(grader, scratch.root, submission, ['--memory', '100']);
    expect([step.exitCode, step.stderr]).toEqual([
      2,
      'error: --memory 100 is too little: Node and tsx need 256 MiB to start. Give at least --memory 256 (the default is 1024).',
    ]);
  });
});

describe('processes and files', () => {
  it('starts fewer than 256 processes, and the verdict says it could start no more', async () => {
    const submission = await checkOut(scratch.root, 'hostile-exhausts-limits');
    const step = await gradeStep(grader, scratch.root, submission, ['--case', 'course-bash-*', ...REPORT]);
    expect(step.exitCode).toBe(1);
    const started = Number(
      /\[attack\] processes started: (\d+)/.exec(tested(step, 'course-bash-echo-hi')?.output ?? '')?.[1],
    );
    expect(started).toBeGreaterThan(0);
    expect(started).toBeLessThan(256);
    const message = tested(step, 'course-bash-echo-hi')?.message ?? '';
    expect(message).toMatch(/^ {2}too many processes: call 1 of 1 \(Bash\) differs: execute threw .*EAGAIN/m);
    expect(message).toContain(`hint: ${TOO_MANY_PROCESSES.hint}`);
  });

  it("writes no file past 64 MiB, and fills its tsx cache only as far as its own 1 GiB tmpfs, never the host's disk", async () => {
    const submission = await checkOut(scratch.root, 'hostile-exhausts-limits');
    const step = await gradeStep(grader, scratch.root, submission, ['--case', 'course-glob-*', ...REPORT]);
    expect(step.exitCode).toBe(1);
    const wrote = tested(step, 'course-glob-everything')?.output ?? '';
    expect(wrote).toContain('[attack] writing in TMPDIR: EFBIG');
    expect(wrote).toContain('[attack] wrote 0 MiB whole in TMPDIR');
    expect(wrote).toContain("[attack] the tsx cache is on TMPDIR's filesystem");
    // Filling 1 GiB may take more than the case's CPU budget on a busy machine: the cache's own tmpfs stops it
    // (ENOSPC under 1 GiB), or the budget ends the case first; either way it never held more than its tmpfs.
    const full = /\[attack\] filling the tsx cache: ENOSPC after (\d+) MiB/.exec(wrote);
    const verdict = tested(step, 'course-glob-everything')?.message ?? '';
    expect(full !== null || /out of CPU time/.test(verdict), `${verdict}\n${wrote}`).toBe(true);
    const reached = [...wrote.matchAll(/\[attack\] filled the tsx cache with (\d+) MiB/g)].map((m) => Number(m[1]));
    expect(Math.max(0, ...reached, Number(full?.[1] ?? 0))).toBeLessThanOrEqual(1024);
    // …and none of it is on the host afterwards: useScratch finds the grader's temp dir empty after each test.
  });
});

describe('stopped mid-run', () => {
  // The sandboxed program's Node (a standby: its working directory is the submission), and how many files the
  // attack has put in its tsx cache, read through /proc/<pid>/root as root can.
  const programIn = async (dir: string): Promise<number | undefined> => {
    for (const pid of (await readdir('/proc')).filter((p) => /^\d+$/.test(p))) {
      const cwd = await readlink(`/proc/${pid}/cwd`).catch(() => '');
      const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
      if (cwd === dir && cmdline.startsWith(`${process.execPath}\0`)) return Number(pid);
    }
    return undefined;
  };
  const cacheFilled = async (pid: number): Promise<number> => {
    const environ = await readFile(`/proc/${pid}/environ`, 'utf8').catch(() => '');
    const tmp = /(?:^|\0)TMPDIR=([^\0]*)/.exec(environ)?.[1];
    if (tmp === undefined) return 0;
    const entries = await readdir(`/proc/${pid}/root${tmp}/${tsxCacheName().replace(/\d+$/, '0')}`).catch(() => []);
    return entries.filter((e) => e.startsWith('fill-')).length;
  };

  // Reading another user's sandbox through /proc takes root, as this suite runs.
  it.runIf(process.getuid?.() === 0)(
    'by SIGTERM while its program fills its tsx cache: exits 130 within a second, leaving nothing on the host',
    async () => {
      const submission = await checkOut(scratch.root, 'hostile-exhausts-limits');
      const { THEINFERENCE_ISOLATION: _, ...env } = process.env;
      const args = ['test', '--stage', 'register-tools', '--dir', submission, '--case', 'write-empty-file-text'];
      const run = execa('node', [grader, ...args, '--timeout', '600000'], {
        cwd: scratch.root,
        env: { ...env, CI: 'true', NO_COLOR: '1' },
        extendEnv: false,
        reject: false,
      });
      let filled = 0;
      await expect
        .poll(
          async () => {
            const pid = await programIn(submission);
            filled = pid === undefined ? 0 : await cacheFilled(pid);
            return filled;
          },
          { timeout: 60_000, interval: 100 },
        )
        .toBeGreaterThanOrEqual(3);
      const sent = performance.now();
      run.kill('SIGTERM');
      const { exitCode } = await run;
      expect(performance.now() - sent).toBeLessThan(1000);
      expect(exitCode).toBe(130);
      // useScratch then finds the grader's temp dir empty, and the afterEach above no process left.
    },
  );
});

describe('file descriptors', () => {
  it('never hands the program one the grader inherited (a low one and a high one)', async () => {
    const submission = await checkOut(scratch.root, 'hostile-exhausts-limits');
    const secret = join(scratch.root, 'inherited-secret.txt');
    await writeFile(secret, 'the grader inherited this file\n');
    const { THEINFERENCE_ISOLATION: _, ...env } = process.env;
    const args = ['test', '--stage', 'register-tools', '--dir', submission, '--case', 'course-glob-*', ...REPORT];
    const step = await execa(
      'bash',
      ['-c', 'exec 9<"$1" 200<"$1"; shift; exec node "$@"', 'bash', secret, grader, ...args],
      {
        cwd: scratch.root,
        env: { ...env, CI: 'true', NO_COLOR: '1' },
        extendEnv: false,
        reject: false,
      },
    );
    expect(step.exitCode).toBe(1);
    const output = jsonTests(step.stdout).get('course-glob-everything')?.output ?? '';
    expect(output).toContain('[attack] descriptors on files: none');
    expect(step.stdout).not.toContain(secret);
  });
});
