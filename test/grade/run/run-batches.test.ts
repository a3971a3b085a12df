// The process pool, for real: a crash costs only the case in flight, a program that cannot load fails every
// case at once, a bad line stops its process and the rest re-runs.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBatches, type CaseRun } from '../../../src/grade/run/run-batches.ts';
import { CONFINEMENT } from '../../support/isolation.ts';
import { makeCourse, useScratch, REPO } from '../course-fixture.ts';

const course = (name: string) => ({ name, file: join(REPO, 'cases', 'register-tools', `${name}.json`) });
const BASH = course('course-bash-echo-hi');
const GLOB = course('course-glob-everything');
const READ = course('course-read-seeded-file');
const scratch = useScratch();


async function runAll(scenario: string | undefined, cases: { name: string; file: string }[], extra: { jobs?: number; alone?: boolean } = {}) {
  const dir = await makeCourse(scratch, scenario);
  const runs: CaseRun[] = [];
  await runBatches({ dir, cases, jobs: extra.jobs ?? 1, timeoutMs: 30_000, env: process.env, confinement: CONFINEMENT, ...extra, onCase: (r) => runs.push(r) });
  return new Map(runs.map((r) => [r.name, r]));
}

describe('runBatches', () => {
  it('gives a crash to the case in flight and re-runs the rest of its batch in a fresh process', async () => {
    const runs = await runAll('exits-non-zero', [BASH, GLOB, READ]);
    expect([...runs.keys()].sort()).toEqual([BASH.name, GLOB.name, READ.name]);
    expect(runs.get(BASH.name)).toMatchObject({ outcome: { kind: 'exited', code: 3, signal: null }, output: 'giving up on Bash\n', shared: true });
    expect(runs.get(GLOB.name)?.outcome).toEqual({ kind: 'results', results: [{ content: 'a.txt' }] });
    expect(runs.get(READ.name)?.outcome).toEqual({ kind: 'results', results: [{ content: '1: A' }] });
  });

  it('fails every case of a program that does not load, with its output, without running them one by one', async () => {
    const runs = await runAll('does-not-compile', [BASH, GLOB, READ]);
    expect([...runs.values()].map((r) => r.outcome)).toEqual(
      Array(3).fill({ kind: 'exited', code: 1, signal: null, beforeAnyCase: true }),
    );
    expect(runs.get(READ.name)?.output).toContain('ERROR: Expected ")" but found ";"');
  });

  it('stops a process at a line that is not a result and re-runs the rest of its batch', async () => {
    const runs = await runAll('prints-non-json', [READ, BASH, GLOB]);
    expect(runs.get(READ.name)?.outcome).toEqual({ kind: 'bad-line', reason: 'printed a line that is not JSON: "debug: reading a.txt"' });
    expect(runs.get(BASH.name)?.outcome.kind).toBe('results');
    expect(runs.get(GLOB.name)?.outcome.kind).toBe('results');
  });

  it('runs each case in a process of its own when asked', async () => {
    const runs = await runAll(undefined, [GLOB, READ], { jobs: 2, alone: true });
    expect([...runs.values()].map((r) => [r.outcome.kind, r.shared])).toEqual([
      ['results', false],
      ['results', false],
    ]);
  });

  it('stops when its signal aborts: processes killed, cases not run never reported', async () => {
    const dir = await makeCourse(scratch, 'hangs');
    const controller = new AbortController();
    const runs: CaseRun[] = [];
    await runBatches({
      dir,
      cases: [BASH, GLOB, READ],
      jobs: 1,
      timeoutMs: 600_000,
      env: process.env,
      confinement: CONFINEMENT,
      signal: controller.signal,
      onCase: (r) => {
        runs.push(r);
        controller.abort();
      },
    });
    expect(runs.map((r) => r.name)).toEqual([BASH.name]);
  });
});
