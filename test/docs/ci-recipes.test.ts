// docs/ci-recipes.md as a CI maintainer copies it: every recipe says whether it gives a grade or feedback; every
// GitHub Actions job has the steps trusted-job.md says it stops without; no grading recipe masks the grader's exit
// code or runs npx; every YAML block parses. Each recipe run end to end: ci-recipes-run.test.ts.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type Recipe, readRecipes } from '../support/ci-simulation/recipe-page.ts';

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
