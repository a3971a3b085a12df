// Removes a directory a program under test had the run of, even when it took its own permissions away.
import { chmod, lstat, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

// Removes `dir` and everything in it; on a permission error, gives every directory back rwx and retries.
export async function removeTree(dir: string): Promise<void> {
  try {
    await rm(dir, { recursive: true, force: true });
  } catch {
    await restoreAccess(dir);
    await rm(dir, { recursive: true, force: true });
  }
}

// Symlinks are never followed: a program may have left one pointing anywhere.
async function restoreAccess(path: string): Promise<void> {
  const stat = await lstat(path).catch(() => undefined);
  if (stat === undefined || !stat.isDirectory()) return;
  await chmod(path, 0o700).catch(() => {});
  const entries = await readdir(path).catch(() => []);
  await Promise.all(entries.map((name) => restoreAccess(join(path, name))));
}
