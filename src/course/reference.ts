// The reference dispatcher, the stage's answer key, lives only in the course repository (a git checkout of
// theinference): the package handed to students leaves it out (package.json `files`), so a copy installed from a
// tarball or a git install line can grade but not make snapshots or record. Commands that replay the reference
// ask for it here first, so that its absence is one plain message rather than a crash in every case.
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { HarnessError } from '../errors.ts';

// The reference dispatcher, relative to the package root.
export const REFERENCE_FILE = 'src/execute.ts';

// Whether the package at `root` holds the reference.
export async function hasReference(root: string): Promise<boolean> {
  return (await stat(join(root, REFERENCE_FILE)).catch(() => undefined))?.isFile() === true;
}

// Fails (exit 2) when the package at `root` has no reference, saying where `command` can run.
export async function requireReference(root: string, command: string): Promise<void> {
  if (await hasReference(root)) return;
  throw new HarnessError(
    'NO_REFERENCE',
    `\`theinference ${command}\` replays the reference solution (${REFERENCE_FILE}), which this copy of theinference (${resolve(root)}) does not have: the package handed to students never ships the answer. Run it in the course repository, a git checkout of theinference that holds ${REFERENCE_FILE}: cd <your checkout> && npm ci && npx theinference ${command} …`,
  );
}
