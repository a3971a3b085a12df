import { readdir } from 'node:fs/promises';
import type { Dirent } from 'node:fs';
import { byCodePoint } from './text-limit.ts';

// A directory as view shows it: entries two levels deep, directories marked `/`, hidden ones skipped and not
// entered, symlinks listed as they are (never entered, so the listing cannot leave the sandbox).
export async function listDirectory(directory: string): Promise<string> {
  const names: string[] = [];
  for (const entry of visible(await readdir(directory, { withFileTypes: true }))) {
    if (!entry.isDirectory()) {
      names.push(entry.name);
      continue;
    }
    names.push(`${entry.name}/`);
    // An unreadable subdirectory is still listed; its contents are simply not shown.
    const children = await readdir(`${directory}/${entry.name}`, { withFileTypes: true }).catch(() => []);
    for (const child of visible(children)) names.push(`${entry.name}/${child.name}${child.isDirectory() ? '/' : ''}`);
  }
  return names.length === 0 ? '(empty directory)' : names.sort(byCodePoint).join('\n');
}

function visible(entries: Dirent[]): Dirent[] {
  return entries.filter((entry) => !entry.name.startsWith('.'));
}
