// The agent-loop suite is only as good as the wrong loops it catches: every catalogued mistake must fail at least
// one case with a hint that names it, and the reference (plain, and streaming) must pass them all, which proves
// the comparison itself. Each case runs through the driver's fake Messages API and the real SDK.
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { beforeAll, expect, test } from 'vitest';
import * as program from '../src/modes/loop/driver.ts';
import { runLoop } from '../src/agent-loop.ts';
import { findLoopMistakes } from '../src/modes/loop/judge/find-loop-mistakes.ts';
import { judge as loopJudge } from '../src/modes/loop/judge.ts';
import { loopProbeRequest } from '../src/modes/loop/judge/probe-scripts.ts';
import { CATALOGUE } from './fixtures/wrong-loop/catalogue.ts';
import { streamingLoop } from './support/streaming-loop.ts';
import { type GradedCase, gradeInProcess, loadGradedCases } from '../src/grade/audit/grade-in-process.ts';
import { groupFailures } from '../src/grade/report/group-failures.ts';
import { firstLoopFailure, loadLoopCases, type LoopSnapshotCase } from './fixtures/wrong-loop/first-failure.ts';
import { REPO } from './support/reference-course.ts';

const CATALOGUE_DIR = fileURLToPath(new URL('./fixtures/wrong-loop/', import.meta.url));
const HELPERS = ['catalogue', 'first-failure'];

let cases: LoopSnapshotCase[] = [];
let graded: GradedCase[] = [];
beforeAll(async () => {
  cases = await loadLoopCases();
  graded = await loadGradedCases(REPO, 'agent-loop');
});

test('the reference passes every case', async () => {
  expect(cases.length).toBeGreaterThan(0);
  expect(await firstLoopFailure(cases, runLoop)).toBeUndefined();
});

test('a streaming loop passes every case too: streamed and plain requests grade the same', async () => {
  expect(await firstLoopFailure(cases, streamingLoop)).toBeUndefined();
});

test.each(CATALOGUE)(
  '$slug fails a case, with a hint that names its mistake',
  async ({ runLoop: wrong, hint, caseHint }) => {
    const found = await firstLoopFailure(cases, wrong);
    expect(found, 'no case fails').toBeDefined();
    // The first case's hint is the first message's, but where only the probe proves the cause.
    expect(found?.failure.hint ?? `(no hint) ${found?.name}`).toMatch(
      caseHint ?? (Array.isArray(hint) ? hint[0]! : hint),
    );
  },
);

// Correct loops a student might write another way than the reference: each passes every case, and the probe finds
// no mistake in it (running the tools at once, results kept in order, included).
test.each(['parallel-in-order', 'recursive', 'stream'])(
  'the correct %s loop passes, and the probe finds nothing',
  async (name) => {
    const { runLoop: right } = (await import(`./fixtures/right-loop/${name}.ts`)) as { runLoop: typeof runLoop };
    const failed = (await gradeInProcess(graded, right as never)).filter((r) => r.status === 'fail');
    expect(failed.map((r) => r.name)).toEqual([]);
    const observed: unknown = JSON.parse(
      JSON.stringify(await program.observeLoops(loopJudge.probe!.request(), right as never)),
    );
    expect(findLoopMistakes(observed)).toEqual([]);
  },
);

// Diagnosis by observation: graded as a run grades it (src/grade/audit/grade-in-process.ts), every case a wrong loop
// fails is one message per mistake, whose hint names it (`hint`: one pattern per message, in report order). The
// probe finds the mistake: the first failing case is put under its finding, but for a mistake the probe's short
// scripts cannot show (`probed: false`, a cap on turns).
test.each(CATALOGUE)('$slug: its failures are one message per mistake, whose hint names it', async (wrong) => {
  const failed = (await gradeInProcess(graded, wrong.runLoop)).filter((r) => r.status === 'fail');
  const hints = groupFailures(failed).map((g) => g.results[0]!.failure?.hint ?? `(no hint) ${g.results[0]!.name}`);
  const wanted = Array.isArray(wrong.hint) ? wrong.hint : [wrong.hint];
  expect(hints, 'one message per mistake').toHaveLength(wanted.length);
  for (const [k, pattern] of wanted.entries()) expect(hints[k]).toMatch(pattern);
  expect(failed[0]?.failure?.hintCause?.startsWith('finding: ') === true, 'put under the finding').toBe(
    wrong.probed !== false,
  );
});

test('the reference: the probe finds no mistake', async () => {
  const observed: unknown = JSON.parse(
    JSON.stringify(await program.observeLoops(loopJudge.probe!.request(), runLoop as never)),
  );
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
