// Issue 14's attacks on what surrounds the sandbox, each asserted against the trusted job docs/trusted-job.md documents
// (test/support/trusted-job.ts: a separate install of the grader, the submission a plain checkout with its own
// .git, graded with --dir, CI set). The submission is data: nothing in it configures the grader (.npmrc, scripts,
// the lockfile), no link in it is followed or mounted, and the sandbox never shows its version control or CI
// metadata. Where it is safe, the same attack is shown to work the way the docs say a trusted job must never run
// the grader (npx in the submission, or without the sandbox): the proof that the fixture is a real attack.
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, symlink } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REPO, useScratch } from '../../course-fixture.ts';
import { writeInstall } from '../../../support/reference-course.ts';
import {
  CHECKOUT_BIN,
  CHECKOUT_HEADER,
  CHECKOUT_TOKEN,
  checkOut,
  gradeStep,
  installGrader,
  type Step,
} from '../../../support/trusted-job.ts';
import { COURSE_CASES, jsonTests, survivorsIn } from './hostile-course.ts';
import { AS_ITSELF } from '../../../support/isolation.ts';

const scratch = useScratch();
let grader: string;
beforeAll(async () => {
  grader = await installGrader(scratch.root);
});
afterEach(async () => expect(await survivorsIn(join(scratch.root, 'submissions'))).toEqual([]));

const JSON_REPORT = [...COURSE_CASES, '--reporter', 'json'];
const statuses = (step: Step): string[] => [...jsonTests(step.stdout).values()].map((t) => t.status);
const outputs = (step: Step): string => [...jsonTests(step.stdout).values()].map((t) => t.output ?? '').join('\n');

