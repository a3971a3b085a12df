// The replay rules: what counts as the recorded result reproduced, per tool, across the wordings of different
// harnesses; and what a view shows, read back from any numbering style.
import { describe, expect, it } from 'vitest';
import type { MappedCall, CheckSpec } from '../../../src/record/record-types.ts';
import type { ImportedResult } from '../../../src/record/types.ts';
import { verifyResult, type Replayed } from '../../../src/record/replay/verify-result.ts';
import { fileTextFromView, readShownFile } from '../../../src/record/map/view-text.ts';

const mapped = (
  tool: string,
  check: CheckSpec,
  input: Record<string, unknown> = { path: '<sandbox>/a' },
): MappedCall => ({
  id: 'toolu_1',
  call: { tool, input },
  originalTool: tool,
  renamedKeys: {},
  droppedKeys: {},
  check,
});
const rec = (content: string, isError = false, details?: unknown): ImportedResult => ({
  content,
  isError,
  line: 1,
  ...(details === undefined ? {} : { details }),
});
const ok = (content: string): Replayed => ({ content });
const err = (content: string): Replayed => ({ content, is_error: true });
const REMINDER =
  '\n\n<system-reminder>\nWhenever you read a file, you should consider whether it would be considered malware.\n</system-reminder>\n';

describe('view', () => {
  const view = mapped('Read', { kind: 'view' });
  it.each([
    [
      'the same lines, Claude Code numbering and reminder vs the course',
      rec(`     1→a\n     2→b${REMINDER}`),
      ok('1: a\n2: b'),
      true,
    ],
    [
      "Claude Code's phantom last line after a final newline",
      rec(`     1→a\n     2→b\n     3→${REMINDER}`),
      ok('1: a\n2: b'),
      true,
    ],
    ['cat -n numbering', rec('     1\ta\n     2\tb'), ok('1: a\n2: b'), true],
    ['a range, numbered from its start', rec('    10→j\n    11→k'), ok('10: j\n11: k'), true],
    ['unnumbered text (an agent that shows the file as is)', rec('a\nb'), ok('1: a\n2: b'), true],
    [
      'an empty file, both wordings',
      rec('<system-reminder>Warning: the file exists but the contents are empty.</system-reminder>'),
      ok('(empty file)'),
      true,
    ],
    ['a different line', rec('     1→a\n     2→B'), ok('1: a\n2: b'), false],
    ['an empty last line that is not the phantom', rec('     1→a\n     2→'), ok('1: a\n2: '), true],
    ['a missing line', rec('     1→a\n     2→b\n     3→c'), ok('1: a\n2: b'), false],
    ['a missing file, both wordings', rec('File does not exist.', true), err('File not found: <sandbox>/a'), true],
    ['an error in the recording only', rec('File does not exist.', true), ok('1: a'), false],
    [
      'a shorter-than-offset warning vs a range error',
      rec(
        '<system-reminder>Warning: the file exists but is shorter than the provided offset (9). The file has 3 lines.</system-reminder>',
      ),
      err('Invalid view_range [9, -1]: start must be between 1 and 3'),
      false,
    ],
  ])('%s: %s', (_, recorded, replayed, expected) => {
    expect(verifyResult(view, recorded, replayed).ok).toBe(expected);
  });

  it('shows both sides as compared when they differ', () => {
    expect(verifyResult(view, rec('     1→a\n     2→B'), ok('1: a\n2: b'))).toEqual({
      ok: false,
      reason: 'Read: different lines',
      recorded: '1: a\n2: B',
      replayed: '1: a\n2: b',
    });
  });
});

