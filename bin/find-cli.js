// Which CLI entry to run. The compiled one (dist/, built by `npm run build`, run by `prepare` on install) starts
// without tsx, which saves a third of a second on every run; the sources run through tsx whenever dist/ is
// missing or older than any file in src/, so an edited checkout never runs stale code.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

// The modules to import for the package at `root` (the CLI's entry, and the early start of program processes
// that runs before it), and whether they need tsx registered first.
export function findCli(root) {
  const compiled = { entry: join(root, 'dist', 'cli', 'main.js'), early: join(root, 'dist', 'cli', 'early-start.js'), needsTsx: false };
  const source = { entry: join(root, 'src', 'cli', 'main.ts'), early: join(root, 'src', 'cli', 'early-start.ts'), needsTsx: true };
  let builtAt;
  try {
    builtAt = statSync(join(root, 'dist', '.built')).mtimeMs;
  } catch {
    return source;
  }
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
