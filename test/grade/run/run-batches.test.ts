// The process pool, for real: a crash costs only the case in flight, a program that cannot load fails every
// case at once, a bad line stops its process and the rest re-runs, hangs wait side by side. (Every interleaving
// of the pool's own decisions is in pool-machine.test.ts.)

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBatches, type CaseRun } from '../../../src/grade/run/run-batches.ts';
import { CONFINEMENT } from '../../support/isolation.ts';
import { makeCourse, useScratch, REPO } from '../course-fixture.ts';

const course = (name: string) => ({ name, file: join(REPO, 'cases', 'register-tools', `${name}.json`) });
const BASH = course('course-bash-echo-hi');
const GLOB = course('course-glob-everything');
const READ = course('course-read-seeded-file');
const ECHO_EMPTY = course('echo-returns-empty-text');
const ECHO = course('echo-returns-text');
const GLOB_ROUTES = course('glob-routes-to-glob');
const scratch = useScratch();

async function runAll(
  scenario: string | undefined,
  cases: { name: string; file: string }[],
  extra: {
    jobs?: number;
    alone?: boolean;
    timeoutMs?: number;
    maxLingering?: number;
    observe?: unknown;
    onObserved?: (observed: unknown) => void;
  } = {},
  // Aborts the pool once this case is reported.
  stopAt?: string,
) {
  const dir = await makeCourse(scratch, scenario);
  const runs: CaseRun[] = [];
  const stop = new AbortController();
  const onCase = (r: CaseRun): void => {
    runs.push(r);
    if (r.name === stopAt) stop.abort();
  };
  await runBatches({
    dir,
    cases,
    jobs: extra.jobs ?? 1,
    timeoutMs: 30_000,
    env: process.env,
    confinement: CONFINEMENT,
    signal: stop.signal,
    ...extra,
    onCase,
  });
  return Object.assign(new Map(runs.map((r) => [r.name, r])), { order: runs.map((r) => r.name) });
}

describe('runBatches', () => {
  it('gives a crash to the case in flight and re-runs the rest of its batch in a fresh process', async () => {
    const runs = await runAll('exits-non-zero', [BASH, GLOB, READ]);
    expect([...runs.keys()].sort()).toEqual([BASH.name, GLOB.name, READ.name]);
    expect(runs.get(BASH.name)).toMatchObject({
      outcome: { kind: 'exited', code: 3, signal: null },
      output: 'giving up on Bash\n',
      afterProbe: true,
    });
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

  it('names the call in flight when a case hangs', async () => {
    const runs = await runAll('echo-loops', [READ, ECHO], { timeoutMs: 1500 });
    expect(runs.get(READ.name)?.outcome.kind).toBe('results');
    expect(runs.get(ECHO.name)?.outcome).toEqual({
      kind: 'timeout',
      timeoutMs: 1500,
      calling: { call: 1, ms: expect.any(Number) },
    });
  });

  it('lets hangs wait out their timeouts side by side: the case after two hangs is graded while both still run', async () => {
    // One batch: a pass, two cases whose echo loops for good, a pass. Each hang hands the rest of the batch to a
    // fresh process, so the last pass is in while both hangs are still in flight (the pool is stopped then, long
    // before their 30 s timeouts). One hang after the other, it would come after both timeouts: no machine is
    // that slow to start three processes, so the order does not depend on the load.
    const runs = await runAll('echo-loops', [READ, ECHO_EMPTY, ECHO, GLOB_ROUTES], {}, GLOB_ROUTES.name);
    expect(runs.order).toEqual([READ.name, GLOB_ROUTES.name]);
  });

  it('knows when a case hung before its first call, in a program that reports its calls', async () => {
    // makeExecute loops for the case that seeds a.txt; the Bash case before it reported its call.
    const runs = await runAll('make-execute-loops', [BASH, READ], { timeoutMs: 1500 });
    expect(runs.get(BASH.name)?.outcome.kind).toBe('results');
    expect(runs.get(READ.name)?.outcome).toEqual({ kind: 'timeout', timeoutMs: 1500, calling: 'none' });
  });

  it('keeps a batch waiting behind a slow case while as many processes as allowed are finishing one', async () => {
    const runs = await runAll('echo-loops', [READ, ECHO_EMPTY, ECHO, GLOB_ROUTES], {
      timeoutMs: 1000,
      maxLingering: 0,
    });
    expect(runs.order).toEqual([READ.name, ECHO_EMPTY.name, ECHO.name, GLOB_ROUTES.name]);
  });

  it('names the call that awaited a promise never settled (Node exits 13), and grades the rest', async () => {
    const runs = await runAll('echo-never-settles', [READ, ECHO, GLOB_ROUTES]);
    expect(runs.get(ECHO.name)?.outcome).toEqual({
      kind: 'exited',
      code: 13,
      signal: null,
      calling: { call: 1, ms: expect.any(Number) },
    });
    expect([runs.get(READ.name)?.outcome.kind, runs.get(GLOB_ROUTES.name)?.outcome.kind]).toEqual([
      'results',
      'results',
    ]);
  });

  it("finds a program that cannot start once: every case gets the first failing process's verdict", async () => {
    // Each process throws a message of its own while loading: two batches would show two.
    const runs = await runAll('throws-at-import-randomly', [BASH, GLOB, READ, GLOB_ROUTES], { jobs: 2 });
    expect(runs.order).toHaveLength(4);
    const outputs = new Set([...runs.values()].map((r) => r.output));
    expect(outputs.size).toBe(1);
    expect([...outputs][0]).toMatch(/Error: not ready \(0\.\d+\)/);
    expect(new Set([...runs.values()].map((r) => JSON.stringify(r.outcome)))).toEqual(
      new Set([JSON.stringify({ kind: 'exited', code: 1, signal: null, beforeAnyCase: true })]),
    );
  });

  it("shows a line the student's code writes to fd 1 as that case's output, never as a result", async () => {
    const runs = await runAll('prints-non-json', [READ, BASH, GLOB]);
    expect(runs.get(READ.name)?.outcome.kind).toBe('results');
    expect(runs.get(READ.name)?.output).toContain('debug: reading a.txt\n');
    expect(runs.get(BASH.name)?.outcome.kind).toBe('results');
    expect(runs.get(GLOB.name)?.outcome.kind).toBe('results');
  });

  it("gives the probe's request to one process at a time, until one has answered it", async () => {
    const observed: unknown[] = [];
    const request = { methods: ['view'], calls: [{ tool: 'Read', input: { path: 'p' }, answer: { content: 'a' } }] };
    const runs = await runAll(undefined, [BASH, GLOB, READ, GLOB_ROUTES], {
      jobs: 2,
      observe: request,
      onObserved: (o) => observed.push(o),
    });
    expect([...runs.values()].map((r) => r.outcome.kind)).toEqual(Array(4).fill('results'));
    expect(observed).toEqual([
      [{ calls: [{ method: 'view', args: ['p', { $: 'undefined' }] }], result: { content: 'a' } }],
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