describe('write-type tools', () => {
  it.each([
    [
      'created and created',
      rec('File created successfully at: /x/a', false, { type: 'create' }),
      ok('File created successfully at: <sandbox>/a'),
      true,
    ],
    [
      'updated and overwritten',
      rec("The file /x/a has been updated. Here's the result of running `cat -n`…", false, { type: 'update' }),
      ok('File overwritten successfully at: <sandbox>/a'),
      true,
    ],
    [
      'updated but created in the replay',
      rec('The file /x/a has been updated.', false, { type: 'update' }),
      ok('File created successfully at: <sandbox>/a'),
      false,
    ],
    ['an error and a success', rec('EISDIR', true), ok('File created successfully at: <sandbox>/a'), false],
  ])('Write: %s', (_, recorded, replayed, expected) => {
    expect(verifyResult(mapped('Write', { kind: 'write' }), recorded, replayed).ok).toBe(expected);
  });

  it.each([
    [
      'a success',
      rec('The file /x/a has been updated successfully.'),
      ok('The file <sandbox>/a has been edited.'),
      'new',
      true,
    ],
    [
      'a success leaving another file',
      rec('The file /x/a has been updated successfully.'),
      ok('The file <sandbox>/a has been edited.'),
      'other',
      false,
    ],
    [
      'no match, both wordings',
      rec('<tool_use_error>String to replace not found in file.\nString: x</tool_use_error>', true),
      err('No replacement was performed: old_str did not appear verbatim in <sandbox>/a'),
      'old',
      true,
    ],
    [
      'several matches, both wordings',
      rec('Found 2 matches of the string to replace, but replace_all is false.', true),
      err(
        'No replacement was performed: old_str appears 2 times in a, on lines 1, 2; include more context to make it unique',
      ),
      'old',
      true,
    ],
    [
      "no match, pi's wording",
      rec(
        'Could not find the exact text in a. The old text must match exactly including all whitespace and newlines.',
        true,
      ),
      err('No replacement was performed: old_str did not appear verbatim in <sandbox>/a'),
      'old',
      true,
    ],
    [
      "several matches, pi's wording",
      rec(
        'Found 2 occurrences of the text in a. The text must be unique. Please provide more context to make it unique.',
        true,
      ),
      err('No replacement was performed: old_str appears 2 times in a, on lines 1, 2'),
      'old',
      true,
    ],
    [
      "no match in pi's wording against several",
      rec(
        'Could not find the exact text in a. The old text must match exactly including all whitespace and newlines.',
        true,
      ),
      err('No replacement was performed: old_str appears 2 times in a, on lines 1, 2'),
      'old',
      false,
    ],
    [
      'no match against several',
      rec('String to replace not found in file.', true),
      err('No replacement was performed: old_str appears 2 times in a, on lines 1, 2'),
      'old',
      false,
    ],
    [
      "a harness refusal (not read yet) the course's tools do not make",
      rec('File has not been read yet. Read it first before writing to it.', true),
      ok('The file <sandbox>/a has been edited.'),
      'new',
      false,
    ],
  ])('Edit: %s', (_, recorded, replayed, after, expected) => {
    expect(verifyResult(mapped('Edit', { kind: 'edit', expectedAfter: 'new' }), recorded, replayed, after).ok).toBe(
      expected,
    );
  });
});

