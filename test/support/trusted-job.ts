// The trusted grading job as docs/trusted-job.md documents it, for the tests of issue 14's and 24's attacks, at
// either stage: theinference from an install of its own outside the submission (a copy of the package as packed, in `<root>/grader/node_modules`, or a
// checkout of the course repository: this one), the submission checked out as a plain directory (no node_modules,
// its own .git with the job's token in .git/config, as actions/checkout leaves it), graded with `--dir` from the
// job's workspace, with CI set, so the sandbox is required.
import { execFileSync } from 'node:child_process';
import { chmod, cp, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { REPO, writeInstall, writeLoopCourse, writeReferenceCourse } from './reference-course.ts';

// The job's token, as actions/checkout writes it into .git/config (base64 of `x-access-token:<token>`).
export const CHECKOUT_TOKEN = 'ghs_CanaryTokenOfTheGradingJob14';
export const CHECKOUT_HEADER = Buffer.from(`x-access-token:${CHECKOUT_TOKEN}`).toString('base64');

// The grader as the job installs it, outside any submission: returns its bin.
export function installGrader(root: string): Promise<string> {
  return writeInstall(join(root, 'grader'));
}

// This repository's own bin: the course repository's checkout, which holds the reference.
export const CHECKOUT_BIN = join(REPO, 'bin', 'theinference.js');

// The stages a submission can be checked out at, each with the course files a student has there (the reference's,
// which a scenario's files go over) and the file that stands in for a dispatcher or loop of the student's own.
const STAGE_COURSES = {
  'register-tools': { write: writeReferenceCourse, reference: ['src/execute.ts', 'src/reference-execute.ts'] },
  'agent-loop': { write: writeLoopCourse, reference: ['src/agent-loop.ts', 'src/reference-loop.ts'] },
} as const;

// A stage the trusted job grades in these tests.
export type TrustedStage = keyof typeof STAGE_COURSES;

// The scenarios whose program.ts is the old 774-line one an earlier `init` wrote (test/fixtures/outdated-program/)
// with one import changed, the attack: the stage's file (a stub in the scenario) swapped for the reference kept in
// another file. Made when the test runs, so that the fixture holds the old driver once.
const OWN_IMPORT: Record<string, { stage: TrustedStage }> = {
  'hostile-own-dispatcher': { stage: 'register-tools' },
  'hostile-own-loop': { stage: 'agent-loop' },
};

// A submission checked out as a plain directory under `root`, at `stage`: the course's files there (the
// reference, program.ts, package.json, tsconfig.json; the reference kept again in src/reference-execute.ts or
// src/reference-loop.ts for fixtures that wrap it), the scenario's files from test/fixtures/<scenario>/ over them,
// and a .git holding the job's token. No node_modules.
export async function checkOut(
  root: string,
  scenario: string,
  stage: TrustedStage = 'register-tools',
): Promise<string> {
  await mkdir(join(root, 'submissions'), { recursive: true });
  const dir = await mkdtemp(join(root, 'submissions', `${scenario}-`));
  // As a checkout is, readable by every user (a test installs the grader in some).
  await chmod(dir, 0o755);
  const course = STAGE_COURSES[stage];
  await course.write(dir, { linkModules: false });
  const [file, kept] = course.reference;
  await cp(join(REPO, file), join(dir, kept));
  await cp(join(REPO, 'test', 'fixtures', scenario), dir, { recursive: true });
  const own = OWN_IMPORT[scenario];
  if (own !== undefined) await writeOwnImport(dir, own.stage);
  const git = (...args: string[]): void => {
    execFileSync('git', ['-c', 'init.defaultBranch=main', ...args], { cwd: dir, stdio: 'ignore' });
  };
  git('init', '-q');
  git('config', '--local', 'http.https://github.com/.extraheader', `AUTHORIZATION: basic ${CHECKOUT_HEADER}`);
  return dir;
}

// Writes `dir`/program.ts: the old program.ts with its one import of the stage's file turned to the reference kept
// in another file. Fails when the old program.ts no longer holds that import once, so the attack never goes quiet.
async function writeOwnImport(dir: string, stage: TrustedStage): Promise<void> {
  const [file, kept] = STAGE_COURSES[stage].reference;
  const old = await readFile(join(REPO, 'test', 'fixtures', 'outdated-program', 'program.ts'), 'utf8');
  const parts = old.split(`'./${file}'`);
  if (parts.length !== 2) throw new Error(`outdated-program/program.ts imports './${file}' ${parts.length - 1} times`);
  const header = `// Issue 24: the course's old (long) program.ts with one import changed: it loads ./${kept}, not the stage's ./${file} (a stub).\n`;
  await writeFile(join(dir, 'program.ts'), header + parts.join(`'./${kept}'`));
}

// What one grading step did.
export type Step = { exitCode: number | undefined; stdout: string; stderr: string };

// How a grading step runs: the stage (register-tools unless given), environment over the job's, and how long it
// may take (180 s unless given).
export type StepWith = { stage?: TrustedStage; env?: Record<string, string>; timeoutMs?: number };

// Runs `node <bin> test --stage <stage> --dir <submission> <args…>` from the job's workspace `root`, with CI set and
// no isolation override: the defaults a CI job gets.
export async function gradeStep(
  bin: string,
  root: string,
  submission: string,
  args: string[],
  how: StepWith = {},
): Promise<Step> {
  const { THEINFERENCE_ISOLATION: _, ...inherited } = process.env;
  const { exitCode, stdout, stderr } = await execa(
    'node',
    [bin, 'test', '--stage', how.stage ?? 'register-tools', '--dir', submission, ...args],
    {
      cwd: root,
      env: { ...inherited, CI: 'true', NO_COLOR: '1', ...how.env },
      extendEnv: false,
      reject: false,
      timeout: how.timeoutMs ?? 180_000,
    },
  );
  return { exitCode, stdout, stderr };
}
