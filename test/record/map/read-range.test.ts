// Claude Code's Read {offset, limit} as a view_range, checked against Claude Code's own line counting in the real
// transcripts: for every Read whose toolUseResult says which lines it showed (startLine, numLines) out of how many
// (totalLines, which counts a last, empty line after a final newline), the course's view_range must show the same
// lines: the same first line, and the same last one, or -1 exactly when Claude Code read to its last line.
import { describe, expect, it, beforeEach } from 'vitest';
import { importTranscript } from '../../../src/record/import-transcript.ts';
import { READ_DEFAULT_LIMIT, viewRangeFor } from '../../../src/record/map/read-range.ts';
import { hasSharedTranscripts, imported, shared, needsSharedTranscripts } from '../formats/transcript-files.ts';

type FileDetails = { startLine: number; numLines: number; totalLines: number };

describe('viewRangeFor', () => {
  it.each([
    [undefined, undefined, { totalLines: 10 }, undefined],
    [undefined, undefined, { totalLines: 3000 }, [1, READ_DEFAULT_LIMIT]],
    [5, undefined, { totalLines: 10 }, [5, -1]],
    [5, 3, { totalLines: 10 }, [5, 7]],
    [5, 6, { totalLines: 10 }, [5, -1]],
    [0, 3, { totalLines: 10 }, [1, 3]],
    [5, 3, { lastLine: 7 }, [5, 7]],
    [5, 3, { lastLine: 6 }, [5, -1]],
    [5, 3, {}, [5, -1]],
  ])('offset %j, limit %j, shown %j -> %j', (offset, limit, shown, expected) => {
    expect(viewRangeFor(offset, limit, shown)).toEqual(expected);
  });
});

describe('viewRangeFor on every recorded Read with offset or limit', async () => {
  beforeEach(needsSharedTranscripts);
  // A skipped describe still runs its body to collect the tests: without ../shared there is nothing to read.
  const calls = hasSharedTranscripts
    ? imported(await importTranscript(shared('claude-code/spotter/fa812bfe-b295-4cca-9c2f-fdf01028cb46.jsonl'))).calls
    : [];
  const reads = calls.filter((c) => {
    const file = (c.result?.details as { file?: FileDetails } | undefined)?.file;
    return (
      c.name === 'Read' &&
      file?.totalLines !== undefined &&
      (c.input?.offset !== undefined || c.input?.limit !== undefined)
    );
  });

  it('finds the partial Reads of the spotter session', () => {
    expect(reads.length).toBeGreaterThanOrEqual(5);
  });

  it.each(reads.map((c) => [c.id, c] as const))('%s shows the lines Claude Code showed', (_, c) => {
    const file = (c.result!.details as { file: FileDetails }).file;
    const range = viewRangeFor(c.input?.offset, c.input?.limit, { totalLines: file.totalLines });
    const lastShown = file.startLine + file.numLines - 1;
    expect(range?.[0] ?? 1).toBe(file.startLine);
    if (range === undefined || range[1] === -1) expect(lastShown).toBe(file.totalLines);
    else {
      expect(range[1]).toBe(lastShown);
      expect(range[1]).toBeLessThan(file.totalLines);
    }
  });
});
