// docs/ci-recipes.md as a CI maintainer copies it: every recipe says whether it gives a grade or feedback; every
// GitHub Actions job has the steps trusted-job.md says it stops without; no grading recipe masks the grader's exit
// code or runs npx; every YAML block parses. The steps that run here run: the Gradescope zip is built by the recipe's
// own command from a clone of this repository, and run_autograder answers an upload with nothing to grade in an
// uploader's terms.
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type Recipe, readRecipes } from '../support/ci-simulation/recipe-page.ts';
import { REPO } from '../support/reference-course.ts';

const RECIPES = await readRecipes();

describe('docs/ci-recipes.md', () => {
  it('labels every recipe feedback or grade', () => {
    expect(RECIPES.map((r) => [r.title, r.kind !== undefined])).toEqual(RECIPES.map((r) => [r.title, true]));
    expect(RECIPES.map((r) => r.title)).toEqual(expect.arrayContaining(['GitLab CI (grade)', 'Gradescope (grade)']));
  });

  it.each(RECIPES.flatMap((r) => r.blocks.filter((b) => b.lang === 'yaml').map((b) => [r.title, b.code])))(
    '%s: its YAML parses',
    (_, code) => {
      expect(() => parse(code)).not.toThrow();
    },
  );

  it.each(RECIPES.filter((r) => r.kind === 'grade').map((r) => [r.title, r]))(
    '%s: never masks the exit code, never runs npx',
    (_, recipe) => {
      for (const b of (recipe as Recipe).blocks) {
        expect(b.code).not.toMatch(/\|\|\s*true/);
        expect(b.code).not.toMatch(/\bnpx\b/);
      }
    },
  );

  it('gives every GitHub Actions job checkout, Node, npm ci and the sandbox lines', () => {
    const jobs = RECIPES.flatMap((r) => r.blocks).filter((b) => b.lang === 'yaml' && /\bjobs:/.test(b.code));
    expect(jobs.length).toBeGreaterThanOrEqual(3);
    for (const { code } of jobs) {
      expect(code).toContain('actions/checkout@v4');
      expect(code).toContain('persist-credentials: false');
      expect(code).toContain('actions/setup-node@v4');
      expect(code).toMatch(/- run: npm ci\n/);
      expect(code).toContain('sudo apt-get update -qq && sudo apt-get install -y -qq bubblewrap');
      expect(code).toContain('sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0');
    }
  });
});

describe('the Gradescope recipe, run', () => {
  let scratch = '';
  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'theinference-recipes-'));
  });
  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  it('builds the autograder zip with both scripts at its top, executable, and the course beside them', async () => {
    const gradescope = RECIPES.find((r) => r.title === 'Gradescope (grade)')!;
    const build = gradescope.blocks.find((b) => b.lang === 'sh')!.code;
    const clone = join(scratch, 'course');
    await execa('git', ['clone', '-q', '--shared', REPO, clone]);
    await execa('sh', ['-e', '-c', build], { cwd: clone });
    const listing = (await execa('unzip', ['-Z', join(clone, 'autograder.zip')])).stdout.split('\n');
    for (const script of ['setup.sh', 'run_autograder']) {
      expect(listing).toContainEqual(expect.stringMatching(new RegExp(`^-rwxr-xr-x .* ${script}$`)));
    }
    for (const file of [
      'package.json',
      'package-lock.json',
      'bin/theinference.js',
      'integrations/gradescope/run_autograder',
    ]) {
      expect(listing).toContainEqual(expect.stringMatching(new RegExp(` ${file.replace(/\./g, '\\.')}$`)));
    }
  });

  it('answers an upload with nothing to grade in the uploader’s terms, score 0', async () => {
    const root = join(scratch, 'autograder');
    await mkdir(join(root, 'submission'), { recursive: true });
    const run = await execa(join(REPO, 'integrations/gradescope/run_autograder'), [], {
      env: { AUTOGRADER_ROOT: root },
    });
    expect(run.exitCode).toBe(0);
    const results = JSON.parse(await readFile(join(root, 'results', 'results.json'), 'utf8'));
    expect(results.score).toBe(0);
    expect(results.tests).toEqual([expect.objectContaining({ name: 'your upload', score: 0, status: 'failed' })]);
    expect(results.output).toMatch(/^Your upload has neither program\.ts nor src\/execute\.ts\. Upload the files/);
    expect(results.output).not.toMatch(/--dir|init/);
  });
});
