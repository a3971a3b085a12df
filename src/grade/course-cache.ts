// The grader's own files in a course directory: the case timings, the last type check. They live where build
// tools keep their caches, node_modules/.cache/theinference/, which a course's .gitignore already leaves out.
// Since the course directory is the student's, a file is read only when it is the grader's own: a regular file of
// this user's, of bounded size, reached through no link (node_modules, .cache, theinference and the file itself: a
// link is never followed, so a link cannot make the grader read or write anywhere else); anything else reads as
// no file. They only ever spare work or steer scheduling, never a verdict.
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { readAsDataSync } from '../course/read-as-data.ts';
import { writeAtomically } from '../course/snapshot-file.ts';

// The directories below the course directory that hold the files, outermost first.
const DIRS = ['node_modules', '.cache', 'theinference'];

// The cache file `name` of the course directory `dir`.
export function cachePath(dir: string, name: string): string {
  return join(dir, ...DIRS, name);
}

// The text of cache file `name` in `dir`, or undefined when there is none of the grader's (a link on the way, a
// file of another user, past `maxBytes`, not a regular file).
export function readCache(dir: string, name: string, maxBytes: number): string | undefined {
  if (!noLinkOnTheWay(dir)) return undefined;
  // Read as data: a FIFO, a socket or a device left at the file's name is never opened (a FIFO opened to read
  // waits for a writer forever, before the run has printed anything).
  const path = cachePath(dir, name);
  const read = readAsDataSync(path, maxBytes);
  if (typeof read === 'string') return undefined;
  try {
    return lstatSync(path).uid === process.getuid?.() ? read.data.toString('utf8') : undefined;
  } catch {
    return undefined;
  }
}

// Writes cache file `name` in `dir` whole or not at all; nothing when a link is on the way or the directory cannot
// be written: the next run just has no cache.
export async function writeCache(dir: string, name: string, text: string): Promise<void> {
  if (!noLinkOnTheWay(dir)) return;
  await writeAtomically(cachePath(dir, name), text).catch(() => undefined);
}

// Whether none of the directories that hold the files is a link (one that does not exist yet is none).
function noLinkOnTheWay(dir: string): boolean {
  let path = dir;
  for (const name of DIRS) {
    path = join(path, name);
    try {
      if (lstatSync(path).isSymbolicLink()) return false;
    } catch {
      return true;
    }
  }
  return true;
}
