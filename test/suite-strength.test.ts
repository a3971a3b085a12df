// The register-tools suite is only as good as the wrong dispatchers it catches, and the grader's diagnosis only
// as good as what it says about them: every catalogued mistake must fail at least one case, its failures must be
// one message (one cause: the finding the probe made), and that message's hint must name the mistake and its fix.
// The reference must pass every case (which proves the comparison itself).
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { beforeAll, expect, test } from 'vitest';
import { makeExecute } from '../src/execute.ts';
import { type GradedCase, gradeInProcess, loadGradedCases } from '../src/grade/audit/grade-in-process.ts';
import { groupFailures } from '../src/grade/report/group-failures.ts';
import { CATALOGUE, LOAD_MISTAKES } from './fixtures/wrong-execute/catalogue.ts';
import { RIGHT } from './fixtures/right-execute/catalogue.ts';
import { observe } from '../src/modes/dispatch/driver.ts';
import { findMistakes } from '../src/modes/dispatch/judge/find-mistakes.ts';
import { probeRequest } from '../src/modes/dispatch/judge/probe-calls.ts';
import { REPO } from './support/reference-course.ts';

const CATALOGUE_DIR = fileURLToPath(new URL('./fixtures/wrong-execute/', import.meta.url));
const HELPERS = ['catalogue'];

let cases: GradedCase[] = [];
beforeAll(async () => {
  cases = await loadGradedCases(REPO, 'register-tools');
});

test('the reference passes every case', async () => {
  expect(cases.length).toBeGreaterThan(100);
  const failed = (await gradeInProcess(cases, makeExecute)).filter((r) => r.status === 'fail');
  expect(failed.map((r) => r.name)).toEqual([]);
});

test.concurrent.each(CATALOGUE)(
  '$slug fails at least one case, and its failures are one message per mistake, whose hint names it',
  async ({ make, hint }) => {
    const failed = (await gradeInProcess(cases, make)).filter((r) => r.status === 'fail');
    expect(failed.length, 'the suite does not catch this mistake').toBeGreaterThan(0);
    const hints = groupFailures(failed).map((g) => g.results[0]!.failure?.hint ?? `(no hint) ${g.results[0]!.name}`);
    const wanted = Array.isArray(hint) ? hint : [hint];
    expect(hints, 'one message per mistake').toHaveLength(wanted.length);
    for (const [k, pattern] of wanted.entries()) expect(hints[k]).toMatch(pattern);
  },
  60_000,
);

test.concurrent.each(RIGHT)(
  '$slug, right though written otherwise, passes every case, and the probe finds no mistake in it',
  async ({ make }) => {
    const failed = (await gradeInProcess(cases, make)).filter((r) => r.status === 'fail');
    expect(failed.map((r) => r.name)).toEqual([]);
    const observed = JSON.parse(JSON.stringify(await observe(probeRequest(), make))) as unknown;
    expect(findMistakes(observed).map((f) => f.text)).toEqual([]);
  },
  60_000,
);

test('the catalogue lists every wrong implementation in its directory, and only those', async () => {
  const files = (await readdir(CATALOGUE_DIR)).filter((f) => f.endsWith('.ts')).map((f) => f.slice(0, -'.ts'.length));
  const slugs = files.filter((f) => !HELPERS.includes(f));
  expect(CATALOGUE.map((w) => w.slug).sort()).toEqual(slugs.sort());
});

test('the right dispatchers are every file of right-execute/, and README.md lists each', async () => {
  const dir = fileURLToPath(new URL('./fixtures/right-execute/', import.meta.url));
  const files = (await readdir(dir)).filter((f) => f.endsWith('.ts') && f !== 'catalogue.ts');
  expect(RIGHT.map((r) => `${r.slug}.ts`).sort()).toEqual(files.sort());
  const readme = await readFile(`${dir}README.md`, 'utf8');
  for (const { slug } of RIGHT) expect(readme, slug).toContain(`| \`${slug}\` |`);
});

test('the load mistakes are every file of load/, and only those', async () => {
  const files = (await readdir(`${CATALOGUE_DIR}load`)).map((f) => `load/${f}`);
  expect(LOAD_MISTAKES.map((m) => m.file).sort()).toEqual(files.sort());
});

test('each wrong implementation names its mistake on its first line, and README.md lists it', async () => {
  const readme = await readFile(`${CATALOGUE_DIR}README.md`, 'utf8');
  const all = [...CATALOGUE.map(({ slug }) => ({ slug, file: `${slug}.ts` })), ...LOAD_MISTAKES];
  for (const { slug, file } of all) {
    const firstLine = (await readFile(`${CATALOGUE_DIR}${file}`, 'utf8')).split('\n')[0];
    expect(firstLine, slug).toMatch(/^\/\/ Mistake: \S/);
    expect(readme, slug).toContain(`| \`${slug}\` |`);
  }
});
