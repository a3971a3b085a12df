import { posix, relative, resolve, sep } from 'node:path';
import fg from 'fast-glob';
import { containedPath, isInside } from './sandbox-path.ts';

// A path found under the searched directory (relative to it, `/`-separated) and what it is, not following links.
export type Entry = { path: string; isFile: boolean; isDirectory: boolean };

// Walks `directory` for entries matching a glob pattern, never leaving the sandbox: hidden names only match a
// pattern that names them, and symlinks are reported, not followed. Null when the pattern reaches outside
// the directory (an absolute or `..` prefix that leaves it, or a symlink in the part read as a directory).
export async function findEntries(
  root: string,
  directory: string,
  pattern: string,
  options: { baseNameMatch: boolean },
): Promise<Entry[] | null> {
  const relativePattern = anchor(pattern, directory);
  if (relativePattern === null) return null;
  const settings = {
    cwd: directory,
    dot: false,
    followSymbolicLinks: false,
    onlyFiles: false,
    suppressErrors: true,
    baseNameMatch: options.baseNameMatch,
  };
  // fast-glob opens the directories a pattern names literally (`link/*` reads `link`), following symlinks there.
  for (const task of fg.generateTasks([relativePattern], settings)) {
    const opened = task.dynamic ? [task.base] : task.positive.map((p) => posix.dirname(p));
    for (const dir of opened) {
      const absolute = resolve(directory, dir);
      if (!isInside(directory, absolute) || (await containedPath(root, absolute)) === null) return null;
    }
  }
  const entries = await fg(relativePattern, { ...settings, objectMode: true });
  return entries.map(({ path, dirent }) => ({
    path: posix.normalize(path),
    isFile: dirent.isFile(),
    isDirectory: dirent.isDirectory(),
  }));
}

// Rewrites the literal prefix of a pattern (up to its first wildcard segment) relative to `directory`, so an
// absolute or `..` pattern that stays inside works and one that leaves is caught. Null when it leaves.
function anchor(pattern: string, directory: string): string | null {
  const segments = pattern.split('/');
  const dynamicAt = segments.findIndex((segment) => segment !== '' && fg.isDynamicPattern(segment));
  const literal = dynamicAt === -1 ? segments : segments.slice(0, dynamicAt);
  const rest = dynamicAt === -1 ? [] : segments.slice(dynamicAt);
  // fast-glob never walks up from its base, but a `..` in braces (`{..,src}/x`) or after a wildcard makes the
  // results hard to predict; refusing it is simpler than explaining them.
  if (rest.includes('..') || /[{,]\.\.(?=[/,}])|\.\.[,}]/.test(pattern)) return null;
  const prefix = literal.join('/') || (literal.length > 0 ? '/' : '.');
  const target = resolve(directory, prefix);
  if (!isInside(directory, target)) return null;
  const head = relative(directory, target).split(sep).join('/');
  if (rest.length === 0) return head || '.';
  const anchored = [head, ...rest].filter((segment, i) => i > 0 || segment !== '').join('/');
  // `./` keeps a pattern that had a slash from becoming a name matched at any depth (grep's baseNameMatch).
  return pattern.includes('/') && !anchored.includes('/') ? `./${anchored}` : anchored;
}
