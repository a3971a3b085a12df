import { lstat, readlink, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fail } from './output.ts';
import type { ToolOutput } from './types.ts';

// Linux gives up after 40 links in one lookup; so do we, and a path that needs more is refused.
const MAX_LINKS = 40;

// Resolves a path the model sent against the sandbox root: the absolute path to use, or the escape error.
export async function sandboxPath(root: string, path: string): Promise<string | ToolOutput> {
  return (await containedPath(root, resolve(root, path))) ?? fail(`Path escapes workspace: ${path}`);
}

// An absolute path, spelled under `root`, when it and every symlink along it stay inside the sandbox; else null.
// `..` is resolved lexically first, so the path checked is the very path the tool then opens.
export async function containedPath(root: string, target: string): Promise<string | null> {
  const realRoot = await realpath(root).catch(() => root);
  let lexical: string;
  if (isInside(root, target)) lexical = target;
  else if (isInside(realRoot, target)) lexical = join(root, relative(realRoot, target));
  else return null;
  const real = await resolveLinks(lexical, 0);
  return real !== null && isInside(realRoot, real) ? lexical : null;
}

// Whether `child` is `parent` or below it (both absolute and normalised).
export function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

// realpath for paths that may not exist yet: the realpath of the deepest existing ancestor plus the rest.
// A dangling symlink is followed by hand, since writing through it would create its target.
async function resolveLinks(path: string, links: number): Promise<string | null> {
  try {
    return await realpath(path);
  } catch {
    const stats = await lstat(path).catch(() => null);
    if (stats?.isSymbolicLink()) {
      if (links >= MAX_LINKS) return null;
      return resolveLinks(resolve(dirname(path), await readlink(path)), links + 1);
    }
    const parent = dirname(path);
    if (parent === path) return path;
    const realParent = await resolveLinks(parent, links);
    return realParent === null ? null : join(realParent, basename(path));
  }
}
