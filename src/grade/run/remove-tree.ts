// Removes a directory a program under test had the run of, even when it took its own permissions away.
import { chmod, lstat, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

// Removes `dir` and everything in it; on a permission error, gives every directory back rwx and retries. What
// still cannot be removed (a file the program made immutable with `chattr +i`) is left, and the warning returned
// says where and how to remove it: a program's temp space must never cost the report.
export async function removeTree(dir: string): Promise<string | undefined> {
  try {
    await rm(dir, { recursive: true, force: true });
    return undefined;
  } catch {
    await restoreAccess(dir);
  }
  try {
    await rm(dir, { recursive: true, force: true });
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    return `could not remove ${dir} (${code}): the program left something undeletable in its temp space (an immutable file? chattr +i). Remove it with: chattr -R -i '${dir}' && rm -rf '${dir}'`;
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
