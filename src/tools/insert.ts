import { asJson, isMissing, requireString } from './arguments.ts';
import { countLines, lineTally, offsetAfterLine } from './lines.ts';
import { writeChecked } from './open-checked.ts';
import { fail, isFailure } from './output.ts';
import { readRegularFile } from './read-regular-file.ts';
import { sandboxPath } from './sandbox-path.ts';
import type { ToolOutput } from './types.ts';

// `insert`: puts text on its own line(s) after line N (0 = the top), leaving every other byte as it was.
export async function insert(root: string, rawPath: unknown, rawLine: unknown, rawText: unknown): Promise<ToolOutput> {
  const path = requireString(rawPath, 'path');
  if (isFailure(path)) return path;
  const line = wholeNumber(rawLine);
  if (isFailure(line)) return line;
  const text = requireString(rawText, 'insert_text');
  if (isFailure(text)) return text;
  const absolute = await sandboxPath(root, path);
  if (isFailure(absolute)) return absolute;
  const bytes = await readRegularFile(root, absolute, path);
  if (isFailure(bytes)) return bytes;

  const lineCount = countLines(bytes);
  if (line < 0 || line > lineCount) {
    return fail(
      `Invalid insert_line ${line}: must be between 0 and ${lineCount} (the file has ${lineTally(lineCount)})`,
    );
  }
  // After a last line with no newline, the newline goes before the text, so the text starts a line of its own.
  const unterminated = line === lineCount && lineCount > 0 && bytes[bytes.length - 1] !== 0x0a;
  const piece = unterminated ? `\n${text}` : text.endsWith('\n') ? text : `${text}\n`;
  const at = offsetAfterLine(bytes, line);
  const edited = Buffer.concat([bytes.subarray(0, at), Buffer.from(piece), bytes.subarray(at)]);
  return (
    (await writeChecked(root, absolute, path, edited)) ?? { content: `Inserted text after line ${line} of ${path}` }
  );
}

function wholeNumber(value: unknown): number | ToolOutput {
  if (isMissing(value)) return fail("Missing required parameter 'insert_line'");
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  return fail(`Invalid parameter 'insert_line': expected a whole number, got ${asJson(value)}`);
}
