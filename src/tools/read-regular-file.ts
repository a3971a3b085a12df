import { fsFailure } from './fs-error.ts';
import { openToRead } from './open-checked.ts';
import { isFailure } from './output.ts';
import type { ToolOutput } from './types.ts';

// The bytes of a regular file in the sandbox, or the error for a missing path, a directory or anything else (a
// FIFO would block a read forever), or for a file that is not the one checked (open-checked.ts). `path` is the
// path as the model sent it, for the message.
export async function readRegularFile(root: string, absolute: string, path: string): Promise<Buffer | ToolOutput> {
  const handle = await openToRead(root, absolute, path);
  if (isFailure(handle)) return handle;
  try {
    return await handle.readFile();
  } catch (error) {
    return fsFailure(error, path);
  } finally {
    await handle.close();
  }
}
