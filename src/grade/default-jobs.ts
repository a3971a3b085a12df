// How many program processes a run starts at once when --jobs is not given.
import { availableParallelism } from 'node:os';

// One core fewer than the machine has, since every case's bash calls are processes of their own and need a core
// beside the program's (measured in docs/performance.md: on 2 cores one program process grades the suite faster
// than two).
export function defaultJobs(): number {
  return Math.max(1, availableParallelism() - 1);
}
