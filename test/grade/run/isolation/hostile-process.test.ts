// Issue 9's attacks on the grader's process (attacks 4–7 and 9): its environment, its stdout, its report after it
// exits, its execution, and the removal of its temp space; and issue 10's rule that nothing a run started outlives
// it. Each hostile course runs under --isolation required, where the attack must fail; and, where that is safe,
// under --isolation off, where it works: the proof that the fixture is a real attack.
import { execFileSync } from 'node:child_process';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { AS_ITSELF, CHATTR_WORKS } from '../../../support/isolation.ts';
import { makeCourse, processRunning, useScratch } from '../../course-fixture.ts';
import { BIN, COURSE_CASES, grade, jsonTests, survivorsIn } from './hostile-course.ts';

const scratch = useScratch();
// Nothing a run started survives it: no process is left working in any of this file's courses.
afterEach(async () => expect(await survivorsIn(join(scratch.root, 'courses'))).toEqual([]));
const JSON_REPORT = [...COURSE_CASES, '--reporter', 'json'];
const outputs = (stdout: string): string => [...jsonTests(stdout).values()].map((t) => t.output ?? '').join('\n');

// The pids of the live processes whose command line contains `marker` (Linux /proc).
async function pidsOf(marker: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    const state = await readFile(`/proc/${entry}/stat`, 'utf8').then(
      (s) => s.slice(s.lastIndexOf(')') + 2, s.lastIndexOf(')') + 3),
      () => 'Z',
    );
    if (cmdline.includes(marker) && state !== 'Z') pids.push(Number(entry));
  }
  return pids;
}

// Whether the process `pid` is still alive: neither gone nor a zombie.
async function stillAlive(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  return stat !== undefined && !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
}

describe("attack 4: reading the grader's environment (tokens, GITHUB_ENV, NODE_OPTIONS)", () => {
  const SECRETS = {
    ANTHROPIC_API_KEY: 'sk-ant-canary-4',
    GITHUB_TOKEN: 'ghp_canary_4',
    NODE_OPTIONS: '--max-old-space-size=3072',
  };

  it('sees none of it in the sandbox, and cannot write GITHUB_ENV', async () => {
    const githubEnv = join(scratch.root, 'github-env-required');
    await writeFile(githubEnv, '');
    const run = await grade(BIN, await makeCourse(scratch, 'hostile-reads-environment'), 'required', JSON_REPORT, {
      env: { ...SECRETS, GITHUB_ENV: githubEnv },
    });
    expect(run.exitCode).toBe(1);
    expect(outputs(run.stdout)).toContain('[attack] environment: no token found');
    for (const value of [...Object.values(SECRETS), githubEnv]) expect(run.stdout + run.stderr).not.toContain(value);
    expect(await readFile(githubEnv, 'utf8')).toBe('');
  });

  it.runIf(AS_ITSELF)(
    'finds the tokens through its parent and writes GITHUB_ENV without the sandbox: the attack is real',
    async () => {
      const githubEnv = join(scratch.root, 'github-env-off');
      await writeFile(githubEnv, '');
      const run = await grade(BIN, await makeCourse(scratch, 'hostile-reads-environment'), 'off', JSON_REPORT, {
        env: { ...SECRETS, GITHUB_ENV: githubEnv },
      });
      expect(outputs(run.stdout)).toContain(`GITHUB_TOKEN=${SECRETS.GITHUB_TOKEN}`);
      expect(await readFile(githubEnv, 'utf8')).toBe('NODE_OPTIONS=--require=/tmp/pwned.cjs\n');
    },
  );
});

describe("attack 5: writing workflow commands into the grader's own stdout (--reporter github)", () => {
  const raw = (stdout: string): string[] =>
    stdout.split('\n').filter((l) => l.startsWith('::add-mask::hunter2') || l.startsWith('::error title=pwned'));
  const log = { plainPipe: true };

  it('reaches only its own stdout in the sandbox, which the grader reads and quarantines', async () => {
    const run = await grade(
      BIN,
      await makeCourse(scratch, 'hostile-writes-grader-stdout'),
      'required',
      [...COURSE_CASES, '--reporter', 'github'],
      log,
    );
    expect(run.exitCode).toBe(1);
    expect(raw(run.stdout)).toEqual([]);
    expect(run.stdout).toContain('| ');
    expect(
      run.stdout
        .split('\n')
        .filter((l) => l.includes('hunter2'))
        .every((l) => l.startsWith('| ') || l.startsWith('::error title=course-')),
    ).toBe(true);
  });

  it.runIf(AS_ITSELF)('puts raw commands in the log without the sandbox: the attack is real', async () => {
    const run = await grade(
      BIN,
      await makeCourse(scratch, 'hostile-writes-grader-stdout'),
      'off',
      [...COURSE_CASES, '--reporter', 'github'],
      log,
    );
    expect(raw(run.stdout).length).toBeGreaterThan(0);
  });
});

