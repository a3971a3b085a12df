// The tsx transform cache program processes compile through. tsx keeps it in `<TMPDIR>/tsx-<euid>`, keyed by each
// file's content and path; a warm one saves a program 70–140 ms of compiling at every start. A program can write
// its cache, so a poisoned entry must never reach anyone else: not the grader (which, run from its sources, has
// its own `<os.tmpdir()>/tsx-<euid>`), not the reference (`snapshot` makes a fresh cache of its own), not another
// course graded on the same machine. Two kinds, both in the grader's temp dir:
// - a command's own (`theinference-tsx-<random>`): shared by its processes, removed with it (the reference, a
//   watch session);
// - a course's, for its sources as they are (`theinference-tsx-<course>-<sources>`): kept between runs, so a run
//   compiles only what changed since the same files last ran. Only a run of the very same files (same paths, sizes,
//   modification times and inodes: not even a fresh copy of the same code) in the same directory ever reads it:
//   whatever an earlier run left there, the very same code left.
import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, stat, utimes } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { extname, join } from 'node:path';
import { removeTree } from '../remove-tree.ts';

// A cache directory and what to do when its owner is done with it (a warning when something could not be removed).
// `dir` is undefined when the caller's environment sets TSX_DISABLE_CACHE: no cache at all, as tsx itself would do.
export type TsxCache = { dir: string | undefined; close: () => Promise<string | undefined> };

const PREFIX = 'theinference-tsx-';
// The files tsx may compile, and the two that change how it compiles.
const SOURCE = new Set(['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs', '.json']);
// A course past this many source files gets a cache of its own command instead (hashing it would cost more).
const MAX_SOURCES = 2000;
// A course keeps the caches of its last few versions; any course's cache unused this long goes.
const KEPT_PER_COURSE = 2;
const UNUSED_MS = 7 * 24 * 3600 * 1000;
// A cache in use by a run right now is never pruned: none runs for as long as this.
const IN_USE_MS = 3600 * 1000;

// The name tsx gives its cache directory inside `os.tmpdir()` (tsx 4: dist/temporary-directory).
export function tsxCacheName(): string {
  return `tsx-${process.geteuid?.() ?? userInfo().username}`;
}

// Whether an entry of the grader's temp dir is a course's cache, which runs keep there on purpose.
export function isCourseCache(name: string): boolean {
  return name.startsWith(PREFIX) && /^[0-9a-f]{16}-[0-9a-f]{16}$/.test(name.slice(PREFIX.length));
}

// A fresh, empty cache for one command, removed by `close`.
export async function openTsxCache(env: NodeJS.ProcessEnv): Promise<TsxCache> {
  if (env.TSX_DISABLE_CACHE) return { dir: undefined, close: async () => undefined };
  const dir = await mkdtemp(join(tmpdir(), PREFIX));
  let closed: Promise<string | undefined> | undefined;
  return { dir, close: () => (closed ??= removeTree(dir)) };
}

// The cache of the course in `courseDir` as its sources are now, made if missing and kept by `close`, which prunes
// the course's older ones and anyone's long unused. A command's own cache when the sources cannot be read.
export async function openCourseCache(courseDir: string, env: NodeJS.ProcessEnv): Promise<TsxCache> {
  if (env.TSX_DISABLE_CACHE) return { dir: undefined, close: async () => undefined };
  const sources = sourcesDigest(courseDir);
  if (sources === undefined) return openTsxCache(env);
  const course = digest(courseDir).slice(0, 16);
  const dir = join(tmpdir(), `${PREFIX}${course}-${sources.slice(0, 16)}`);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const now = new Date();
  await utimes(dir, now, now);
  return { dir, close: () => prune(course).then(() => undefined) };
}

// A digest of every source file in the course (its path, size, modification time and inode: any edit, and any new
// copy, changes it), skipping node_modules and dot directories; undefined past MAX_SOURCES files or when the
// directory cannot be read.
function sourcesDigest(courseDir: string): string | undefined {
  const hash = createHash('sha256');
  let count = 0;
  const walk = (dir: string, rel: string): boolean => {
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
    for (const entry of entries) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!walk(path, `${rel}${entry.name}/`)) return false;
      } else if (entry.isFile() && SOURCE.has(extname(entry.name))) {
        if ((count += 1) > MAX_SOURCES) return false;
        const { size, mtimeNs, ino, dev } = statSync(path, { bigint: true });
        hash.update(`${rel}${entry.name}\0${size}\0${mtimeNs}\0${dev}:${ino}\n`);
      }
    }
    return true;
  };
  try {
    return walk(courseDir, '') ? hash.digest('hex') : undefined;
  } catch {
    return undefined;
  }
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

// Removes the course's caches but its most recent few, and any cache unused for a week; never one used within the
// hour (another run of the course may be using it).
async function prune(course: string): Promise<void> {
  const now = Date.now();
  const caches: Array<{ dir: string; mine: boolean; used: number }> = [];
  for (const name of await readdir(tmpdir()).catch(() => [])) {
    if (!isCourseCache(name)) continue;
    const used = (await stat(join(tmpdir(), name)).catch(() => undefined))?.mtimeMs;
    if (used !== undefined)
      caches.push({ dir: join(tmpdir(), name), mine: name.startsWith(`${PREFIX}${course}-`), used });
  }
  const older = caches
    .filter((c) => c.mine)
    .sort((a, b) => b.used - a.used)
    .slice(KEPT_PER_COURSE);
  const stale = caches.filter((c) => now - c.used > UNUSED_MS);
  for (const c of new Set([...older, ...stale])) if (now - c.used > IN_USE_MS) await removeTree(c.dir);
}
