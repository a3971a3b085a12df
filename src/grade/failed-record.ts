// The failures of the last run in a course directory, kept per stage for `theinference test --failed`: a short
// re-run command however many cases failed. Kept where build tools keep their caches, under
// node_modules/.cache/, which a course's .gitignore already leaves out.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeAtomically } from '../course/snapshot-file.ts';
import type { RunReport } from './types.ts';

// The record of `stage`'s last run in the course directory `dir`.
export function failedRecordPath(dir: string, stage: string): string {
  return join(dir, 'node_modules', '.cache', 'theinference', `failed-${stage}.json`);
}

// Records the names of a run's failures (sorted), in the directory it graded, beside the failures on record of the
// cases it did not grade (a `--case` run, a shard, a run cut short by --bail): a run of some cases says nothing
// about the others. False when the record could not be written (a read-only directory, say), in which case no
// command should send the student to it.
export async function recordFailures(report: RunReport): Promise<boolean> {
  const graded = new Set(report.cases.map((c) => c.name));
  const before = (await readFailures(report.dir, report.stage)) ?? [];
  const failed = [
    ...before.filter((name) => !graded.has(name)),
    ...report.cases.filter((c) => c.status === 'fail').map((c) => c.name),
  ];
  const text = `${JSON.stringify({ failed: [...new Set(failed)].sort() }, null, 2)}\n`;
  return writeAtomically(failedRecordPath(report.dir, report.stage), text).then(
    () => true,
    () => false,
  );
}

// The names the last run of `stage` in `dir` failed, or undefined when there is no readable record.
export async function readFailures(dir: string, stage: string): Promise<string[] | undefined> {
  const text = await readFile(failedRecordPath(dir, stage), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const failed = (JSON.parse(text) as { failed?: unknown }).failed;
    return Array.isArray(failed) && failed.every((n) => typeof n === 'string') ? failed : undefined;
  } catch {
    return undefined;
  }
}
