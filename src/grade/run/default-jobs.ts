// How many program processes a run starts at once when --jobs is not given.
import { availableParallelism } from 'node:os';

// One core fewer than the machine has, since every case's bash calls are processes of their own and need a core
// beside the program's (measured in docs/performance.md: on 2 cores one program process grades the suite faster
// than two).
export function defaultJobs(cores = availableParallelism()): number {
  return Math.max(1, cores - 1);
}

// Watch mode starts its processes ahead of the save, so it uses every core; but each waiting process holds about
// 60 MB, and past a few batches a run of about a hundred cases gains nothing, so a many-core laptop keeps no more.
export const MAX_WATCH_JOBS = 4;

// Batches per run in watch mode when --jobs is not given.
export function defaultWatchJobs(cores = availableParallelism()): number {
  return Math.min(MAX_WATCH_JOBS, cores);
}
