// The trusted grading job as docs/trusted-job.md documents it, for the tests of issue 14's attacks: theinference from an
// install of its own outside the submission (a copy of the package as packed, in `<root>/grader/node_modules`, or a
// checkout of the course repository: this one), the submission checked out as a plain directory (no node_modules,
// its own .git with the job's token in .git/config, as actions/checkout leaves it), graded with `--dir` from the
// job's workspace, with CI set, so the sandbox is required.
import { execFileSync } from 'node:child_process';
import { chmod, cp, mkdir, mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { REPO, writeInstall, writeReferenceCourse } from './reference-course.ts';

// The job's token, as actions/checkout writes it into .git/config (base64 of `x-access-token:<token>`).
export const CHECKOUT_TOKEN = 'ghs_CanaryTokenOfTheGradingJob14';
export const CHECKOUT_HEADER = Buffer.from(`x-access-token:${CHECKOUT_TOKEN}`).toString('base64');

// The grader as the job installs it, outside any submission: returns its bin.
export function installGrader(root: string): Promise<string> {
  return writeInstall(join(root, 'grader'));
}

// This repository's own bin: the course repository's checkout, which holds the reference.
export const CHECKOUT_BIN = join(REPO, 'bin', 'theinference.js');

// A submission checked out as a plain directory under `root`: the course's files (the reference tools and
// program.ts, package.json, tsconfig.json; src/reference-execute.ts for fixtures that wrap the reference), the
// scenario's files from test/fixtures/<scenario>/ over them, and a .git holding the job's token. No node_modules.
export async function checkOut(root: string, scenario: string): Promise<string> {
  await mkdir(join(root, 'submissions'), { recursive: true });
  const dir = await mkdtemp(join(root, 'submissions', `${scenario}-`));
  // As a checkout is, readable by every user (a test installs the grader in some).
  await chmod(dir, 0o755);
  await writeReferenceCourse(dir, { linkModules: false });
  // For the fixtures that wrap the reference dispatcher, as test/grade/course-fixture.ts's courses have it.
  await cp(join(REPO, 'src', 'execute.ts'), join(dir, 'src', 'reference-execute.ts'));
  await cp(join(REPO, 'test', 'fixtures', scenario), dir, { recursive: true });
  const git = (...args: string[]): void => {
    execFileSync('git', ['-c', 'init.defaultBranch=main', ...args], { cwd: dir, stdio: 'ignore' });
  };
  git('init', '-q');
  git('config', '--local', 'http.https://github.com/.extraheader', `AUTHORIZATION: basic ${CHECKOUT_HEADER}`);
  return dir;
}

// What one grading step did.
export type Step = { exitCode: number | undefined; stdout: string; stderr: string };

// Runs `node <bin> test --stage register-tools --dir <submission> <args…>` from the job's workspace `root`, with CI
// set and no isolation override: the defaults a CI job gets.
export async function gradeStep(
  bin: string,
  root: string,
  submission: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<Step> {
  const { THEINFERENCE_ISOLATION: _, ...inherited } = process.env;
  const { exitCode, stdout, stderr } = await execa(
    'node',
    [bin, 'test', '--stage', 'register-tools', '--dir', submission, ...args],
    {
      cwd: root,
      env: { ...inherited, CI: 'true', NO_COLOR: '1', ...env },
      extendEnv: false,
      reject: false,
      timeout: 180_000,
    },
  );
  return { exitCode, stdout, stderr };
}