describe('the submission is data: nothing in it configures the grader', () => {
  it("never loads the .npmrc's node-options hook: the stub fails every case", async () => {
    const submission = await checkOut(scratch.root, 'hostile-npmrc-node-options');
    const step = await gradeStep(grader, scratch.root, submission, JSON_REPORT);
    expect([step.exitCode, statuses(step)]).toEqual([1, ['fail', 'fail', 'fail']]);
    expect(existsSync(join(submission, 'evil-ran'))).toBe(false);
  });

  it('loads the hook into the grader and passes the stub when the grader is started with npx in the submission: the attack is real', async () => {
    const submission = await checkOut(scratch.root, 'hostile-npmrc-node-options');
    await writeInstall(submission);
    const { THEINFERENCE_ISOLATION: _, ...env } = process.env;
    const step = await execa('npx', ['theinference', 'test', '--stage', 'register-tools', ...COURSE_CASES], {
      cwd: submission,
      env: { ...env, CI: 'true', NO_COLOR: '1' },
      extendEnv: false,
      reject: false,
    });
    expect(step.stdout.split('\n')).toContain('0 passed, 3 failed');
    expect(step.exitCode).toBe(0);
    expect(await readFile(join(submission, 'evil-ran'), 'utf8')).toContain('theinference');
  });

  it("never runs the submission's scripts (a postinstall that would patch the grader): the stub fails", async () => {
    const submission = await checkOut(scratch.root, 'hostile-postinstall');
    const step = await gradeStep(grader, scratch.root, submission, JSON_REPORT);
    expect([step.exitCode, statuses(step)]).toEqual([1, ['fail', 'fail', 'fail']]);
    expect(existsSync(join(submission, 'postinstall-ran'))).toBe(false);
  });

  it('runs its postinstall under npm install in the submission: the attack is real', async () => {
    const submission = await checkOut(scratch.root, 'hostile-postinstall');
    await execa('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: submission });
    expect(existsSync(join(submission, 'postinstall-ran'))).toBe(true);
  });

  it('never uses the copy of theinference its package.json and lockfile name: the stub fails', async () => {
    const submission = await checkOut(scratch.root, 'hostile-patched-dependency');
    const step = await gradeStep(grader, scratch.root, submission, JSON_REPORT);
    expect([step.exitCode, statuses(step)]).toEqual([1, ['fail', 'fail', 'fail']]);
    expect(existsSync(join(submission, 'patched-grader-ran'))).toBe(false);
  });

  it('grades a plain checkout, without node_modules, exactly as one with its own install', async () => {
    const plain = await checkOut(scratch.root, 'exits-non-zero');
    const installed = await checkOut(scratch.root, 'exits-non-zero');
    await writeInstall(installed);
    const [a, b] = [
      await gradeStep(grader, scratch.root, plain, JSON_REPORT),
      await gradeStep(grader, scratch.root, installed, JSON_REPORT),
    ];
    expect(a.exitCode).toBe(1);
    expect(new Set(statuses(a))).toEqual(new Set(['pass', 'error']));
    const verdicts = (step: Step, dir: string) =>
      [...jsonTests(step.stdout).entries()].map(([name, t]) => [name, t.status, t.message?.split(dir).join('<dir>')]);
    expect(verdicts(b, installed)).toEqual(verdicts(a, plain));
  });
});

describe('a link where the grader reads the submission itself is never followed', () => {
  it('refuses a package.json that is a link to /dev/zero (exit 2), reading none of it', async () => {
    const submission = await checkOut(scratch.root, 'hostile-postinstall');
    await rm(join(submission, 'package.json'));
    await symlink('/dev/zero', join(submission, 'package.json'));
    const step = await gradeStep(grader, scratch.root, submission, COURSE_CASES);
    expect(step.exitCode).toBe(2);
    expect(step.stderr).toContain(
      `${join(submission, 'package.json')} cannot be read as JSON (it is not a regular file`,
    );
  });
});

describe('a node_modules that is a link is never followed or mounted', () => {
  it.each<[string, () => string, () => string]>([
    ['a checkout of the course repository', () => REPO, () => grader],
    ["the grader's own root, a checkout grading", () => REPO, () => CHECKOUT_BIN],
    [
      "the grader's own root, an install grading",
      () => join(scratch.root, 'grader', 'node_modules', 'theinference'),
      () => grader,
    ],
  ])('to %s: neither snapshots nor the reference are in reach, and the stub fails', async (_, target, bin) => {
    const submission = await checkOut(scratch.root, 'hostile-linked-node-modules');
    await symlink(target(), join(submission, 'node_modules'));
    const step = await gradeStep(bin(), scratch.root, submission, JSON_REPORT);
    expect([step.exitCode, statuses(step)]).toEqual([1, ['fail', 'fail', 'fail']]);
    expect(outputs(step)).toContain('[attack] snapshots read through node_modules: 0');
    expect(outputs(step)).toContain('[attack] reference imported through node_modules: false');
  });

  it('to a directory holding a unix socket: the socket is out of reach (and in reach without the sandbox)', async () => {
    const sockets = join(scratch.root, 'sockets');
    await rm(sockets, { recursive: true, force: true });
    await mkdir(sockets);
    // What the course's tools import, so that the program loads where the link is used (without the sandbox).
    await symlink(join(REPO, 'node_modules', 'fast-glob'), join(sockets, 'fast-glob'));
    const heard: string[] = [];
    const server = createServer((socket) => socket.on('data', (d) => heard.push(d.toString())));
    await new Promise<void>((resolve) => server.listen(join(sockets, 'agent.sock'), resolve));
    try {
      const submission = await checkOut(scratch.root, 'hostile-linked-node-modules');
      await symlink(sockets, join(submission, 'node_modules'));
      const step = await gradeStep(grader, scratch.root, submission, JSON_REPORT);
      expect([step.exitCode, statuses(step)]).toEqual([1, ['fail', 'fail', 'fail']]);
      expect(outputs(step)).toContain('[attack] host sockets reached through node_modules: 0');
      expect(heard).toEqual([]);
      // A root grader runs it as nobody from the staged copy, which has no such link: no proof to be had there.
      if (AS_ITSELF) {
        const off = await gradeStep(grader, scratch.root, submission, [...JSON_REPORT, '--isolation', 'off']);
        expect(outputs(off)).toMatch(/\[attack\] host sockets reached through node_modules: [1-9]/);
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("to /proc: no process's environment is in reach, and the grader neither spins nor hangs", async () => {
    const submission = await checkOut(scratch.root, 'hostile-linked-node-modules');
    await symlink('/proc', join(submission, 'node_modules'));
    const step = await gradeStep(grader, scratch.root, submission, JSON_REPORT, {
      env: { GITHUB_TOKEN: 'ghp_canary_14' },
    });
    expect([step.exitCode, statuses(step)]).toEqual([1, ['fail', 'fail', 'fail']]);
    expect(outputs(step)).toContain('[attack] environments with a token read through node_modules: 0');
    expect(step.stdout + step.stderr).not.toContain('ghp_canary_14');
  });
});

describe('the sandbox shows none of the checkout’s version control or CI metadata', () => {
  it('keeps .git/config (the job’s token), .github/ and .npmrc out of reach: the token is nowhere in the report', async () => {
    const submission = await checkOut(scratch.root, 'hostile-reads-checkout-metadata');
    expect(await readFile(join(submission, '.git', 'config'), 'utf8')).toContain(CHECKOUT_HEADER);
    const step = await gradeStep(grader, scratch.root, submission, JSON_REPORT);
    expect([step.exitCode, statuses(step)]).toEqual([1, ['fail', 'fail', 'fail']]);
    for (const file of ['.git/config', '.git/HEAD', '.github/workflows/grade.yml', '.npmrc'])
      expect(outputs(step)).toContain(`[attack] ${file}: not there`);
    const reversed = (s: string) => [...s].reverse().join('');
    for (const secret of [CHECKOUT_TOKEN, CHECKOUT_HEADER, reversed(CHECKOUT_TOKEN), reversed(CHECKOUT_HEADER)])
      expect(step.stdout + step.stderr).not.toContain(secret);
  });

  it.runIf(AS_ITSELF)(
    'reads the token when the checkout itself is graded without the sandbox: the attack is real',
    async () => {
      const submission = await checkOut(scratch.root, 'hostile-reads-checkout-metadata');
      // Graded in place, it needs the tools' packages in its own node_modules.
      await mkdir(join(submission, 'node_modules'));
      await symlink(join(REPO, 'node_modules', 'fast-glob'), join(submission, 'node_modules', 'fast-glob'));
      const step = await gradeStep(grader, scratch.root, submission, [...JSON_REPORT, '--isolation', 'off']);
      expect(outputs(step)).toContain([...CHECKOUT_HEADER].reverse().join(''));
    },
  );
});
