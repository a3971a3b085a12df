// Program processes started before the CLI loads: only for a one-off `test` run, in the directory --dir names,
// as many as its jobs (at most one per core); and closing the pool leaves nothing running.
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { flagValue, flagValues, startEarly } from '../../src/cli/early-start.ts';
import { firstStageIn } from '../../src/course/stages.ts';
import { defaultJobs } from '../../src/grade/run/default-jobs.ts';
import { makeCourse, standbysIn, useScratch } from '../grade/course-fixture.ts';

const scratch = useScratch();

describe('flagValue', () => {
  it.each([
    [['test', '--dir', 'a'], 'a'],
    [['test', '--dir=a b'], 'a b'],
    [['test', '--dir', 'a', '--dir', 'b'], 'b'],
    [['test', '--directory', 'a'], undefined],
    [['test', '--dir'], undefined],
  ])('reads --dir from %j as commander would', (argv, value) => {
    expect(flagValue(argv, '--dir')).toBe(value);
  });
});

describe('flagValues', () => {
  it.each([
    [
      ['test', '--case', 'a', '--case=b*', '--dir', 'x', '--case', 'c'],
      ['a', 'b*', 'c'],
    ],
    [['test', '--case'], []],
    [['test'], []],
  ])('reads every --case of %j in order', (argv, values) => {
    expect(flagValues(argv, '--case')).toEqual(values);
  });
});

describe('startEarly', () => {
  it.each([
    [['stages']],
    [['snapshot', '--stage', 'register-tools']],
    [['test', '--stage', 'register-tools', '--watch']],
    [['test', '--help']],
    [['test', '--jobs', 'many']],
    [['test', '--jobs', '0']],
    [['test', '--stage', 'register-tools', '--dir', 'a', '--dir', 'b']],
    [['test', '--stage', 'register-tools', '--dir', 'submissions/*']],
    [['test', '--stage', 'register-tools', '--dir=submissions/{a,b}']],
  ])('starts nothing for %j', (argv) => {
    expect(startEarly(argv, scratch.root, process.env)).toBeUndefined();
  });

  it('starts the default number of jobs in the directory --dir names, relative to the working directory', async () => {
    const dir = await makeCourse(scratch);
    const pool = startEarly(
      ['test', '--stage', 'register-tools', '--dir', dir.slice(scratch.root.length + 1)],
      scratch.root,
      process.env,
    );
    try {
      expect(pool?.size()).toBe(defaultJobs());
      await pool?.fill();
      await expect.poll(() => standbysIn(dir).then((pids) => pids.length)).toBe(defaultJobs());
    } finally {
      await pool?.close();
    }
    expect(await standbysIn(dir)).toEqual([]);
  });

  it('starts as many as --jobs asks, but never more than one per core', async () => {
    const dir = await makeCourse(scratch);
    const many = startEarly(['test', '--stage', 'register-tools', '--jobs', '64'], dir, process.env);
    const one = startEarly(['test', '--stage', 'register-tools', '--jobs=1'], dir, process.env);
    try {
      expect([many?.size(), one?.size()]).toEqual([availableParallelism(), 1]);
    } finally {
      await Promise.all([many?.close(), one?.close()]);
    }
    expect(await standbysIn(dir)).toEqual([]);
  });

  it('starts them in the course directory found above the working directory, as the run will grade it', async () => {
    const dir = await makeCourse(scratch);
    const pool = startEarly(
      ['test', '--stage', 'register-tools', '--jobs', '1'],
      join(dir, 'src', 'tools'),
      process.env,
    );
    try {
      await pool?.fill();
      await expect.poll(() => standbysIn(dir).then((pids) => pids.length)).toBe(1);
    } finally {
      await pool?.close();
    }
  });

  it("starts them for the stage: a loop stage's are handed out to that stage's runs only", async () => {
    const dir = await makeCourse(scratch);
    const argv = (stage: string) => ['test', '--stage', stage, '--jobs', '1', '--isolation', 'off'];
    const [loopStage, dispatchStage] = [firstStageIn('loop')!.slug, firstStageIn('dispatch')!.slug];
    const loop = startEarly(argv(loopStage), dir, process.env);
    const dispatch = startEarly(argv(dispatchStage), dir, process.env);
    try {
      expect(await loop?.take(dir, false, dispatchStage)).toBeUndefined();
      expect(await dispatch?.take(dir, false, loopStage)).toBeUndefined();
      const taken = await loop?.take(dir, false, loopStage);
      expect(taken).toBeDefined();
      await taken?.dispose();
    } finally {
      await Promise.all([loop?.close(), dispatch?.close()]);
    }
  });
});
