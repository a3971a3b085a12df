// Where a stage's student file is when it is not where the driver imports it from: a file of the same base name
// at the top of the course directory or one directory down (`agent-loop.ts` moved out of `src/`). The hint for a
// program that did not start then says to move it back, not to write a fresh one beside it.
import { readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';

// Directories never searched: installs and tool state hold files of every name.
const SKIPPED = new Set(['node_modules', 'dist', 'reports']);

// For `file` (relative to `dir`, as a stage's `writes` names it): where a file of its base name is instead, relative
// to `dir`, or undefined when `file` is there or no such file is.
export async function misplacedFile(dir: string, file: string): Promise<string | undefined> {
  if (await isFile(join(dir, file))) return undefined;
  const name = basename(file);
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  if (entries.some((e) => e.isFile() && e.name === name)) return name;
  const below = entries
    .filter((e) => e.isDirectory() && !e.name.startsWith('.') && !SKIPPED.has(e.name))
    .map((e) => e.name)
    .sort();
  for (const sub of below) if (await isFile(join(dir, sub, name))) return `${sub}/${name}`;
  return undefined;
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isFile() === true;
}
