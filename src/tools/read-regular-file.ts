import { readFile, stat } from 'node:fs/promises';
import { fsFailure } from './fs-error.ts';
import { fail } from './output.ts';
import type { ToolOutput } from './types.ts';

// The bytes of a regular file, or the error for a missing path, a directory or anything else (a FIFO would
// block a read forever). `path` is the path as the model sent it, for the message.
export async function readRegularFile(absolute: string, path: string): Promise<Buffer | ToolOutput> {
  try {
    const stats = await stat(absolute);
    if (stats.isDirectory()) return fail(`Is a directory: ${path}`);
    if (!stats.isFile()) return fail(`Not a regular file: ${path}`);
    return await readFile(absolute);
  } catch (error) {
    return fsFailure(error, path);
  }
}
