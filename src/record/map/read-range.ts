// Claude Code's `Read {offset, limit}` as the course's `view_range`. Claude Code counts lines by splitting on `\n`,
// so a file ending in a newline has a last, empty "phantom" line (`a\n` is 2 lines to it, 1 to the course), reads
// at most 2,000 lines when no limit is given, and lets offset + limit run past the end. The course's view refuses
// an end past the last line, so a range that reaches Claude Code's last line becomes `[start, -1]`.

// Lines Claude Code's Read shows when the call sets no limit.
export const READ_DEFAULT_LIMIT = 2000;

// What the recording shows of the read: the number of its last shown line, and Claude Code's own line count
// (`toolUseResult.file.totalLines`) when the transcript kept it.
export type ReadShown = { lastLine?: number; totalLines?: number };

// The view_range for a Read, or undefined for the whole file.
export function viewRangeFor(offset: unknown, limit: unknown, shown: ReadShown): [number, number] | undefined {
  const start = isWhole(offset) && offset > 1 ? offset : 1;
  const count = isWhole(limit) && limit > 0 ? limit : READ_DEFAULT_LIMIT;
  const end = start + count - 1;
  const reachesEnd =
    shown.totalLines !== undefined ? end >= shown.totalLines : shown.lastLine === undefined || shown.lastLine < end;
  if (reachesEnd) return start === 1 ? undefined : [start, -1];
  return [start, end];
}

function isWhole(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value);
}
