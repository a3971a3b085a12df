import { stat } from 'node:fs/promises';
import { nonEmpty, optionalString, requireString } from './arguments.ts';
import { findEntries } from './find-entries.ts';
import { fsFailure } from './fs-error.ts';
import { fail, isFailure } from './output.ts';
import { sandboxPath } from './sandbox-path.ts';
import { byCodePoint } from './text-limit.ts';
import type { ToolOutput } from './types.ts';

// `Glob` / `glob`: files (and symlinks, unfollowed) under a directory matching a pattern, relative to it.
export async function glob(root: string, rawPattern: unknown, rawPath: unknown): Promise<ToolOutput> {
  const given = requireString(rawPattern, 'pattern');
  if (isFailure(given)) return given;
  const pattern = nonEmpty(given, 'pattern');
  if (isFailure(pattern)) return pattern;
  const path = optionalString(rawPath, 'path');
  if (isFailure(path)) return path;
  const shown = path ?? '.';
  const directory = await sandboxPath(root, shown);
  if (isFailure(directory)) return directory;

  const stats = await stat(directory).catch((error: unknown) =>
    fsFailure(error, shown, { ENOENT: 'Path not found', ENOTDIR: 'Path not found' }),
  );
  if (isFailure(stats)) return stats;
  if (!stats.isDirectory()) return fail(`Not a directory: ${shown}`);
  const entries = await findEntries(root, directory, pattern, { baseNameMatch: false });
  if (entries === null) return fail(`Path escapes workspace: ${pattern}`);
  const files = entries.filter((entry) => !entry.isDirectory).map((entry) => entry.path);
  return { content: files.length === 0 ? 'No files found' : files.sort(byCodePoint).join('\n') };
}