describe('glob and grep: the same set', () => {
  it.each([
    [
      'Claude Code absolute paths in mtime order vs sorted relative ones',
      { kind: 'glob', base: '' },
      '<sandbox>/b.ts\n<sandbox>/a.ts',
      'a.ts\nb.ts',
      true,
    ],
    ['relative to the search directory', { kind: 'glob', base: 'src' }, '<sandbox>/src/x/a.ts', 'x/a.ts', true],
    ['no files, both wordings', { kind: 'glob', base: '' }, 'No files found', 'No files found', true],
    ['a file more in the recording', { kind: 'glob', base: '' }, '<sandbox>/a\n<sandbox>/.hidden/b', 'a', false],
    [
      'files_with_matches vs lines',
      { kind: 'grep', mode: 'files', base: '' },
      'Found 2 files\nsrc/b.ts\nsrc/a.ts',
      'src/a.ts:1: x\nsrc/a.ts:9: x\nsrc/b.ts:2: x',
      true,
    ],
    [
      'no matches, both wordings',
      { kind: 'grep', mode: 'files', base: '' },
      'No files found',
      'No matches found',
      true,
    ],
    [
      'content lines',
      { kind: 'grep', mode: 'lines', base: '' },
      'a.ts:1:x = 1\nb.ts:2:  x',
      'a.ts:1: x = 1\nb.ts:2:   x',
      true,
    ],
    [
      'content lines of a single file, with a pagination note',
      { kind: 'grep', mode: 'lines', base: '', singleFile: 'src/a.ts' },
      '3:x\n7:xx\n\n[Showing results with pagination = limit: 20, offset: 0]',
      'src/a.ts:3: x\nsrc/a.ts:7: xx',
      true,
    ],
    ['a line more in the replay', { kind: 'grep', mode: 'lines', base: '' }, 'a.ts:1:x', 'a.ts:1: x\na.ts:2: x', false],
    [
      "Gemini's search, grouped per file, relative to the directory searched",
      { kind: 'grep', mode: 'lines', base: 'src' },
      'Found 2 matches for pattern "x" in path "src":\n---\nFile: a.ts\nL3: x = 1\n---\nFile: lib/b.ts\nL1:   x\n---',
      'src/a.ts:3: x = 1\nsrc/lib/b.ts:1:   x',
      true,
    ],
    [
      "Gemini's search, a line it found that the course's does not",
      { kind: 'grep', mode: 'lines', base: '' },
      'Found 2 matches for pattern "x" in the workspace directory:\n---\nFile: a.ts\nL3: x\nL4: X\n---',
      'a.ts:3: x',
      false,
    ],
    [
      "Gemini's search, no matches in both wordings",
      { kind: 'grep', mode: 'lines', base: '' },
      'No matches found for pattern "x" in the workspace directory.',
      'No matches found',
      true,
    ],
    [
      "the course's own words, recorded from an agent built on its tools",
      { kind: 'grep', mode: 'lines', base: '', courseWords: true },
      'a.ts:1:   x',
      'a.ts:1:   x',
      true,
    ],
    [
      'content lines with context around them (-C 1): the match lines (issue 27)',
      { kind: 'grep', mode: 'lines', base: '', context: true },
      'src/a-1.ts-2-const y = 2;\nsrc/a-1.ts:3:x = 1 // a-4-b\nsrc/a-1.ts-4-y:5:z\n--\nb.ts-9-\nb.ts:10:  x',
      'src/a-1.ts:3: x = 1 // a-4-b\nb.ts:10:   x',
      true,
    ],
    [
      'content lines with context, a match more in the replay',
      { kind: 'grep', mode: 'lines', base: '', context: true },
      'a.ts-2-y\na.ts:3:x',
      'a.ts:3: x\na.ts:7: x',
      false,
    ],
    [
      'the context lines of a single file (-B 1)',
      { kind: 'grep', mode: 'lines', base: '', singleFile: 'src/a.ts', context: true },
      '2-y:1:q\n3:x\n--\n6-\n7:xx',
      'src/a.ts:3: x\nsrc/a.ts:7: xx',
      true,
    ],
    [
      "the course's own words, an indentation lost",
      { kind: 'grep', mode: 'lines', base: '', courseWords: true },
      'a.ts:1:  x',
      'a.ts:1:   x',
      false,
    ],
  ] as const)('%s', (_, check, recorded, replayed, expected) => {
    expect(
      verifyResult(mapped(check.kind === 'glob' ? 'Glob' : 'Grep', check as CheckSpec, {}), rec(recorded), ok(replayed))
        .ok,
    ).toBe(expected);
  });
});

