// One batch in a real process: what only a process shows. A slow case's batch resolves with its rest at once while
// its process lingers, and settles that case later; the probe and the case files reach the program as lines;
// a program that does not load ends its batch before any case. (Every interleaving is in batch-machine.test.ts.)
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBatch, type BatchContext, type CaseRun } from '../../../src/grade/run/run-batch.ts';
import { CONFINEMENT } from '../../support/isolation.ts';
import { makeCourse, useScratch, REPO } from '../course-fixture.ts';

const course = (name: string) => ({ name, file: join(REPO, 'cases', 'register-tools', `${name}.json`) });
const READ = course('course-read-seeded-file');
const ECHO = course('echo-returns-text');
const GLOB = course('course-glob-everything');
const scratch = useScratch();

function context(runs: CaseRun[], timeoutMs: number): BatchContext & { loaded: number } {
  const ctx = {
    loaded: 0,
    run: { timeoutMs, env: process.env, confinement: CONFINEMENT },
    probe: true,
    onCase: (run: CaseRun) => void runs.push(run),
    onWarning: () => {},
    onLoaded: () => void (ctx.loaded += 1),
    mayRelease: () => true,
  };
  return ctx;
}

describe('runBatch', () => {
  it('hands back the rest behind a hung case at once, and reports that case when its process is gone', async () => {
    const dir = await makeCourse(scratch, 'echo-loops');
    const runs: CaseRun[] = [];
    const end = await runBatch({ dir, cases: [READ, ECHO, GLOB] }, context(runs, 2000));
    expect(end.kind).toBe('released');
    if (end.kind !== 'released') return;
    expect([end.rest, runs.map((r) => r.name)]).toEqual([[GLOB], [READ.name]]);
    await end.lingering;
    expect(runs.map((r) => [r.name, r.outcome.kind])).toEqual([
      [READ.name, 'results'],
      [ECHO.name, 'timeout'],
    ]);
  });

  it('runs the probe first and every case in order, saying once that the program loads', async () => {
    const dir = await makeCourse(scratch);
    const runs: CaseRun[] = [];
    const ctx = context(runs, 30_000);
    expect(await runBatch({ dir, cases: [READ, GLOB] }, ctx)).toEqual({ kind: 'ran', rest: [] });
    expect(runs.map((r) => [r.name, r.outcome, r.afterProbe])).toEqual([
      [READ.name, { kind: 'results', results: [{ content: '1: A' }] }, true],
      [GLOB.name, { kind: 'results', results: [{ content: 'a.txt' }] }, true],
    ]);
    expect(ctx.loaded).toBe(1);
  });

  it('ends before any case when the program does not load', async () => {
    const dir = await makeCourse(scratch, 'does-not-compile');
    const runs: CaseRun[] = [];
    const end = await runBatch({ dir, cases: [READ, GLOB] }, context(runs, 30_000));
    expect(end).toMatchObject({
      kind: 'not-started',
      outcome: { kind: 'exited', code: 1, signal: null, beforeAnyCase: true },
      output: expect.stringContaining('ERROR: Expected ")" but found ";"'),
    });
    expect(runs).toEqual([]);
  });
});
