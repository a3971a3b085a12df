import { stat } from 'node:fs/promises';
import { relative, resolve, sep } from 'node:path';
import { nonEmpty, optionalString, requireString } from './arguments.ts';
import { findEntries } from './find-entries.ts';
import { fsFailure } from './fs-error.ts';
import { splitLines } from './lines.ts';
import { fail, isFailure } from './output.ts';
import { readRegularFile } from './read-regular-file.ts';
import { sandboxPath } from './sandbox-path.ts';
import { byCodePoint } from './text-limit.ts';
import type { ToolOutput } from './types.ts';

// `Grep` / `grep`: every line matching a JavaScript regex, as `file:line: text` with file relative to the
// sandbox root, so that view opens it as printed.
export async function grep(root: string, rawPattern: unknown, rawPath: unknown, rawGlob: unknown): Promise<ToolOutput> {
  const pattern = requireString(rawPattern, 'pattern');
  if (isFailure(pattern)) return pattern;
  const path = optionalString(rawPath, 'path');
  if (isFailure(path)) return path;
  const given = optionalString(rawGlob, 'glob');
  if (isFailure(given)) return given;
  const filter = given === undefined ? undefined : nonEmpty(given, 'glob');
  if (isFailure(filter)) return filter;
  const regex = compile(pattern);
  if (isFailure(regex)) return regex;
  const shown = path ?? '.';
  const target = await sandboxPath(root, shown);
  if (isFailure(target)) return target;

  const stats = await stat(target).catch((error: unknown) =>
    fsFailure(error, shown, { ENOENT: 'Path not found', ENOTDIR: 'Path not found' }),
  );
  if (isFailure(stats)) return stats;
  let files: string[];
  if (stats.isDirectory()) {
    const entries = await findEntries(root, target, filter ?? '**', { baseNameMatch: true });
    if (entries === null) return fail(`Path escapes workspace: ${filter ?? '**'}`);
    files = entries.filter((entry) => entry.isFile).map((entry) => resolve(target, entry.path));
  } else {
    // A file named by `path` is searched whatever the filter says, as when it is named to ripgrep.
    files = stats.isFile() ? [target] : [];
  }

  const matches: string[] = [];
  const named = files.map((file) => ({ file, name: relative(root, file).split(sep).join('/') }));
  for (const { file, name } of named.sort((a, b) => byCodePoint(a.name, b.name))) {
    const bytes = await readRegularFile(root, file, name);
    if (isFailure(bytes) || bytes.includes(0)) continue;
    splitLines(bytes.toString('utf8')).forEach((line, i) => {
      if (regex.test(line)) matches.push(`${name}:${i + 1}: ${line}`);
    });
  }
  return { content: matches.length === 0 ? 'No matches found' : matches.join('\n') };
}

function compile(pattern: string): RegExp | ToolOutput {
  try {
    return new RegExp(pattern);
  } catch (error) {
    return fail(`Invalid regex: ${(error as Error).message}`);
  }
}
