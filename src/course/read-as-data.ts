// Reads one file of a submission the way the grader reads anything of it: as data. Never through a link (it could
// lead anywhere: /dev/zero, another course), never waiting on a FIFO, never opening a socket or a device (opening a
// device runs its driver's open: a terminal, a tape), never more than the caller can hold. The path is lstat'ed
// first, and opened only when it is a regular file; the open itself is non-blocking and refuses a link, and the
// open file must be the very file lstat saw, so a file swapped for a FIFO in between is still never waited on.
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, type Stats } from 'node:fs';
import { lstat, open } from 'node:fs/promises';

// The file's bytes and whether it is executable; 'missing' when nothing is there, 'not regular' for a link, a FIFO,
// a socket or a device, 'too large' past `maxBytes`.
export type ReadAsData = { data: Buffer; executable: boolean } | 'missing' | 'not regular' | 'too large';

const FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

// Reads `path` if it is a regular file of at most `maxBytes`.
export async function readAsData(path: string, maxBytes: number): Promise<ReadAsData> {
  const before = await lstat(path).catch((error: unknown) => missingOr(error));
  if (typeof before === 'string') return before;
  if (!before.isFile()) return 'not regular';
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, FLAGS);
  } catch (error) {
    return missingOr(error);
  }
  try {
    const info = await handle.stat();
    const checked = check(before, info, maxBytes);
    if (checked !== undefined) return checked;
    const data = await handle.readFile();
    return data.length > maxBytes ? 'too large' : { data, executable: (info.mode & 0o111) !== 0 };
  } finally {
    await handle.close();
  }
}

// readAsData, synchronously: for what is read before the CLI loads (src/cli/early-start.ts).
export function readAsDataSync(path: string, maxBytes: number): ReadAsData {
  let before: Stats;
  try {
    before = lstatSync(path);
  } catch (error) {
    return missingOr(error);
  }
  if (!before.isFile()) return 'not regular';
  let fd: number;
  try {
    fd = openSync(path, FLAGS);
  } catch (error) {
    return missingOr(error);
  }
  try {
    const info = fstatSync(fd);
    const checked = check(before, info, maxBytes);
    if (checked !== undefined) return checked;
    const data = readFileSync(fd);
    return data.length > maxBytes ? 'too large' : { data, executable: (info.mode & 0o111) !== 0 };
  } finally {
    closeSync(fd);
  }
}

// Why the open file is not to be read: not the regular file lstat saw, or past the size; undefined when it is.
function check(before: Stats, info: Stats, maxBytes: number): 'not regular' | 'too large' | undefined {
  if (!info.isFile() || info.ino !== before.ino || info.dev !== before.dev) return 'not regular';
  return info.size > maxBytes ? 'too large' : undefined;
}

function missingOr(error: unknown): 'missing' | 'not regular' {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : 'not regular';
}
