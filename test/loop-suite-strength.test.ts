// The agent-loop suite is only as good as the wrong loops it catches: every catalogued mistake must fail at least
// one case with a hint that names it, and the reference (plain, and streaming) must pass them all, which proves
// the comparison itself. Each case runs through program.ts's fake Messages API and the real SDK.
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { beforeAll, expect, test } from 'vitest';
import { observeLoops } from '../program.ts';
import { runLoop } from '../src/agent-loop.ts';
import { findLoopMistakes } from '../src/grade/judge/loop/find-loop-mistakes.ts';
import { loopJudge } from '../src/grade/judge/loop/loop-judge.ts';
import { loopProbeRequest } from '../src/grade/judge/loop/probe-scripts.ts';
import { CATALOGUE } from './fixtures/wrong-loop/catalogue.ts';
import { streamingLoop } from './support/streaming-loop.ts';
import {
  explainedLoopRun,
  firstLoopFailure,
  loadLoopCases,
  type LoopSnapshotCase,
} from './fixtures/wrong-loop/first-failure.ts';

const CATALOGUE_DIR = fileURLToPath(new URL('./fixtures/wrong-loop/', import.meta.url));
const HELPERS = ['catalogue', 'first-failure'];

let cases: LoopSnapshotCase[] = [];
beforeAll(async () => {
  cases = await loadLoopCases();
});

test('the reference passes every case', async () => {
  expect(cases.length).toBeGreaterThan(0);
  expect(await firstLoopFailure(cases, runLoop)).toBeUndefined();
});

test('a streaming loop passes every case too: streamed and plain requests grade the same', async () => {
  expect(await firstLoopFailure(cases, streamingLoop)).toBeUndefined();
});

test.each(CATALOGUE)('$slug fails a case, with a hint that names its mistake', async ({ runLoop: wrong, hint }) => {
  const found = await firstLoopFailure(cases, wrong);
  expect(found, 'no case fails').toBeDefined();
  expect(found?.failure.hint).toMatch(hint);
});

// Diagnosis by observation: the loop probe finds the mistake (the cause of the hint above), and every case the loop
// fails is put under it, so the report says it once, whichever case shows it and however. A mistake the probe's
// short scripts cannot show (a cap on turns) is still one message, by its hint's cause. A case that crashes is a
// message of its own, as in the grader.
test.each(CATALOGUE)('$slug: every case it fails is put under the one finding of its mistake', async (wrong) => {
  const first = await firstLoopFailure(cases, wrong.runLoop);
  const failed = (await explainedLoopRun(cases, wrong.runLoop)).filter((r) => r.failure?.kind === 'mismatch');
  const cause = wrong.probed === false ? first?.failure.hintCause : `finding: ${first?.failure.hintCause}`;
  expect(new Set(failed.map((r) => r.failure?.hintCause))).toEqual(new Set([cause]));
});

test('the reference: the probe finds no mistake', async () => {
  const observed: unknown = JSON.parse(JSON.stringify(await observeLoops(loopJudge.probe.request(), runLoop as never)));
  expect(observed).toHaveLength(loopProbeRequest().scripts.length);
  expect(findLoopMistakes(observed)).toEqual([]);
});

test('the catalogue lists every wrong loop in its directory, and only those', async () => {
  const files = (await readdir(CATALOGUE_DIR)).filter((f) => f.endsWith('.ts')).map((f) => f.slice(0, -'.ts'.length));
  expect(CATALOGUE.map((w) => w.slug).sort()).toEqual(files.filter((f) => !HELPERS.includes(f)).sort());
});

test('each wrong loop names its mistake on its first line, and README.md lists it', async () => {
  const readme = await readFile(`${CATALOGUE_DIR}README.md`, 'utf8');
  for (const { slug } of CATALOGUE) {
    const firstLine = (await readFile(`${CATALOGUE_DIR}${slug}.ts`, 'utf8')).split('\n')[0];
    expect(firstLine, slug).toMatch(/^\/\/ Mistake: \S/);
    expect(readme, slug).toContain(`| \`${slug}\` |`);
  }
});
