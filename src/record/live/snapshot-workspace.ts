// The workspace as it was before the agent started: every file a case may need as its seed, as a case's `files`
// (text as a string, anything else as base64, symlinks inside the workspace as links). It skips `.git`,
// `node_modules` and whatever the workspace's .gitignore files (and .git/info/exclude) ignore, with git's
// precedence (a deeper file's rule wins, `!` re-includes), and it is size-capped: what is left out is listed.
import { lstat, readdir, readFile, readlink } from 'node:fs/promises';
import { isUtf8 } from 'node:buffer';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { SANDBOX } from '../../course/sandbox-placeholder.ts';
import type { FileSpec } from '../../course/types.ts';

export type SnapshotLimits = { fileBytes: number; totalBytes: number; entries: number };

// Per file 1 MiB, in all 16 MiB, at most 20,000 directory entries looked at: a seed a case can carry, found fast
// even when the workspace is larger than it should be.
export const SNAPSHOT_LIMITS: SnapshotLimits = { fileBytes: 1 << 20, totalBytes: 16 << 20, entries: 20_000 };

export type WorkspaceSnapshot = {
  root: string;
  files: Record<string, FileSpec>;
  omitted: Array<{ path: string; reason: string }>;
  bytes: number;
};

const ALWAYS_SKIPPED = new Set(['.git', 'node_modules']);

// A rule set from one .gitignore and the directory (relative to the root, '' for the root) it applies below.
type Rules = { base: string; rules: Ignore };

// Reads the workspace at `root`; paths in the result are relative, with `/` separators, in sorted order.
export async function snapshotWorkspace(
  root: string,
  limits: SnapshotLimits = SNAPSHOT_LIMITS,
): Promise<WorkspaceSnapshot> {
  const top = resolve(root);
  const snapshot: WorkspaceSnapshot = { root: top, files: {}, omitted: [], bytes: 0 };
  let entries = 0;
  const rootRules = await rulesIn(top, '', ['.git/info/exclude', '.gitignore']);

  const walk = async (dir: string, stack: Rules[]): Promise<void> => {
    const rel = relative(top, dir).split(sep).join('/');
    const here = rel === '' ? stack : [...stack, ...(await rulesIn(dir, rel, ['.gitignore']))];
    const names = (await readdir(dir)).sort();
    for (const name of names) {
      const path = rel === '' ? name : `${rel}/${name}`;
      if (++entries > limits.entries) {
        snapshot.omitted.push({
          path,
          reason: `the walk stopped after ${limits.entries} entries: the workspace is too large to snapshot; point --workspace at the project`,
        });
        return;
      }
      if (ALWAYS_SKIPPED.has(name)) continue;
      const full = join(dir, name);
      const stat = await lstat(full).catch(() => undefined);
      if (stat === undefined) continue;
      if (isIgnored(here, path, stat.isDirectory())) continue;
      if (stat.isDirectory()) await walk(full, here);
      else if (stat.isSymbolicLink()) await addLink(snapshot, top, full, path);
      else if (!stat.isFile()) snapshot.omitted.push({ path, reason: 'not a regular file' });
      else if (stat.size > limits.fileBytes)
        snapshot.omitted.push({ path, reason: `${stat.size} bytes, over the ${limits.fileBytes}-byte cap per file` });
      else if (snapshot.bytes + stat.size > limits.totalBytes)
        snapshot.omitted.push({ path, reason: `over the ${limits.totalBytes}-byte cap for the whole snapshot` });
      else await addFile(snapshot, full, path);
      if (entries > limits.entries) return;
    }
  };
  await walk(top, rootRules);
  return snapshot;
}

async function rulesIn(dir: string, base: string, files: string[]): Promise<Rules[]> {
  const found: Rules[] = [];
  for (const file of files) {
    const text = await readFile(join(dir, file), 'utf8').catch(() => undefined);
    if (text !== undefined) found.push({ base, rules: ignore().add(text) });
  }
  return found;
}

// git's precedence: the rules are tried from the root down, and the last one that says anything wins.
function isIgnored(stack: Rules[], path: string, directory: boolean): boolean {
  let ignored = false;
  for (const { base, rules } of stack) {
    const inside = base === '' ? path : path.slice(base.length + 1);
    const verdict = rules.test(directory ? `${inside}/` : inside);
    if (verdict.ignored) ignored = true;
    else if (verdict.unignored) ignored = false;
  }
  return ignored;
}

async function addFile(snapshot: WorkspaceSnapshot, full: string, path: string): Promise<void> {
  let bytes: Buffer;
  try {
    bytes = await readFile(full);
  } catch (error) {
    snapshot.omitted.push({ path, reason: `unreadable (${(error as NodeJS.ErrnoException).code ?? String(error)})` });
    return;
  }
  snapshot.bytes += bytes.length;
  snapshot.files[path] =
    isUtf8(bytes) && !bytes.includes(0) ? bytes.toString('utf8') : { base64: bytes.toString('base64') };
}

// A link inside the workspace stays a link (an absolute target becomes <sandbox>/…); one that leads out is left out.
async function addLink(snapshot: WorkspaceSnapshot, top: string, full: string, path: string): Promise<void> {
  const target = await readlink(full);
  const resolved = resolve(full, '..', target);
  const inside = relative(top, resolved);
  if (inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
    snapshot.omitted.push({ path, reason: 'a symlink that leads out of the workspace' });
    return;
  }
  snapshot.files[path] = { symlink: isAbsolute(target) ? `${SANDBOX}/${inside.split(sep).join('/')}` : target };
}
