// How long each case took when it last ran in a batch, kept per stage in the course directory beside the record
// of the last run's failures (node_modules/.cache/theinference/), so that a one-off run chooses its number of
// processes and balances its batches from the last run's times, as watch mode does from its own. It only ever
// steers scheduling, never a verdict. Since the course directory is the student's, the file is read only when it
// is the grader's own: a regular file of this user's, at most MAX_BYTES, reached through no link (node_modules,
// .cache, theinference and the file itself: a link is never followed, so a link cannot make the grader read or
// write anywhere else), in the grader's format; anything else reads as no timings.
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { readAsDataSync } from '../course/read-as-data.ts';
import { writeAtomically } from '../course/snapshot-file.ts';

// Past this size the file is not the grader's: a thousand cases' timings take about 50 KB.
const MAX_BYTES = 1024 * 1024;
// A time past this is not a case's time in a batch (far past DEFAULT_CASE_TIMEOUT_MS).
const MAX_CASE_MS = 10 * 60 * 1000;
const FORMAT = 'theinference-timings-1';

// The directories below the course directory that hold the file, outermost first.
const DIRS = ['node_modules', '.cache', 'theinference'];

// The timings file of `stage` in the course directory `dir`.
export function timingsPath(dir: string, stage: string): string {
  return join(dir, ...DIRS, `timings-${stage}.json`);
}

// The timings of the last run of `stage` in `dir`, by case name (ms); empty when there is no file of the grader's.
// Synchronous: the early start (src/cli/early-start.ts) reads it before the CLI loads.
export function readTimings(dir: string, stage: string): Map<string, number> {
  if (!noLinkOnTheWay(dir)) return new Map();
  // Read as data: a FIFO, a socket or a device left at the file's name is never opened (a FIFO opened to read
  // waits for a writer forever, before the run has printed anything).
  const path = timingsPath(dir, stage);
  const read = readAsDataSync(path, MAX_BYTES);
  if (typeof read === 'string') return new Map();
  let owner: number | undefined;
  try {
    owner = lstatSync(path).uid;
  } catch {
    return new Map();
  }
  return owner === process.getuid?.() ? parseTimings(read.data.toString('utf8')) : new Map();
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
  if (!noLinkOnTheWay(dir)) return;
  const ms = Object.fromEntries(
    [...timings].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([n, t]) => [n, Math.round(t)]),
  );
  await writeAtomically(timingsPath(dir, stage), `${JSON.stringify({ format: FORMAT, ms }, null, 2)}\n`).catch(
    () => undefined,
  );
}

// Whether none of the directories that hold the file is a link (one that does not exist yet is none).
function noLinkOnTheWay(dir: string): boolean {
  let path = dir;
  for (const name of DIRS) {
    path = join(path, name);
    try {
      if (lstatSync(path).isSymbolicLink()) return false;
    } catch {
      return true;
    }
  }
  return true;
}
