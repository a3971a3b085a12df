// Every recipe of docs/ci-recipes.md run end to end from its own text, in a local simulation of its CI system
// (test/support/ci-simulation/): the course repository is this checkout (its first `npm ci` run for real, offline;
// the same install again taken from it, runner-host.ts says why), the student's repository installs this checkout
// packed (`npm pack`), the class is two submissions (one right, one with a mistake) and each run grades for real, in
// the sandbox. Each asserts what its recipe promises: a grade job writes
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
const TRUSTED_JOB = await readRecipes('trusted-job.md');
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
// A grade job's run is CI's: every case also run as its variant.
const VARIANTS = /variants: seed \d+/;
const SANDBOX_ASKED = [
  'sudo apt-get update -qq',
  'apt-get update -qq',
  'sudo apt-get install -y -qq bubblewrap',
  'apt-get install -y -qq bubblewrap',
  'sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0',
  'sysctl -w kernel.apparmor_restrict_unprivileged_userns=0',
];

// The steps a student's job takes before it grades, each as it ends.
const STUDENT_SETUP = [
  ['actions/checkout@v4', 'success'],
  ['actions/setup-node@v4', 'success'],
  ['sudo apt-get update -qq && sudo apt-get install -y -qq bubblewrap', 'success'],
  ['npm ci', 'success'],
];

// The workflow of the recipe titled `title` run in the student's repository.
async function runInStudentRepository(name: string, title: string): Promise<{ host: Host; job: JobRun }> {
  const host = await fresh(name);
  const run = await runWorkflow(host, block(RECIPES, title, 'yaml'), {
    repositories: { self: repos.student },
    context: {},
  });
  expect(run.jobs).toHaveLength(1);
  return { host, job: run.jobs[0]! };
}

