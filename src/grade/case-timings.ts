// How long each case took when it last ran in a batch, kept per stage in the course directory beside the record
// of the last run's failures (node_modules/.cache/theinference/), so that a one-off run chooses its number of
// processes and balances its batches from the last run's times, as watch mode does from its own. It only ever
// steers scheduling, never a verdict. Since the course directory is the student's, the file is read only when it
// is the grader's own (src/grade/course-cache.ts) and in the grader's format; anything else reads as no timings.
import { cachePath, readCache, writeCache } from './course-cache.ts';

// Past this size the file is not the grader's: a thousand cases' timings take about 50 KB.
const MAX_BYTES = 1024 * 1024;
// A time past this is not a case's time in a batch (far past DEFAULT_CASE_TIMEOUT_MS).
const MAX_CASE_MS = 10 * 60 * 1000;
const FORMAT = 'theinference-timings-1';

// The timings file of `stage` in the course directory `dir`.
export function timingsPath(dir: string, stage: string): string {
  return cachePath(dir, `timings-${stage}.json`);
}

// The timings of the last run of `stage` in `dir`, by case name (ms); empty when there is no file of the grader's.
// Synchronous: the early start (src/cli/early-start.ts) reads it before the CLI loads.
export function readTimings(dir: string, stage: string): Map<string, number> {
  const text = readCache(dir, `timings-${stage}.json`, MAX_BYTES);
  return text === undefined ? new Map() : parseTimings(text);
}

// The timings as the file holds them: only finite times in range, under their names.
export function parseTimings(text: string): Map<string, number> {
  try {
    const data = JSON.parse(text) as { format?: unknown; ms?: unknown };
    if (data.format !== FORMAT || typeof data.ms !== 'object' || data.ms === null) return new Map();
    const entries = Object.entries(data.ms as Record<string, unknown>);
    return new Map(
      entries.filter((e): e is [string, number] => typeof e[1] === 'number' && e[1] >= 0 && e[1] <= MAX_CASE_MS),
    );
  } catch {
    return new Map();
  }
}

// Writes `timings` (sorted by name, whole milliseconds) as the file of `stage` in `dir`, whole or not at all;
// nothing when a link is on the way or the directory cannot be written: the next run just has no timings.
export async function writeTimings(dir: string, stage: string, timings: ReadonlyMap<string, number>): Promise<void> {
  const ms = Object.fromEntries(
    [...timings].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([n, t]) => [n, Math.round(t)]),
  );
  await writeCache(dir, `timings-${stage}.json`, `${JSON.stringify({ format: FORMAT, ms }, null, 2)}\n`);
}
