import { mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { requireString } from './arguments.ts';
import { fsFailure } from './fs-error.ts';
import { writeChecked } from './open-checked.ts';
import { fail, isFailure } from './output.ts';
import { sandboxPath } from './sandbox-path.ts';
import type { ToolOutput } from './types.ts';

// A file (or a parent) in the way of a new file's directories.
const PARENT_IS_A_FILE = { ENOTDIR: 'Not a directory', EEXIST: 'Not a directory' };

// `Write` / `create`: writes the text as is, creating parent directories and overwriting an existing file.
export async function create(root: string, rawPath: unknown, rawText: unknown): Promise<ToolOutput> {
  const path = requireString(rawPath, 'path');
  if (isFailure(path)) return path;
  const text = requireString(rawText, 'file_text');
  if (isFailure(text)) return text;
  const absolute = await sandboxPath(root, path);
  if (isFailure(absolute)) return absolute;

  const existing = await stat(absolute).catch((error: unknown) =>
    (error as NodeJS.ErrnoException).code === 'ENOENT' ? null : fsFailure(error, path, PARENT_IS_A_FILE),
  );
  if (isFailure(existing)) return existing;
  if (existing?.isDirectory()) return fail(`Is a directory: ${path}`);
  // Writing to a FIFO would wait for a reader forever.
  if (existing && !existing.isFile()) return fail(`Not a regular file: ${path}`);
  try {
    await mkdir(dirname(absolute), { recursive: true });
  } catch (error) {
    return fsFailure(error, path, PARENT_IS_A_FILE);
  }
  const written = await writeChecked(root, absolute, path, text, true);
  return written ?? { content: `File ${existing ? 'overwritten' : 'created'} successfully at: ${path}` };
}