// What a class grade of alice and bob says, in its log and its JUnit files, in every grade recipe.
function expectClassGraded(run: { output: string; junit: { file: string; suites: number }[] }): void {
  expect(run.output).toMatch(/1 of 2 submissions passed/);
  expect(run.output).toMatch(VARIANTS);
  expect(run.junit).toEqual([
    { file: 'reports/alice.xml', suites: 1 },
    { file: 'reports/bob.xml', suites: 1 },
  ]);
}

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
      expect(step(job!, 'Grade the class').output).toMatch(VARIANTS);
      expect(await host.asked()).toEqual(SANDBOX_ASKED);
      const reports = join(run.artifacts, 'reports');
      const summary = JSON.parse(await readFile(join(reports, 'summary.json'), 'utf8'));
      expect(JSON.stringify(summary)).toMatch(/alice[\s\S]*pass[\s\S]*bob[\s\S]*fail/);
      for (const name of ['alice', 'bob'])
        expect(await readFile(join(reports, `${name}.xml`), 'utf8')).toContain(`name="${name}"`);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'GitHub Actions in a student’s repository (feedback): the stub fails, each failure an annotation on its file',
    async () => {
      const { host, job } = await runInStudentRepository(
        'github-feedback',
        "GitHub Actions in a student's repository (feedback)",
      );
      expect(outcomes(job)).toEqual([
        ...STUDENT_SETUP,
        ['npx theinference test --stage register-tools --reporter github', 'failure'],
      ]);
      const grading = job.steps.at(-1)!.output;
      expect(grading).toMatch(/^::error file=src\/execute\.ts,/m);
      expect(job.summary).not.toBe('');
      expect(await host.asked()).toEqual(SANDBOX_ASKED);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'GitHub Classroom (feedback): the grading step passes on a failing case, the reporter fails it and gives the points',
    async () => {
      const { host, job } = await runInStudentRepository('classroom', 'GitHub Classroom (feedback)');
      expect(outcomes(job)).toEqual([
        ...STUDENT_SETUP,
        ['set +e', 'success'],
        ['classroom-resources/autograding-grading-reporter@v1', 'failure'],
      ]);
      const reporter = job.steps.at(-1)!.output;
      expect(reporter).toMatch(/^Processing: theinference$/m);
      expect(reporter).toMatch(/^FAIL /m);
      expect(reporter).toMatch(/^Points 0\/\d+$/m);
      expect(await host.asked()).toEqual(SANDBOX_ASKED);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'GitLab CI (grade): the job fails for bob, and GitLab reads one JUnit file per submission',
    async () => {
      const host = await fresh('gitlab');
      const project = join(host.root, 'builds', 'course');
      await cloneProject(project, repos.course, { submissions: repos.submissions });
      const run = await runGitlabJob(host, block(RECIPES, 'GitLab CI (grade)', 'yaml'), 'grade', project);
      expect(run.exitCode, run.output).toBe(1);
      expectClassGraded(run);
      expect(JSON.stringify(JSON.parse(await readFile(join(project, 'reports/summary.json'), 'utf8')))).toMatch(
        /alice[\s\S]*pass[\s\S]*bob[\s\S]*fail/,
      );
      expect(await host.asked()).toEqual(['apt-get update -qq', 'apt-get install -y -qq bubblewrap']);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'Jenkins (grade): the grading step fails for bob, and post { always } records the JUnit files',
    async () => {
      const host = await fresh('jenkins');
      const workspace = join(host.root, 'workspace');
      await cp(repos.course, join(workspace, 'course'), { recursive: true });
      await cp(repos.submissions, join(workspace, 'submissions'), { recursive: true });
      const run = await runPipeline(host, block(RECIPES, 'Jenkins (grade)', 'groovy'), workspace);
      expect(run.exitCode, run.output).toBe(1);
      expectClassGraded(run);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'Gradescope (grade): the zip built by the recipe, setup.sh, then run_autograder on a right and a wrong upload',
    async () => {
      const host = await fresh('gradescope');
      // The course repository as its own git repository, this checkout's files committed, for `git archive HEAD`.
      const clone = join(host.root, 'course');
      await cp(repos.course, clone, { recursive: true });
      const git = (...args: string[]) =>
        execa('git', ['-c', 'user.name=course', '-c', 'user.email=course@127.0.0.1', ...args], { cwd: clone });
      await git('init', '-q');
      await git('add', '-A');
      await git('commit', '-qm', 'course');
      const build = await execa('sh', ['-e', '-c', block(RECIPES, 'Gradescope (grade)', 'sh')], { cwd: clone });
      expect(build.exitCode).toBe(0);
      // Gradescope's container: the zip's files in /autograder/source, run as root.
      const autograder = join(host.root, 'autograder');
      await mkdir(autograder);
      await execa('unzip', ['-q', join(clone, 'autograder.zip'), '-d', join(autograder, 'source')]);
      const env = { ...host.env, AUTOGRADER_ROOT: autograder };
      const setup = await execa(join(autograder, 'source', 'setup.sh'), [], {
        env,
        extendEnv: false,
        reject: false,
        all: true,
      });
      expect(setup.exitCode, setup.all).toBe(0);
      expect(await host.asked()).toEqual([
        'apt-get update -qq',
        'apt-get install -y -qq --no-install-recommends ca-certificates curl gnupg bubblewrap',
      ]);
      const grade = async (upload: (dir: string) => Promise<void>) => {
        const submission = join(autograder, 'submission');
        await rm(submission, { recursive: true, force: true });
        await mkdir(submission, { recursive: true });
        await upload(submission);
        const run = await execa(join(autograder, 'source', 'run_autograder'), [], { env, extendEnv: false, all: true });
        expect(run.exitCode, run.all).toBe(0);
        return JSON.parse(await readFile(join(autograder, 'results', 'results.json'), 'utf8')) as {
          score: number;
          tests: { max_score: number; status: string }[];
        };
      };
      const whole = await grade((dir) => writeReferenceCourse(dir, { linkModules: false }));
      const max = whole.tests.reduce((sum, t) => sum + t.max_score, 0);
      expect(max).toBeGreaterThan(0);
      expect(whole.score).toBe(max);
      const ownFile = await grade(async (dir) => {
        await mkdir(join(dir, 'src'));
        await cp(WRONG, join(dir, 'src', 'execute.ts'));
      });
      expect(ownFile.tests.reduce((sum, t) => sum + t.max_score, 0)).toBe(max);
      expect(ownFile.score).toBeLessThan(max);
      expect(ownFile.tests.some((t) => t.status === 'failed')).toBe(true);
      const nothing = await grade(async () => {});
      expect(nothing.score).toBe(0);
      expect(nothing.tests).toEqual([expect.objectContaining({ name: 'your upload', score: 0, status: 'failed' })]);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'trusted-job.md’s sharded grade: four shards, then the merge job after them, one class view and summary',
    async () => {
      const host = await fresh('github-shards');
      const workflow = block(TRUSTED_JOB, "The course's grading job (GitHub Actions)", 'yaml');
      const run = await runWorkflow(host, workflow, {
        repositories: { self: repos.course, 'course-org/register-tools-submissions': repos.submissions },
        context: { ...CONTEXT, 'github.run_number': '7' },
      });
      // Submissions sorted by name, round robin: alice in shard 1, bob in 2, nothing in 3 and 4.
      expect(run.jobs.map((j) => [j.job, j.matrix.shard, j.conclusion])).toEqual([
        ['grade', '1', 'success'],
        ['grade', '2', 'failure'],
        ['grade', '3', 'success'],
        ['grade', '4', 'success'],
        ['summary', undefined, 'failure'],
      ]);
      const summary = run.jobs.at(-1)!;
      expect(outcomes(summary).slice(-2), summary.steps.map((s) => s.output).join('\n---\n')).toEqual([
        ['One class view and summary for the class', 'failure'],
        ['actions/upload-artifact@v4', 'success'],
      ]);
      const csv = await readFile(join(run.artifacts, 'class', 'summary.csv'), 'utf8');
      expect(csv).toMatch(/^alice,.*pass/m);
      expect(csv).toMatch(/^bob,.*fail/m);
      expect(await readFile(join(run.artifacts, 'class', 'class.html'), 'utf8')).toContain('bob');
    },
    RUN_TIMEOUT_MS,
  );
});
