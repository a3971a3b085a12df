// The snapshot file format and its only IO: `{ "results": [...] }` with keys sorted recursively, two-space
// JSON and a final newline, so the same results always give the same bytes and a diff shows only real change.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { HarnessError } from '../errors.ts';
import type { Snapshot } from './types.ts';
import { snapshotsDir } from './stages.ts';

// What writing a snapshot did.
export type SnapshotWrite = 'added' | 'changed' | 'unchanged';

// `snapshots/<stage>/<name>.json` under the package root.
export function snapshotPath(root: string, stage: string, name: string): string {
  return join(snapshotsDir(root, stage), `${name}.json`);
}

// The exact bytes of a snapshot file.
export function formatSnapshot(snapshot: Snapshot): string {
  return `${JSON.stringify(sortKeys({ results: snapshot.results }), null, 2)}\n`;
}

// A copy of a JSON value with every object's keys in code-unit order (arrays keep their order).
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    // fromEntries defines own properties, so a key named `__proto__` stays a key.
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([k, v]) => [k, sortKeys(v)]));
  }
  return value;
}

// A snapshot file's text read back: the snapshot, or why it is not one.
export function parseSnapshot(text: string): Snapshot | string {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return `not valid JSON (${(error as Error).message})`;
  }
  const results = (data as { results?: unknown } | null)?.results;
  if (typeof data !== 'object' || data === null || Array.isArray(data) || !Array.isArray(results)) {
    return 'must be an object with a "results" array';
  }
  return { results };
}

// Reads a snapshot: null when the file does not exist; a HarnessError when it is not a snapshot.
export async function readSnapshot(file: string): Promise<Snapshot | null> {
  const text = await readText(file);
  if (text === null) return null;
  const parsed = parseSnapshot(text);
  if (typeof parsed !== 'string') return parsed;
  throw new HarnessError(
    'BAD_SNAPSHOT',
    `${file}: ${parsed}. Regenerate it with \`theinference snapshot --stage <stage> --case ${basename(file, '.json')}\`.`,
  );
}

// The file's text, or null when it does not exist.
export async function readText(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

// Writes `text` to `file` only when it differs from what is there, through a temp file beside it and a
// rename, so a reader never sees a half-written file.
export async function writeIfChanged(file: string, text: string): Promise<SnapshotWrite> {
  const before = await readText(file);
  if (before === text) return 'unchanged';
  await writeAtomically(file, text);
  return before === null ? 'added' : 'changed';
}

// Writes a file whole or not at all: a temp file in the same directory, then a rename over the target.
export async function writeAtomically(file: string, text: string): Promise<void> {
  const temp = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  await mkdir(dirname(file), { recursive: true });
  try {
    await writeFile(temp, text);
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

// The names (without .json) of every snapshot file of a stage, sorted.
export async function snapshotNames(root: string, stage: string): Promise<string[]> {
  return namesEndingIn(snapshotsDir(root, stage), '.json');
}

// What ends a pending snapshot's file name: `theinference snapshot` writes a result that differs from the
// snapshot beside it, as insta writes `.snap.new`, and only a review (accept) puts it in the snapshot's place.
export const PENDING_SUFFIX = '.json.new';

// `snapshots/<stage>/<name>.json.new` under the package root.
export function pendingPath(root: string, stage: string, name: string): string {
  return join(snapshotsDir(root, stage), `${name}${PENDING_SUFFIX}`);
}

// The names of every pending snapshot of a stage, sorted.
export async function pendingNames(root: string, stage: string): Promise<string[]> {
  return namesEndingIn(snapshotsDir(root, stage), PENDING_SUFFIX);
}

// A pending snapshot put in its snapshot's place, by a rename: the snapshot is the old file or the new one,
// never a mix. A pending file that is not a snapshot (edited by hand, cut short) is refused and left as it is.
export async function acceptPending(root: string, stage: string, name: string): Promise<void> {
  const file = pendingPath(root, stage, name);
  const text = await readText(file);
  const parsed = text === null ? 'it does not exist' : parseSnapshot(text);
  if (typeof parsed === 'string') {
    throw new HarnessError(
      'BAD_SNAPSHOT',
      `snapshots/${stage}/${name}${PENDING_SUFFIX}: ${parsed}. Reject it (\`--reject ${name}\`) and run \`theinference snapshot --stage ${stage} --case ${name}\` again.`,
    );
  }
  await rename(file, snapshotPath(root, stage, name));
}

// A pending snapshot thrown away; the snapshot stays as it was.
export async function rejectPending(root: string, stage: string, name: string): Promise<void> {
  await rm(pendingPath(root, stage, name), { force: true });
}

async function namesEndingIn(dir: string, suffix: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile() && e.name.endsWith(suffix) && !e.name.startsWith('.'))
    .map((e) => e.name.slice(0, -suffix.length))
    .sort();
}