describe('attack 6: a setsid, double-forked watcher that rewrites --output once the grader has exited', () => {
  const MARKER = 'hostile-outlives-grader-watcher';
  const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('dies with the program in the sandbox: the report stays the one the grader wrote', async () => {
    const dir = await makeCourse(scratch, 'hostile-outlives-grader');
    const run = await grade(BIN, dir, 'required', [...JSON_REPORT, '--output', 'results.json']);
    expect([run.exitCode, run.stdout]).toEqual([1, '0 passed, 3 failed\nWrote the json report to results.json']);
    const written = await readFile(join(dir, 'results.json'), 'utf8');
    expect(await pidsOf(MARKER)).toEqual([]);
    await wait(1500);
    expect(await readFile(join(dir, 'results.json'), 'utf8')).toBe(written);
    expect(JSON.parse(written)).toMatchObject({ status: 'fail', passed: 0, failed: 3 });
  });

  it.runIf(AS_ITSELF)('outlives the grader and forges the report without the sandbox: the attack is real', async () => {
    const dir = await makeCourse(scratch, 'hostile-outlives-grader');
    try {
      const run = await grade(BIN, dir, 'off', [...JSON_REPORT, '--output', 'results.json']);
      expect(run.exitCode).toBe(1);
      await expect
        .poll(() => readFile(join(dir, 'results.json'), 'utf8').then((t) => JSON.parse(t).status), { timeout: 10_000 })
        .toBe('pass');
    } finally {
      // Ours to end: started by this test's hostile program. Killed, each is gone (or a zombie) only a moment later.
      const pids = await pidsOf(MARKER);
      for (const pid of pids) process.kill(pid, 'SIGKILL');
      await expect.poll(async () => (await Promise.all(pids.map(stillAlive))).some(Boolean)).toBe(false);
    }
  });
});

describe('attack 7: SIGSTOP to its parent', () => {
  const stateOf = (pid: number) =>
    readFile(`/proc/${pid}/stat`, 'utf8').then(
      (s) => s.slice(s.lastIndexOf(')') + 2, s.lastIndexOf(')') + 3),
      () => 'gone',
    );

  it('cannot stop the grader in the sandbox: the run ends with its verdict', async () => {
    const run = await grade(BIN, await makeCourse(scratch, 'hostile-stops-grader'), 'required', JSON_REPORT);
    expect(run.exitCode).toBe(1);
    expect([...jsonTests(run.stdout).values()].map((t) => t.status)).toEqual(['fail', 'fail', 'fail']);
  });

  it.runIf(AS_ITSELF)('stops the grader for good without the sandbox: the attack is real', async () => {
    const dir = await makeCourse(scratch, 'hostile-stops-grader');
    const grader = execa('node', [BIN, 'test', '--stage', 'register-tools', ...COURSE_CASES, '--isolation', 'off'], {
      cwd: dir,
      env: { NO_COLOR: '1' },
      reject: false,
    });
    await expect.poll(() => stateOf(grader.pid!), { timeout: 30_000 }).toBe('T');
    // Let it go on, so that it cleans up after itself: each program it starts (the leaked-state re-check) stops
    // it again.
    const resume = setInterval(
      () => grader.pid !== undefined && grader.exitCode === null && process.kill(grader.pid, 'SIGCONT'),
      100,
    );
    try {
      expect((await grader).exitCode).toBe(1);
    } finally {
      clearInterval(resume);
    }
  });
});

describe('attack 9: an immutable file in its TMPDIR', () => {
  it('cannot make one in the sandbox (no capability, a tmpfs that dies with it): a clean pass', async () => {
    const run = await grade(BIN, await makeCourse(scratch, 'hostile-immutable-temp-file'), 'required', JSON_REPORT);
    expect([run.exitCode, run.stderr]).toEqual([0, '']);
    expect(outputs(run.stdout)).toMatch(
      /\[attack\] cannot make a file immutable: .*(Operation not permitted|not supported)/,
    );
  });

  // Root can make a file immutable on most file systems; skipped where this machine cannot.
  it.runIf(CHATTR_WORKS && AS_ITSELF)(
    'leaves it behind without the sandbox, with a warning, and still writes the report and passes',
    async () => {
      const run = await grade(BIN, await makeCourse(scratch, 'hostile-immutable-temp-file'), 'off', [
        ...COURSE_CASES,
        '--reporter',
        'json',
        '--output',
        'results.json',
      ]);
      try {
        expect(run.exitCode).toBe(0);
        expect(run.stdout).toBe('3 passed, 0 failed\nWrote the json report to results.json');
        expect(run.stderr).toMatch(/^warning: could not remove .*theinference-run-\w+ \(E[A-Z]+\).*chattr -R -i/m);
      } finally {
        for (const entry of await readdir(scratch.tmp)) {
          if (entry.startsWith('theinference-run-')) {
            execFileSync('chattr', ['-R', '-i', join(scratch.tmp, entry)]);
            await rm(join(scratch.tmp, entry), { recursive: true, force: true });
          }
        }
      }
    },
  );
});

describe("issue 10: a run's end leaves nothing running, the tools' bash commands included", () => {
  it.each(['required', 'off'] as const)(
    'kills the bash command of a case that timed out (--isolation %s)',
    async (isolation) => {
      // Two cases, so that a startup probe answers first and the Bash case has the plain timeout.
      const args = [
        '--case',
        'course-bash-echo-hi',
        '--case',
        'course-read-seeded-file',
        '--jobs',
        '1',
        '--timeout',
        '1500',
      ];
      const run = await grade(BIN, await makeCourse(scratch, 'bash-never-ends'), isolation, args);
      expect(run.exitCode).toBe(1);
      expect(run.stdout).toContain('call 1 of 1 (Bash) did not return within 1.5 s — its command may still be running');
      expect(await processRunning('sleep 9876301')).toBe(false);
    },
  );
});
