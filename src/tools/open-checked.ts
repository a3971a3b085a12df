import { constants } from 'node:fs';
import { open, realpath, stat, type FileHandle } from 'node:fs/promises';
import { fsFailure } from './fs-error.ts';
import { fail, isFailure } from './output.ts';
import { isInside } from './sandbox-path.ts';
import type { ToolOutput } from './types.ts';

// The sandbox check (sandbox-path.ts) looks at a path; the tool then opens it. A symlink swapped in between the
// two (by a bash command still running, say) would take the read or the write outside. So the file is checked
// again once it is open: the path must still resolve inside the sandbox, to the very file (same device and
// inode) that was opened. And nothing opened ever blocks: O_NONBLOCK makes a FIFO open at once, to be refused.

// What opening a FIFO or socket for writing says (ENXIO), worded as every other non-regular file is.
const NOT_REGULAR = { ENXIO: 'Not a regular file' };

// Opens a regular file for reading, or returns the error result; the caller closes the handle.
export function openToRead(root: string, absolute: string, path: string): Promise<FileHandle | ToolOutput> {
  return openChecked(root, absolute, path, constants.O_RDONLY);
}

// Writes `data` over a file (made when `create` is true), emptying it only once it is known to be the file
// checked; undefined when written, else the error result.
export async function writeChecked(
  root: string,
  absolute: string,
  path: string,
  data: Buffer | string,
  create = false,
): Promise<ToolOutput | undefined> {
  const handle = await openChecked(root, absolute, path, constants.O_WRONLY | (create ? constants.O_CREAT : 0));
  if (isFailure(handle)) return handle;
  try {
    await handle.truncate(0);
    await handle.writeFile(data);
    return undefined;
  } catch (error) {
    return fsFailure(error, path);
  } finally {
    await handle.close();
  }
}

async function openChecked(
  root: string,
  absolute: string,
  path: string,
  flags: number,
): Promise<FileHandle | ToolOutput> {
  let handle: FileHandle;
  try {
    handle = await open(absolute, flags | constants.O_NONBLOCK);
  } catch (error) {
    return fsFailure(error, path, NOT_REGULAR);
  }
  const refusal = await refuse(root, absolute, path, handle).catch((error: unknown) => fsFailure(error, path));
  if (refusal === undefined) return handle;
  await handle.close();
  return refusal;
}

// Why the opened file may not be used, if it may not.
async function refuse(
  root: string,
  absolute: string,
  path: string,
  handle: FileHandle,
): Promise<ToolOutput | undefined> {
  const opened = await handle.stat();
  const real = await realpath(absolute).catch(() => null);
  const named = real !== null && isInside(await realpath(root), real) ? await stat(real).catch(() => null) : null;
  if (named === null || named.dev !== opened.dev || named.ino !== opened.ino)
    return fail(`Path escapes workspace: ${path}`);
  if (opened.isDirectory()) return fail(`Is a directory: ${path}`);
  if (!opened.isFile()) return fail(`Not a regular file: ${path}`);
  return undefined;
}
