// Which CLI entry to run. An installed package (unpacked from a tarball or a git dependency, which npm packs
// too) always runs the compiled one, dist/, built by `prepare` before it was packed: its src/ ships for
// `theinference init` to copy and is not to be run, and npm gives every unpacked file the same date, so dates
// cannot tell which is newer. Only a git checkout of theinference itself (it has a .git) runs its sources
// through tsx, while dist/ is missing or older than any file in src/, so an edited checkout never runs stale
// code; the compiled CLI starts without tsx, a third of a second sooner.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

// The modules to import for the package at `root` (the CLI's entry, and the early start of program processes
// that runs before it), and whether they need tsx registered first.
export function findCli(root) {
  const compiled = {
    entry: join(root, 'dist', 'cli', 'main.js'),
    early: join(root, 'dist', 'cli', 'early-start.js'),
    needsTsx: false,
  };
  const source = {
    entry: join(root, 'src', 'cli', 'main.ts'),
    early: join(root, 'src', 'cli', 'early-start.ts'),
    needsTsx: true,
  };
  let builtAt;
  try {
    builtAt = statSync(join(root, 'dist', '.built')).mtimeMs;
  } catch {
    return source;
  }
  if (!existsSync(join(root, '.git'))) return compiled;
  return newestIn(join(root, 'src')) > builtAt ? source : compiled;
}

function newestIn(dir) {
  let newest = statSync(dir).mtimeMs;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestIn(path) : statSync(path).mtimeMs);
  }
  return newest;
}
