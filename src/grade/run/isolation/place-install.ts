// A copy of what a submission's program process reads of the grader's install, placed where nobody can read it: for
// a grader run as root whose install nobody cannot reach (a course directory under /root, mode 0700, in a dev
// container), which the student cannot fix (program-install.ts decides when). The copy holds the runtime packages
// and, of the grader package, only the files the sandbox shows a program (package.json, the driver's, the
// standby's): never the reference, the cases or the snapshots. It is made in a temp dir only its maker can enter,
// then renamed into place whole, so a grader never sees another's half copy; root's, 0755 and 0644 (0755 for an
// executable file, esbuild's binary), so nobody cannot change it; named by a fingerprint of what it copies, so later
// runs reuse it while the install is unchanged. One found at that name is trusted only when it is a directory the
// grader's user owns, that no other user can write, and that holds the completion mark; anything else there (a half
// copy, one nobody planted, a link) is removed and the copy made again. Files are copied, never hard-linked: a link
// shares the original's mode (unreadable, the very case) and its later changes, and /tmp is often another file system.
import { createHash } from 'node:crypto';
import {
  chmodSync,
  constants,
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  type Stats,
  statSync,
} from 'node:fs';
import { chmod, lstat, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { holdUntilExit, releaseAtExit } from '../live-groups.ts';
import { isInside } from './sandbox-args.ts';

// What to copy: the grader package's real root, the files of it a program reads (absolute, inside it; a directory
// is copied whole), and the node_modules of its runtime packages (its entry for the grader package is left out).
export type InstallSource = { packageRoot: string; files: string[]; modules: string };

// Where the copy is: its package root (`<copy>/node_modules/theinference`) and its node_modules; or why there is none.
export type PlacedInstall = { root: string; modules: string } | { error: string };

// Written last, holding the fingerprint: a copy without it is not finished.
export const COMPLETE_MARK = '.complete';
// Entries of node_modules no program process needs: npm's command links (copies of the packages' bins, if
// followed), caches.
const SKIPPED_MODULES = new Set(['.bin', '.cache', 'theinference']);
const TRIES = 3;

// One entry to copy: its path under the copy, where it is read from, what it is.
type Entry = { to: string; from: string; stats: Stats };

// Places the copy of `source` under `base` (a directory every user may enter), or finds it there already.
export async function placeInstall(source: InstallSource, base: string): Promise<PlacedInstall> {
  let entries: Entry[];
  let key: string;
  try {
    entries = listSource(source);
    key = fingerprint(source, entries);
  } catch (error) {
    return { error: `the grader cannot read its own install to copy it: ${(error as Error).message}` };
  }
  const at = join(base, `theinference-install-${key.slice(0, 16)}`);
  const placed = { root: join(at, 'node_modules', 'theinference'), modules: join(at, 'node_modules') };
  if (await trusted(at, key)) return placed;
  let temp: string | undefined;
  const hold = {};
  try {
    // mkdtemp makes it 0700: nobody sees nothing of it until it is renamed, whole, into place.
    temp = await mkdtemp(`${at}-`);
    holdUntilExit(hold, () => {}, temp);
    copyEntries(entries, temp);
    await writeFile(join(temp, COMPLETE_MARK), key, { mode: 0o644 });
    await chmod(join(temp, COMPLETE_MARK), 0o644);
    await chmod(temp, 0o755);
    for (let i = 0; i < TRIES; i += 1) {
      try {
        await rename(temp, at);
        return placed;
      } catch {
        // Another grader placed it first, or something else is there: a half copy, one planted, a link.
        if (await trusted(at, key)) return placed;
        await rm(at, { recursive: true, force: true });
      }
    }
    return {
      error: `the grader could not place a copy of its install at ${at}: something else keeps taking that path`,
    };
  } catch (error) {
    return { error: `the grader could not place a copy of its install in ${base}: ${(error as Error).message}` };
  } finally {
    if (temp !== undefined) await rm(temp, { recursive: true, force: true }).catch(() => {});
    releaseAtExit(hold);
  }
}

// Whether `at` is a finished copy of `key` that only the grader's user can change.
async function trusted(at: string, key: string): Promise<boolean> {
  const own = (s: Stats): boolean => s.uid === process.geteuid?.() && (s.mode & 0o022) === 0;
  try {
    const dir = await lstat(at);
    const mark = await lstat(join(at, COMPLETE_MARK));
    if (!dir.isDirectory() || !own(dir) || !mark.isFile() || !own(mark)) return false;
    const modules = await lstat(join(at, 'node_modules'));
    return modules.isDirectory() && own(modules) && (await readFile(join(at, COMPLETE_MARK), 'utf8')) === key;
  } catch {
    return false;
  }
}

// Every directory and file to copy, parents first: links are followed (a pnpm store's, an install's linked
// packages), a link back to a directory it is in is not. Synchronous, as the copy is: thousands of small files,
// each an await on the thread pool, took ten times as long (15 s against cp's 1.3 s), and nothing else of the
// grader runs before its first program process, which waits for it.
function listSource(source: InstallSource): Entry[] {
  const entries: Entry[] = [];
  const walk = (from: string, to: string, above: Set<string>): void => {
    const stats = statSync(from);
    entries.push({ to, from, stats });
    if (!stats.isDirectory()) return;
    const id = `${stats.dev}:${stats.ino}`;
    if (above.has(id)) throw new Error(`${from} links to a directory it is in`);
    above.add(id);
    for (const name of readdirSync(from).sort()) walk(join(from, name), join(to, name), above);
    above.delete(id);
  };
  entries.push({ to: 'node_modules', from: source.modules, stats: statSync(source.modules) });
  for (const name of readdirSync(source.modules).sort()) {
    if (!SKIPPED_MODULES.has(name)) walk(join(source.modules, name), join('node_modules', name), new Set());
  }
  const pkg = join('node_modules', 'theinference');
  entries.push({ to: pkg, from: source.packageRoot, stats: statSync(source.packageRoot) });
  const made = new Set<string>();
  for (const file of [join(source.packageRoot, 'package.json'), ...source.files]) {
    if (!isInside(source.packageRoot, file) || file === source.packageRoot)
      throw new Error(`${file} is not inside the package ${source.packageRoot}`);
    const parts = relative(source.packageRoot, file).split(sep);
    // The directories on the way, as the package has them.
    for (let i = 1; i < parts.length; i += 1) {
      const dir = join(...parts.slice(0, i));
      if (made.has(dir)) continue;
      made.add(dir);
      entries.push({
        to: join(pkg, dir),
        from: join(source.packageRoot, dir),
        stats: statSync(join(source.packageRoot, dir)),
      });
    }
    walk(file, join(pkg, ...parts), new Set());
  }
  return entries;
}

// What names the copy: the grader package's version and the content of its files the copy holds, and of every
// runtime package's file its path, size, mode and times (its change time too, which no install can set: reading
// every byte of a hundred megabytes on each start would cost more than the copy's reuse saves).
function fingerprint(source: InstallSource, entries: Entry[]): string {
  const hash = createHash('sha256');
  hash.update(readFileSync(join(source.packageRoot, 'package.json')));
  const pkg = join('node_modules', 'theinference');
  for (const { to, from, stats } of entries) {
    hash.update(`\0${to}\0${stats.isDirectory() ? 'd' : 'f'}${stats.mode & 0o111 ? 'x' : ''}\0`);
    if (stats.isDirectory()) continue;
    if (isInside(pkg, to)) hash.update(readFileSync(from));
    else hash.update(`${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}:${stats.ino}`);
  }
  return hash.digest('hex');
}

// Copies the entries under `dir`: directories 0755, files 0644 (0755 when executable), whatever the umask.
function copyEntries(entries: Entry[], dir: string): void {
  for (const { to, from, stats } of entries) {
    const target = join(dir, to);
    if (stats.isDirectory()) {
      mkdirSync(target, { recursive: true });
      chmodSync(target, 0o755);
    } else if (stats.isFile()) {
      copyFileSync(from, target, constants.COPYFILE_FICLONE);
      chmodSync(target, stats.mode & 0o111 ? 0o755 : 0o644);
    } else {
      throw new Error(`${from} is neither a directory nor a regular file`);
    }
  }
}
