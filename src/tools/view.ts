import { stat } from 'node:fs/promises';
import { requireString } from './arguments.ts';
import { fsFailure } from './fs-error.ts';
import { splitLines } from './lines.ts';
import { fail, isFailure } from './output.ts';
import { readRegularFile } from './read-regular-file.ts';
import { sandboxPath } from './sandbox-path.ts';
import { cut } from './text-limit.ts';
import type { ToolOutput } from './types.ts';
import { listDirectory } from './view-directory.ts';
import { lastLineOf, parseViewRange } from './view-range.ts';

// The lesson's read limit: about 15K tokens, safe for any context window.
export const VIEW_LIMIT = 50_000;

// `Read` / `view`: a file as numbered lines (optionally a range of them), or a directory listing.
export async function view(root: string, rawPath: unknown, rawRange: unknown): Promise<ToolOutput> {
  const path = requireString(rawPath, 'path');
  if (isFailure(path)) return path;
  const range = parseViewRange(rawRange);
  if (isFailure(range)) return range;
  const absolute = await sandboxPath(root, path);
  if (isFailure(absolute)) return absolute;

  const stats = await stat(absolute).catch((error: unknown) => fsFailure(error, path));
  if (isFailure(stats)) return stats;
  if (stats.isDirectory()) {
    if (range !== undefined) return fail(`view_range is not allowed when path is a directory: ${path}`);
    return listDirectory(absolute).then(
      (content) => ({ content }),
      (error: unknown) => fsFailure(error, path),
    );
  }
  const bytes = await readRegularFile(root, absolute, path);
  if (isFailure(bytes)) return bytes;
  if (bytes.includes(0)) return fail(`Cannot display binary file: ${path}`);
  if (bytes.length === 0) return { content: '(empty file)' };

  const lines = splitLines(bytes.toString('utf8'));
  const first = range?.start ?? 1;
  const last = range === undefined ? lines.length : lastLineOf(range, lines.length);
  if (isFailure(last)) return last;
  return { content: numberLines(lines, first, last) };
}

// Lines first..last as `N: line`, cut to the limit at a line boundary with a notice saying how to read on.
function numberLines(lines: string[], first: number, last: number): string {
  const shown: string[] = [];
  let length = -1; // the first line has no `\n` before it
  for (let n = first; n <= last; n++) {
    const numbered = `${n}: ${lines[n - 1] ?? ''}`;
    length += numbered.length + 1;
    if (length <= VIEW_LIMIT) {
      shown.push(numbered);
    } else if (n === first) {
      return `${cut(numbered, VIEW_LIMIT)}\n[truncated: line ${n} of ${lines.length} was cut at ${VIEW_LIMIT} characters]`;
    } else {
      const rest = `call view with view_range [${n}, ${last}] to read the rest`;
      return `${shown.join('\n')}\n[truncated: showing lines ${first}-${n - 1} of ${lines.length}; ${rest}]`;
    }
  }
  return shown.join('\n');
}
