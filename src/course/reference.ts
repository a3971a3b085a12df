// The reference (the dispatcher, the loop: each stage's answer key) lives only in the course repository (a git checkout of
// theinference): the package handed to students leaves it out (package.json `files`), so a copy installed from a
// tarball or a git install line can grade but not make snapshots or record. Commands that replay the reference
// ask for it here first, so that its absence is one plain message rather than a crash in every case.
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { HarnessError } from '../errors.ts';

// The reference dispatcher, relative to the package root.
export const REFERENCE_FILE = 'src/execute.ts';

// Whether the package at `root` holds the reference: each of `files` (a stage's are the files its student writes).
export async function hasReference(root: string, files: readonly string[] = [REFERENCE_FILE]): Promise<boolean> {
  const found = await Promise.all(files.map((f) => stat(join(root, f)).catch(() => undefined)));
  return found.every((s) => s?.isFile() === true);
}

// Fails (exit 2) when the package at `root` has no reference (`files`, a stage's), saying where `command` can run.
export async function requireReference(
  root: string,
  command: string,
  files: readonly string[] = [REFERENCE_FILE],
): Promise<void> {
  if (await hasReference(root, files)) return;
  const named = files.join(', ');
  throw new HarnessError(
    'NO_REFERENCE',
    `\`theinference ${command}\` replays the reference solution (${named}), which this copy of theinference (${resolve(root)}) does not have: the package handed to students never ships the answer. Run it in the course repository, a git checkout of theinference that holds ${named}: cd <your checkout> && npm ci && npx theinference ${command} …`,
  );
}
