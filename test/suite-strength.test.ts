// The register-tools suite is only as good as the wrong dispatchers it catches: every catalogued mistake must
// fail at least one case, and the reference must pass them all (which proves the comparison itself).
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { beforeAll, expect, test } from 'vitest';
import { makeExecute } from '../src/execute.ts';
import { CATALOGUE } from './fixtures/wrong-execute/catalogue.ts';
import { firstFailure, loadCases, type SnapshotCase } from './fixtures/wrong-execute/first-failure.ts';

const CATALOGUE_DIR = fileURLToPath(new URL('./fixtures/wrong-execute/', import.meta.url));
const HELPERS = ['catalogue', 'first-failure'];

let cases: SnapshotCase[] = [];
beforeAll(async () => {
  cases = await loadCases('register-tools');
});

test('the reference passes every case', async () => {
  expect(cases.length).toBeGreaterThan(0);
  expect(await firstFailure(cases, makeExecute)).toBeUndefined();
});

test.each(CATALOGUE)('$slug fails at least one case', async ({ make }) => {
  expect(await firstFailure(cases, make)).toBeDefined();
});

test('the catalogue lists every wrong implementation in its directory, and only those', async () => {
  const files = (await readdir(CATALOGUE_DIR)).filter((f) => f.endsWith('.ts')).map((f) => f.slice(0, -'.ts'.length));
  const slugs = files.filter((f) => !HELPERS.includes(f));
  expect(CATALOGUE.map((w) => w.slug).sort()).toEqual(slugs.sort());
});

test('each wrong implementation names its mistake on its first line, and README.md lists it', async () => {
  const readme = await readFile(`${CATALOGUE_DIR}README.md`, 'utf8');
  for (const { slug } of CATALOGUE) {
    const firstLine = (await readFile(`${CATALOGUE_DIR}${slug}.ts`, 'utf8')).split('\n')[0];
    expect(firstLine, slug).toMatch(/^\/\/ Mistake: \S/);
    expect(readme, slug).toContain(`| \`${slug}\` |`);
  }
});
