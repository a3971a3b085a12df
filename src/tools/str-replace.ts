import { nonEmpty, optionalString, requireString } from './arguments.ts';
import { lineAt } from './lines.ts';
import { writeChecked } from './open-checked.ts';
import { fail, isFailure } from './output.ts';
import { readRegularFile } from './read-regular-file.ts';
import { sandboxPath } from './sandbox-path.ts';
import type { ToolOutput } from './types.ts';

// `Edit` / `str_replace`: replaces the one literal occurrence of old_str. Works on bytes, so the rest of
// the file is written back exactly as it was, whatever its encoding.
export async function strReplace(
  root: string,
  rawPath: unknown,
  rawOld: unknown,
  rawNew: unknown,
): Promise<ToolOutput> {
  const path = requireString(rawPath, 'path');
  if (isFailure(path)) return path;
  const given = requireString(rawOld, 'old_str');
  if (isFailure(given)) return given;
  const oldStr = nonEmpty(given, 'old_str');
  if (isFailure(oldStr)) return oldStr;
  const newStr = optionalString(rawNew, 'new_str');
  if (isFailure(newStr)) return newStr;
  const absolute = await sandboxPath(root, path);
  if (isFailure(absolute)) return absolute;
  const bytes = await readRegularFile(root, absolute, path);
  if (isFailure(bytes)) return bytes;

  const needle = Buffer.from(oldStr);
  const offsets = occurrences(bytes, needle);
  const [offset] = offsets;
  if (offset === undefined) {
    return fail(`No replacement was performed: old_str did not appear verbatim in ${path}`);
  }
  if (offsets.length > 1) {
    const lines = offsets.map((at) => lineAt(bytes, at)).join(', ');
    return fail(
      `No replacement was performed: old_str appears ${offsets.length} times in ${path}, on lines ${lines}; ` +
        'include more context to make it unique',
    );
  }
  const edited = Buffer.concat([
    bytes.subarray(0, offset),
    Buffer.from(newStr ?? ''),
    bytes.subarray(offset + needle.length),
  ]);
  return (await writeChecked(root, absolute, path, edited)) ?? { content: `The file ${path} has been edited.` };
}

// Start offsets of the non-overlapping occurrences of `needle`, left to right.
function occurrences(haystack: Buffer, needle: Buffer): number[] {
  const found: number[] = [];
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) found.push(at);
  return found;
}
