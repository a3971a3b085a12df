// How many program processes a run starts at once when --jobs is not given: chosen from the work, the number of
// cases and how long each took when it last ran (watch mode keeps those; a one-off run reads the course's timings
// file, src/grade/case-timings.ts), and from the cores.
import { availableParallelism } from 'node:os';

// One core fewer than the machine has, since every case's bash calls are processes of their own and need a core
// beside the program's (measured in docs/performance.md: on 2 cores one program process grades the suite faster
// than two). These processes start side by side, each on a core of its own: for a suite of about a hundred cases,
// this is the right number.
export function defaultJobs(cores = availableParallelism()): number {
  return Math.max(1, cores - 1);
}

// The work worth one more process beyond defaultJobs: a process costs about 0.45 s to start and a core's share
// of its cases' bash calls, so past the cores' count it pays once each process has seconds of work. Measured on
// 2 cores (docs/performance.md): 1,150 cases, about 9 s of work, grade fastest in 4 processes; 115 cases in 1.
export const WORK_PER_JOB_MS = 2000;
// Never more than this many processes per core, whatever the work: each holds about 60 MB, and beyond it the
// processes only wait for one another.
export const MAX_JOBS_PER_CORE = 2;

// What the work is: `expectedMs`, the time each case took when it last ran in a batch; `typicalMs`, a case's time
// when no run measured any (the stage's, src/course/stages.ts); the machine's cores.
type Work = { expectedMs?: ReadonlyMap<string, number> | undefined; typicalMs: number; cores?: number };

// Processes for `names` (a case `expectedMs` does not know counts as the median of those it does, or `typicalMs`):
// defaultJobs, or more when the work is large enough, at most MAX_JOBS_PER_CORE per core and never more than there
// are cases.
export function jobsForWork(names: readonly string[], work: Work): number {
  const { expectedMs, cores = availableParallelism() } = work;
  const known = names.flatMap((name) => expectedMs?.get(name) ?? []).sort((a, b) => a - b);
  const typical = known[Math.floor(known.length / 2)] ?? work.typicalMs;
  const total = names.reduce((sum, name) => sum + (expectedMs?.get(name) ?? typical), 0);
  const byWork = Math.ceil(total / WORK_PER_JOB_MS);
  const jobs = Math.min(Math.max(defaultJobs(cores), byWork), MAX_JOBS_PER_CORE * Math.max(1, cores));
  return Math.max(1, Math.min(jobs, names.length));
}

// Watch mode starts its processes ahead of the save, so it uses every core; but each waiting process holds about
// 60 MB, and past a few batches a run of about a hundred cases gains nothing, so a many-core laptop keeps no more.
export const MAX_WATCH_JOBS = 4;

// Batches per run in watch mode when --jobs is not given.
export function defaultWatchJobs(cores = availableParallelism()): number {
  return Math.min(MAX_WATCH_JOBS, cores);
}

// Submissions graded at once in a class run when --jobs is not given: two per core, one program process each. A
// submission's process spends much of its life waiting (its start's reads, its cases' bash calls and timeouts), and
// a class pays one start per submission however they are spread, so a second one per core fills those waits:
// measured on 2 cores (docs/performance.md), 20 submissions graded in 17.0 s one per core, 12.9 s two per core,
// and no faster beyond; each holds about 60 MB.
export function defaultClassJobs(cores = availableParallelism()): number {
  return MAX_JOBS_PER_CORE * Math.max(1, cores);
}
