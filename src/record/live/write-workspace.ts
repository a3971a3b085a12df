// A workspace snapshot laid out as a directory again, for the recording pipeline's --files-from: the seed a live
// case takes its files from is the workspace as it was before the agent started, not as the agent left it.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { FileSpec } from '../../course/types.ts';

// Writes `files` into a new temp dir; `remove()` deletes it.
export async function writeWorkspace(files: Record<string, FileSpec>): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'theinference-live-seed-'));
  const remove = (): Promise<void> => rm(dir, { recursive: true, force: true });
  try {
    for (const [path, spec] of Object.entries(files)) {
      const target = join(dir, path);
      await mkdir(dirname(target), { recursive: true });
      if (typeof spec === 'string') await writeFile(target, spec);
      else if ('base64' in spec) await writeFile(target, Buffer.from(spec.base64, 'base64'));
      else await symlink(spec.symlink.replace('<sandbox>', dir), target);
    }
  } catch (error) {
    await remove();
    throw error;
  }
  return { dir, remove };
}
