// The failures of the last run in a course directory, kept per stage for `theinference test --failed`: a short
// re-run command however many cases failed. Kept where build tools keep their caches, under
// node_modules/.cache/, which a course's .gitignore already leaves out. Never through a link: a node_modules (or
// .cache) that is a link would put the record in another course's directory, or anywhere (a link to /proc makes a
// recursive mkdir spin forever), so the record is written only where every directory on the way is a real one,
// made one level at a time; and a record names the directory it belongs to, so one copied from another course is
// not read as this one's.
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readAsData } from '../course/read-as-data.ts';
import type { RunReport } from './types.ts';

// Past this, the file is not a record the grader wrote (a thousand failures' names take about 50 KB).
const MAX_RECORD_BYTES = 1024 * 1024;

// The directories from the course directory down to the record, one level each.
const RECORD_DIRS = ['node_modules', '.cache', 'theinference'];

// The record of `stage`'s last run in the course directory `dir`.
export function failedRecordPath(dir: string, stage: string): string {
  return join(dir, ...RECORD_DIRS, `failed-${stage}.json`);
}

// Records the names of a run's failures (sorted), in the directory it graded, beside the failures on record of the
// cases it did not grade (a `--case` run, a shard, a run cut short by --bail): a run of some cases says nothing
// about the others. False when the record could not be written (a read-only directory, a link on the way), in
// which case no command should send the student to it.
export async function recordFailures(report: RunReport): Promise<boolean> {
  const graded = new Set(report.cases.map((c) => c.name));
  const before = (await readFailures(report.dir, report.stage)) ?? [];
  const failed = [
    ...new Set([
      ...before.filter((name) => !graded.has(name)),
      ...report.cases.filter((c) => c.status === 'fail').map((c) => c.name),
    ]),
  ];
  try {
    const dir = await realpath(report.dir);
    let at = dir;
    for (const name of RECORD_DIRS) {
      at = join(at, name);
      if (!(await isRealDir(at))) {
        await mkdir(at).catch(() => {});
        if (!(await isRealDir(at))) return false;
      }
    }
    const text = `${JSON.stringify({ dir, failed: failed.sort() }, null, 2)}\n`;
    const file = join(at, `failed-${report.stage}.json`);
    const temp = join(at, `.failed-${report.stage}.${randomBytes(6).toString('hex')}.tmp`);
    // `wx` creates the temp file or fails, never writing through a link left at its name; the rename replaces
    // whatever is at the record's name (a link included) without following it.
    try {
      await writeFile(temp, text, { flag: 'wx' });
      await rename(temp, file);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    return true;
  } catch {
    return false;
  }
}

// The names the last run of `stage` in `dir` failed, or undefined when there is no readable record of this very
// directory (none, a link on the way, or one written for another directory).
export async function readFailures(dir: string, stage: string): Promise<string[] | undefined> {
  const real = await realpath(dir).catch(() => undefined);
  if (real === undefined) return undefined;
  let at = real;
  for (const name of RECORD_DIRS) {
    at = join(at, name);
    if (!(await isRealDir(at))) return undefined;
  }
  const file = join(at, `failed-${stage}.json`);
  // Read as data: a FIFO, a socket or a device at its name is never opened.
  const read = await readAsData(file, MAX_RECORD_BYTES);
  if (typeof read === 'string') return undefined;
  const text = read.data.toString('utf8');
  try {
    const record = JSON.parse(text) as { dir?: unknown; failed?: unknown };
    const { failed } = record;
    if (record.dir !== real) return undefined;
    return Array.isArray(failed) && failed.every((n) => typeof n === 'string') ? failed : undefined;
  } catch {
    return undefined;
  }
}

async function isRealDir(path: string): Promise<boolean> {
  return (await lstat(path).catch(() => undefined))?.isDirectory() === true;
}