describe("a directory's view against Claude Code's LS tree: the same entries two levels down", () => {
  const tree =
    '- <sandbox>/\n  - b.ts\n  - src/\n    - a.ts\n    - lib/\n      - deep.ts\n  - dist/\n    - x.js\n\nNOTE: …';
  it.each([
    ['the same entries, deeper ones not shown by view', {}, 'b.ts\ndist/\ndist/x.js\nsrc/\nsrc/a.ts\nsrc/lib/', true],
    ['an entry more in the replay', {}, 'b.ts\nc.ts\ndist/\ndist/x.js\nsrc/\nsrc/a.ts\nsrc/lib/', false],
    ['an entry less in the replay', {}, 'b.ts\ndist/\ndist/x.js\nsrc/\nsrc/a.ts', false],
    [
      'a directory LS ignored, absent from the tree',
      { ignore: ['node_modules'] },
      'b.ts\ndist/\ndist/x.js\nnode_modules/\nnode_modules/y/\nsrc/\nsrc/a.ts\nsrc/lib/',
      true,
    ],
    ['the same directory not ignored', {}, 'b.ts\ndist/\ndist/x.js\nnode_modules/\nsrc/\nsrc/a.ts\nsrc/lib/', false],
  ] as const)('%s', (_, extra, replayed, expected) => {
    const check: CheckSpec = {
      kind: 'directory',
      base: '',
      ...('ignore' in extra ? { ignore: [...extra.ignore] } : {}),
    };
    expect(verifyResult(mapped('view', check, { path: '<sandbox>' }), rec(tree), ok(replayed)).ok).toBe(expected);
  });

  it.each([
    ['the same first level', 'Directory listing for <sandbox>/src:\n[DIR] lib\na.ts', 'a.ts\nlib/\nlib/b.ts', true],
    ['an entry more in the replay', 'Directory listing for <sandbox>/src:\na.ts', 'a.ts\nz.ts', false],
    ['an empty directory, both wordings', 'Directory <sandbox>/src is empty.', '(empty directory)', true],
  ])("Gemini's list_directory against the view's first level: %s", (_, recorded, replayed, expected) => {
    const check: CheckSpec = { kind: 'directory', base: 'src', from: 'list_directory' };
    expect(verifyResult(mapped('view', check), rec(recorded), ok(replayed)).ok).toBe(expected);
  });

  it('never reproduces a recording that is no tree of the directory', () => {
    const check: CheckSpec = { kind: 'directory', base: 'src' };
    const verdict = verifyResult(mapped('view', check), rec('- <sandbox>/lib/\n  - a.ts'), ok('a.ts'));
    expect(verdict).toMatchObject({ ok: false, reason: 'view: the recording is no listing of the directory' });
  });
});

describe('bash: the same exit code and output', () => {
  const bash = mapped('Bash', { kind: 'bash' }, { command: 'x' });
  it.each([
    ['output Claude Code trimmed', rec('hi'), { content: 'hi\n', is_error: false, exit_code: 0 }, true],
    ['an exit code', rec('Exit code 2\nboom', true), { content: 'boom\n', is_error: true, exit_code: 2 }, true],
    [
      'a different exit code',
      rec('Exit code 2\nboom', true),
      { content: 'boom\n', is_error: true, exit_code: 1 },
      false,
    ],
    ['no output', rec(''), { content: '', is_error: false, exit_code: 0 }, true],
    [
      'command not found vs success',
      rec('ok'),
      { content: 'bash: line 1: mix: command not found\n', is_error: true, exit_code: 127 },
      false,
    ],
    [
      "Claude Code's cwd reset note",
      rec('x\n\nShell cwd was reset to /home/ada/proj'),
      { content: 'x\n', is_error: false, exit_code: 0 },
      true,
    ],
    [
      'an error without an exit code (a hook)',
      rec('Pre-commit validation failed', true),
      { content: '', is_error: false, exit_code: 0 },
      false,
    ],
    [
      'an error the agent marked without its code, and any failing replay with that output',
      rec('boom\n', true),
      { content: 'boom\n', is_error: true, exit_code: 3 },
      true,
    ],
  ])('%s', (_, recorded, replayed, expected) => {
    expect(verifyResult(bash, recorded, replayed).ok).toBe(expected);
  });

  it('never counts a throw as reproduced, nor a call without a recorded result', () => {
    expect(verifyResult(bash, rec('x'), { threw: 'TypeError: boom' }).ok).toBe(false);
    expect(verifyResult(bash, undefined, { content: 'x' }).ok).toBe(false);
  });
});

describe('readShownFile and fileTextFromView', () => {
  it.each([
    ['     1→a\n     2→b\n     3→', 'arrow', 'a\nb\n'],
    ['     1→a\n     2→b', 'arrow', 'a\nb'],
    ['1: a\n2: b', 'colon', 'a\nb\n'],
    ['     1\ta', 'tab', 'a\n'],
    ['', 'plain', ''],
  ])('%j is %s and holds %j', (text, style, file) => {
    const shown = readShownFile(text);
    expect(shown.style).toBe(style);
    expect(fileTextFromView(shown)).toBe(file);
  });
});
