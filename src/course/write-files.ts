// Writes a set of files all or none: each goes to a temp file beside its target first, and only when every one
// is written are they renamed into place, so a failure (a full disk, a read-only directory) leaves nothing
// behind: no half-written file, no empty directory made on the way.
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

// One file, its path relative to the directory it is written under.
export type FileToWrite = { path: string; text: string };

// The paths of `files` that already exist under `dir` (as anything: a file, a directory, a dangling link).
export async function existingPaths(dir: string, files: FileToWrite[]): Promise<string[]> {
  const found = await Promise.all(
    files.map((f) =>
      lstat(join(dir, f.path)).then(
        () => f.path,
        () => undefined,
      ),
    ),
  );
  return found.filter((p) => p !== undefined);
}

// Writes every file under `dir` (made if missing), replacing what is there; all or nothing.
export async function writeFiles(dir: string, files: FileToWrite[]): Promise<void> {
  const made: string[] = [];
  const staged: { temp: string; target: string }[] = [];
  try {
    for (const file of files) {
      const target = join(dir, file.path);
      const first = await mkdir(dirname(target), { recursive: true });
      if (first !== undefined) made.push(first);
      const temp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
      staged.push({ temp, target });
      await writeFile(temp, file.text, { flag: 'wx' });
    }
    for (const { temp, target } of staged) await rename(temp, target);
  } catch (error) {
    await Promise.all(staged.map(({ temp }) => rm(temp, { force: true })));
    // Each is the first directory mkdir made on its way: everything under it was ours.
    for (const directory of made.reverse()) await rm(directory, { recursive: true, force: true });
    throw error;
  }
}
