// How many program processes a run starts when --jobs is not given.
import { describe, expect, it } from 'vitest';
import {
  defaultClassJobs,
  defaultJobs,
  defaultWatchJobs,
  jobsForWork,
  MAX_JOBS_PER_CORE,
  MAX_WATCH_JOBS,
  WORK_PER_JOB_MS,
} from '../../../src/grade/run/default-jobs.ts';

describe('defaultJobs', () => {
  it.each([
    [1, 1],
    [2, 1],
    [8, 7],
  ])('leaves one of %i cores for the bash calls, and uses at least one', (cores, jobs) => {
    expect(defaultJobs(cores)).toBe(jobs);
  });
});

describe('jobsForWork', () => {
  // register-tools' typical case time (src/course/stages.ts).
  const typicalMs = 8;
  const names = (n: number): string[] => Array.from({ length: n }, (_, i) => `case-${i}`);
  const timed = (n: number, ms: number): Map<string, number> => new Map(names(n).map((name) => [name, ms]));

  it.each<[string, number, Map<string, number> | undefined, number, number]>([
    ['the reference suite, 115 cases, untimed, on 2 cores', 115, undefined, 2, 1],
    ['the 10x suite, 1,150 cases, untimed, on 2 cores', 1150, undefined, 2, 4],
    ['a suite of 345 cases, untimed, on 2 cores', 345, undefined, 2, 2],
    ['115 cases on 8 cores: one per core but one', 115, undefined, 8, 7],
    ['1,150 cases on 8 cores: the work needs no more', 1150, undefined, 8, 7],
    [
      '115 slow cases (a second each) on 2 cores: at most two per core',
      115,
      timed(115, 1000),
      2,
      2 * MAX_JOBS_PER_CORE,
    ],
    ['115 cases timed fast on 2 cores', 115, timed(115, 2), 2, 1],
    ['3 cases on 8 cores: never more processes than cases', 3, undefined, 8, 3],
    ['no case at all', 0, undefined, 2, 1],
  ])('%s', (_, n, expectedMs, cores, jobs) => {
    expect(jobsForWork(names(n), { expectedMs, typicalMs, cores })).toBe(jobs);
  });

  it('counts a case without a time as the median of those timed', () => {
    // Ten cases known at 800 ms, ten unknown: 20 × 800 ms of work, 8 processes' worth, capped at 2 per core.
    expect(jobsForWork(names(20), { expectedMs: timed(10, 800), typicalMs, cores: 8 })).toBe(8);
    expect(jobsForWork(names(20), { expectedMs: timed(10, 800), typicalMs, cores: 4 })).toBe(8);
    expect(jobsForWork(names(20), { expectedMs: timed(10, 800), typicalMs, cores: 2 })).toBe(4);
  });

  it('adds a process for every WORK_PER_JOB_MS of work past the cores', () => {
    const perJob = WORK_PER_JOB_MS / typicalMs;
    expect([perJob * 2, perJob * 2 + 1].map((n) => jobsForWork(names(n), { typicalMs, cores: 2 }))).toEqual([2, 3]);
  });

  it("plans an untimed suite by its stage's typical case time", () => {
    // 21 loop cases at 250 ms: 5.25 s of work, two processes' worth beyond the one core's.
    expect(jobsForWork(names(21), { typicalMs: 250, cores: 2 })).toBe(3);
    expect(jobsForWork(names(21), { typicalMs: 8, cores: 2 })).toBe(1);
  });
});

describe('defaultWatchJobs', () => {
  it.each([
    [1, 1],
    [2, 2],
    [4, 4],
    [16, MAX_WATCH_JOBS],
  ])('uses every one of %i cores, up to a few', (cores, jobs) => {
    expect(defaultWatchJobs(cores)).toBe(jobs);
  });
});

describe('defaultClassJobs', () => {
  it.each([
    [1, 2],
    [2, 4],
    [8, 16],
  ])('grades two submissions per core of %i at once', (cores, jobs) => {
    expect(defaultClassJobs(cores)).toBe(jobs);
    expect(jobs).toBe(MAX_JOBS_PER_CORE * cores);
  });
});
