// Why a Claude Code call with an error result never ran: read from the words Claude Code wrote in its place.
import { describe, expect, it } from 'vitest';
import { notRunReason } from '../../../src/record/formats/claude-code-not-run.ts';

describe('notRunReason', () => {
  it.each([
    ["The user doesn't want to proceed with this tool use. The tool use was rejected.", 'rejected by the user'],
    [
      '<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>',
      'refused by Claude Code: the file was not read first',
    ],
    [
      '<tool_use_error>File has been modified since read, either by the user or by a linter. Read it again before attempting to write it.</tool_use_error>',
      'refused by Claude Code: the file changed since it was read',
    ],
    [
      'File content has changed since it was last read. This commonly happens when a linter or formatter run via Bash rewrites the file.',
      'refused by Claude Code: the file changed since it was read',
    ],
    [
      'File content (312.4KB) exceeds maximum allowed size (256KB). Please use offset and limit parameters to read specific portions of the file.',
      'refused by Claude Code: the file is too large to read at once',
    ],
  ])('%j -> %j', (content, reason) => {
    expect(notRunReason(content, false)).toBe(reason);
  });

  it.each([
    'Exit code 1\nnpm ERR! missing script: test',
    '<tool_use_error>String to replace not found in file.\nString: zzz</tool_use_error>',
    '<tool_use_error>File does not exist.</tool_use_error>',
  ])('a failure of the tool itself ran: %j', (content) => {
    expect(notRunReason(content, false)).toBeUndefined();
  });
});
