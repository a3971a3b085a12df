import { asJson, isMissing } from './arguments.ts';
import { fail } from './output.ts';
import { lineTally } from './lines.ts';
import type { ToolOutput } from './types.ts';

// A view_range as sent: `[start, end]`, 1-based inclusive, end -1 meaning the last line.
export type ViewRange = { start: number; end: number };

// Checks the shape of a view_range before the file is read: absent, or two whole numbers.
export function parseViewRange(value: unknown): ViewRange | undefined | ToolOutput {
  if (isMissing(value)) return undefined;
  if (Array.isArray(value) && value.length === 2 && value.every((n) => Number.isInteger(n))) {
    return { start: value[0] as number, end: value[1] as number };
  }
  return fail(`Invalid view_range: expected [start, end] with whole numbers, got ${asJson(value)}`);
}

// The last line a range asks for, once the file's line count is known; or the error saying which bound is wrong.
export function lastLineOf(range: ViewRange, lineCount: number): number | ToolOutput {
  const { start, end } = range;
  if (start < 1 || start > lineCount) {
    return fail(
      `Invalid view_range [${start}, ${end}]: start must be between 1 and ${lineCount} (the file has ${lineTally(lineCount)})`,
    );
  }
  if (end === -1) return lineCount;
  if (end < start || end > lineCount) {
    return fail(
      `Invalid view_range [${start}, ${end}]: end must be between ${start} and ${lineCount}, or -1 for the end of the file`,
    );
  }
  return end;
}
