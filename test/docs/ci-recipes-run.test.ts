// Every recipe of docs/ci-recipes.md run end to end from its own text, in a local simulation of its CI system
// (test/support/ci-simulation/): the course repository is this checkout (its `npm ci` run for real, offline), the
// student's repository installs this checkout packed (`npm pack`), the class is two submissions (one right, one with
// a mistake) and each run grades for real, in the sandbox. Each asserts what its recipe promises: a grade job writes
// its reports and fails when a submission failed, keeping the reports all the same; a feedback job annotates.
import { chmod, cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type JobRun, runWorkflow, type StepRun } from '../support/ci-simulation/github-actions.ts';
import { cloneProject, runGitlabJob } from '../support/ci-simulation/gitlab-ci.ts';
import { runPipeline } from '../support/ci-simulation/jenkins.ts';
import { block, readRecipes } from '../support/ci-simulation/recipe-page.ts';
import { copyRepository, type Host, makeHost } from '../support/ci-simulation/runner-host.ts';
import { packTarball, runAsStudent } from '../support/pack-tarball.ts';
import { REPO, writeReferenceCourse } from '../support/reference-course.ts';

const RECIPES = await readRecipes();
const RUN_TIMEOUT_MS = 240_000;
const WRONG = join(REPO, 'test/fixtures/wrong-execute/missing-break.ts');
// What the GitHub Actions grade recipe's expressions stand for in this run.
const CONTEXT = { 'github.repository_owner': 'course-org', 'secrets.SUBMISSIONS_READ_TOKEN': 'read-token' };

let root = '';
// The course repository (this checkout), the submissions repository (alice right, bob wrong), and a student's
// repository as `init` writes it, installing this checkout's tarball (its src/execute.ts the stub: every case fails).
const repos = { course: '', submissions: '', student: '' };

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'theinference-ci-'));
  // As a runner's workspace is to the sandbox, which a grader run as root starts as nobody.
  await chmod(root, 0o755);
  repos.course = join(root, 'repos', 'course');
  await copyRepository(repos.course);
  repos.submissions = join(root, 'repos', 'submissions');
  await writeReferenceCourse(join(repos.submissions, 'alice'), { linkModules: false });
  await writeReferenceCourse(join(repos.submissions, 'bob'), { linkModules: false });
  await cp(WRONG, join(repos.submissions, 'bob', 'src', 'execute.ts'));
  const tarball = await packTarball(await mkdtemp(join(root, 'pack-')));
  repos.student = join(root, 'repos', 'student');
  const init = await runAsStudent(
    'node',
    [join(REPO, 'bin', 'theinference.js'), 'init', repos.student, '--stage', 'register-tools', '--from', tarball],
    root,
  );
  expect(init.exitCode, init.stderr).toBe(0);
  // The student's lock file, committed with their repository; the dependency by its absolute path, since the
  // repository is checked out elsewhere.
  const manifest = JSON.parse(await readFile(join(repos.student, 'package.json'), 'utf8'));
  manifest.dependencies.theinference = `file:${tarball}`;
  await writeFile(join(repos.student, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const lock = await runAsStudent(
    'npm',
    ['install', '--package-lock-only', '--offline', '--no-audit', '--no-fund'],
    repos.student,
  );
  expect(lock.exitCode, lock.stderr).toBe(0);
}, RUN_TIMEOUT_MS);

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const fresh = async (name: string): Promise<Host> =>
  makeHost(await mkdtemp(join(root, `${name}-`)), join(root, 'npm-ci'));
const step = (job: JobRun, label: string): StepRun => {
  const found = job.steps.find((s) => s.label === label || s.label.startsWith(label));
  if (found === undefined) throw new Error(`no step ${label}: ${job.steps.map((s) => s.label).join(', ')}`);
  return found;
};
const outcomes = (job: JobRun) => job.steps.map((s) => [s.label.split('\n')[0], s.outcome]);
const SANDBOX_ASKED = [
  'sudo apt-get update -qq',
  'apt-get update -qq',
  'sudo apt-get install -y -qq bubblewrap',
  'apt-get install -y -qq bubblewrap',
  'sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0',
  'sysctl -w kernel.apparmor_restrict_unprivileged_userns=0',
];

describe('docs/ci-recipes.md, each recipe run', () => {
  it(
    'GitHub Actions (grade), with both JUnit readers: reports for the class, the step fails for bob, the rest runs',
    async () => {
      const host = await fresh('github-grade');
      const workflow = block(RECIPES, 'GitHub Actions (grade)', 'yaml', 0);
      const readers = block(RECIPES, 'GitHub Actions (grade)', 'yaml', 1);
      const upload = '      - uses: actions/upload-artifact@v4';
      expect(workflow).toContain(upload);
      const withReaders = workflow.replace(upload, `${readers}${upload}`);
      const run = await runWorkflow(host, withReaders, {
        repositories: { self: repos.course, 'course-org/register-tools-submissions': repos.submissions },
        context: CONTEXT,
      });
      const [job] = run.jobs;
      expect(run.jobs.map((j) => [j.job, j.conclusion])).toEqual([['grade', 'failure']]);
      expect(outcomes(job!), job!.steps.map((s) => s.output).join('\n---\n')).toEqual([
        ['actions/checkout@v4', 'success'],
        ['actions/checkout@v4', 'success'],
        ['actions/setup-node@v4', 'success'],
        ['Sandbox for the programs under test', 'success'],
        ['npm ci', 'success'],
        ['Grade the class', 'failure'],
        ['mikepenz/action-junit-report@v5', 'success'],
        ['dorny/test-reporter@v2', 'success'],
        ['actions/upload-artifact@v4', 'success'],
      ]);
      expect(step(job!, 'Grade the class').output).toMatch(/1 of 2 submissions passed/);
      expect(await host.asked()).toEqual(SANDBOX_ASKED);
      const reports = join(run.artifacts, 'reports', 'reports');
      const summary = JSON.parse(await readFile(join(reports, 'summary.json'), 'utf8'));
      expect(JSON.stringify(summary)).toMatch(/alice[\s\S]*pass[\s\S]*bob[\s\S]*fail/);
      for (const name of ['alice', 'bob'])
        expect(await readFile(join(reports, `${name}.xml`), 'utf8')).toContain(`name="${name}"`);
    },
    RUN_TIMEOUT_MS,
  );
});
