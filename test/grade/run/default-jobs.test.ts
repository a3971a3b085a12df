// How many program processes a run starts when --jobs is not given.
import { describe, expect, it } from 'vitest';
import { defaultJobs, defaultWatchJobs, MAX_WATCH_JOBS } from '../../../src/grade/run/default-jobs.ts';

describe('defaultJobs', () => {
  it.each([
    [1, 1],
    [2, 1],
    [8, 7],
  ])('leaves one of %i cores for the bash calls, and uses at least one', (cores, jobs) => {
    expect(defaultJobs(cores)).toBe(jobs);
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
