// Recorded calls in the course's vocabulary: every agent's names and keys, what is dropped and why.
import { describe, expect, it } from 'vitest';
import { mapCall } from '../../../src/record/map/map-call.ts';
import type { MappedCall } from '../../../src/record/record-types.ts';
import { call, claudeRead } from '../calls.ts';

const S = '<sandbox>';
const mapped = (c: ReturnType<typeof call>, subdir: string | undefined = ''): MappedCall => {
  const m = mapCall(c, { subdir });
  if ('drop' in m) throw new Error(`dropped: ${m.drop}`);
  return m;
};
const dropped = (c: ReturnType<typeof call>, subdir: string | undefined = ''): string => {
  const m = mapCall(c, { subdir });
  return 'drop' in m ? m.drop : `mapped to ${m.call.tool}`;
};

describe('mapCall: Claude Code tools', () => {
  it.each([
    ['Read', { file_path: `${S}/a.ts` }, 'Read', { path: `${S}/a.ts` }],
    ['Write', { file_path: `${S}/a.ts`, content: 'x' }, 'Write', { path: `${S}/a.ts`, file_text: 'x' }],
    [
      'Edit',
      { file_path: `${S}/a.ts`, old_string: 'a', new_string: 'b', replace_all: false },
      'Edit',
      { path: `${S}/a.ts`, old_str: 'a', new_str: 'b' },
    ],
    ['Glob', { pattern: '**/*.ts', path: `${S}/src` }, 'Glob', { pattern: '**/*.ts', path: `${S}/src` }],
    [
      'Grep',
      { pattern: 'x', path: `${S}/src`, glob: '*.ts', output_mode: 'content' },
      'Grep',
      { pattern: 'x', path: `${S}/src`, glob: '*.ts' },
    ],
    ['Bash', { command: 'ls', description: 'List', timeout: 5000 }, 'Bash', { command: 'ls', timeout: 5000 }],
  ])('%s %j -> %s %j', (name, input, tool, expected) => {
    const m = mapped(call(name, input, 'ok'));
    expect(m.call).toEqual({ tool, input: expected });
    expect(m.originalTool).toBe(name);
  });

  it('keeps the original keys and the values it did not carry over for the source', () => {
    const m = mapped(call('Bash', { command: 'ls', description: 'List files' }, ''));
    expect(m.renamedKeys).toEqual({ command: 'command' });
    expect(m.droppedKeys).toEqual({ description: 'List files' });
  });

  it('maps an Edit with replace_all only where the original file holds old_string once', () => {
    const once = call(
      'Edit',
      { file_path: `${S}/a`, old_string: 'x', new_string: 'y', replace_all: true },
      { content: 'ok', details: { originalFile: 'x-' } },
    );
    expect(mapped(once).call.input).toEqual({ path: `${S}/a`, old_str: 'x', new_str: 'y' });
    const twice = call(
      'Edit',
      { file_path: `${S}/a`, old_string: 'x', new_string: 'y', replace_all: true },
      { content: 'ok', details: { originalFile: 'x-x' } },
    );
    expect(dropped(twice)).toBe('Edit replace_all with several matches');
    const unknown = call('Edit', { file_path: `${S}/a`, old_string: 'x', new_string: 'y', replace_all: true }, 'ok');
    expect(dropped(unknown)).toBe('Edit replace_all, match count unknown');
  });

  it('knows what an Edit leaves in the file when the recording shows the original and the user did not change the edit', () => {
    const edit = (userModified: boolean) =>
      mapped(
        call(
          'Edit',
          { file_path: `${S}/a`, old_string: 'b', new_string: '$&!' },
          { content: 'ok', details: { originalFile: 'abc', userModified } },
        ),
      );
    expect(edit(false).check).toEqual({ kind: 'edit', expectedAfter: 'a$&!c' });
    expect(edit(true).check).toEqual({ kind: 'edit' });
  });
});

describe("mapCall: Claude Code 1.0's LS", () => {
  const tree = `- ${S}/\n  - a.ts\n`;

  it('is a view of the directory, judged by its entries, with ignore kept in the source', () => {
    const m = mapped(call('LS', { path: `${S}/src`, ignore: ['dist'] }, tree));
    expect(m.call).toEqual({ tool: 'view', input: { path: `${S}/src` } });
    expect(m.check).toEqual({ kind: 'directory', base: 'src', ignore: ['dist'] });
    expect(m.droppedKeys).toEqual({ ignore: ['dist'] });
  });

  it('lists where the agent was when it names no path', () => {
    expect(mapped(call('LS', {}, tree), 'src').call.input).toEqual({ path: `${S}/src` });
    expect(mapped(call('LS', {}, tree)).call.input).toEqual({ path: S });
  });

  it('drops a tree Claude Code cut at its limit, and ignore patterns that are not strings', () => {
    const cut = 'There are more than 1000 files in the repository. Use the LS tool (passing a specific path)…\n\n- x/';
    expect(dropped(call('LS', { path: S }, cut))).toBe('LS result truncated by the agent');
    expect(dropped(call('LS', { path: S, ignore: 'dist' }, tree))).toBe('malformed input');
  });
});

describe('mapCall: Read offset and limit as view_range, by Claude Code line counting', () => {
  const text = 'l1\nl2\nl3\nl4\nl5\n'; // 5 lines to the course, 6 to Claude Code (the last is empty)
  it.each([
    ['no offset or limit', {}, undefined, undefined],
    ['a limit inside the file', { limit: 2 }, { from: 1, count: 2 }, [1, 2]],
    ['an offset and limit inside the file', { offset: 2, limit: 3 }, { from: 2, count: 3 }, [2, 4]],
    ['an offset alone reads to the end', { offset: 3 }, { from: 3, count: 2000 }, [3, -1]],
    ['a limit reaching the phantom last line', { offset: 4, limit: 3 }, { from: 4, count: 3 }, [4, -1]],
    ['a limit running past the end', { offset: 2, limit: 100 }, { from: 2, count: 100 }, [2, -1]],
    ['a limit reaching the last real line only', { offset: 1, limit: 5 }, { from: 1, count: 5 }, [1, 5]],
  ])('%s', (_, keys, range, expected) => {
    const m = mapped(call('Read', { file_path: `${S}/f`, ...keys }, claudeRead(`${S}/f`, text, range)));
    expect(m.call.input.view_range).toEqual(expected);
  });

  it("without Claude Code's line count (a subagent file), reads the last line shown", () => {
    const shownAll = call('Read', { file_path: `${S}/f`, offset: 2, limit: 10 }, '     2→b\n     3→');
    expect(mapped(shownAll).call.input.view_range).toEqual([2, -1]);
    const shownLimit = call('Read', { file_path: `${S}/f`, offset: 2, limit: 2 }, '     2→b\n     3→c');
    expect(mapped(shownLimit).call.input.view_range).toEqual([2, 3]);
  });

  it('drops a Read of an image or a notebook', () => {
    expect(
      dropped(call('Read', { file_path: `${S}/a.png` }, { content: '', details: { type: 'image', file: {} } })),
    ).toBe('Read of a non-text file (image)');
  });
});

describe('mapCall: Grep presentation keys', () => {
  it.each([
    [{ '-i': true }, 'Grep -i (case-insensitive)'],
    [{ type: 'js' }, 'Grep type filter'],
    [{ multiline: true }, 'Grep multiline'],
    [{ '-C': 2, output_mode: 'content', '-n': false }, 'Grep context lines without -n'],
    [{ offset: 10 }, 'Grep offset'],
    [{ output_mode: 'count' }, 'Grep output_mode count'],
  ])('%j cannot be expressed: %s', (keys, reason) => {
    expect(dropped(call('Grep', { pattern: 'x', ...keys }, 'Found 1 file\na.ts'))).toBe(reason);
  });

  it('judges a Grep with context lines by its match lines, and ignores context keys where nothing is shown (issue 27)', () => {
    const files = mapped(call('Grep', { pattern: 'x', '-C': 2 }, 'Found 1 file\na.ts'));
    expect(files.check).toEqual({ kind: 'grep', mode: 'files', base: '' });
    expect(files.droppedKeys).toEqual({ '-C': 2 });
    const content = mapped(call('Grep', { pattern: 'x', '-A': 1, output_mode: 'content' }, 'a.ts:1:x\na.ts-2-y'));
    expect(content.call.input).toEqual({ pattern: 'x' });
    expect(content.check).toEqual({ kind: 'grep', mode: 'lines', base: '', context: true });
    const one = call(
      'Grep',
      { pattern: 'x', path: `${S}/a.ts`, '-B': 1, output_mode: 'content' },
      '2-y\n3:x\n--\n6-\n7:x',
    );
    expect(mapped(one).check).toEqual({ kind: 'grep', mode: 'lines', base: '', context: true, singleFile: 'a.ts' });
  });

  it('keeps a head_limit the result never reached, and drops one that cut it', () => {
    const under = call(
      'Grep',
      { pattern: 'x', output_mode: 'content', head_limit: 20 },
      { content: 'a.ts:1:x', details: { mode: 'content', numLines: 1 } },
    );
    expect(mapped(under).call.input).toEqual({ pattern: 'x' });
    expect(mapped(under).droppedKeys).toEqual({ output_mode: 'content', head_limit: 20 });
    const cut = call(
      'Grep',
      { pattern: 'x', head_limit: 2 },
      { content: 'Found 2 files\na.ts\nb.ts', details: { mode: 'files_with_matches', numFiles: 2 } },
    );
    expect(dropped(cut)).toBe('Grep head_limit cut the result');
  });

  it("reads an agent recorded from the API (the course's own) as printing the course's lines", () => {
    const m = mapCall(call('Grep', { pattern: 'x', path: 'src' }, 'src/a.ts:1: x'), { subdir: '', claudeCode: false });
    expect('drop' in m ? m.drop : m.check).toEqual({ kind: 'grep', mode: 'lines', base: '', courseWords: true });
  });

  it("compares files for files_with_matches, lines for content, and knows ripgrep leaves out a single file's name", () => {
    expect(mapped(call('Grep', { pattern: 'x' }, 'Found 1 file\na.ts')).check).toEqual({
      kind: 'grep',
      mode: 'files',
      base: '',
    });
    expect(mapped(call('Grep', { pattern: 'x', output_mode: 'content' }, 'a.ts:1:x')).check).toEqual({
      kind: 'grep',
      mode: 'lines',
      base: '',
    });
    const single = call('Grep', { pattern: 'x', path: `${S}/src/a.ts`, output_mode: 'content' }, '3:x\n7:xx');
    expect(mapped(single).check).toEqual({ kind: 'grep', mode: 'lines', base: '', singleFile: 'src/a.ts' });
  });
});

describe('mapCall: other agents', () => {
  it.each([
    [
      'str_replace_based_edit_tool',
      { command: 'view', path: 'a', view_range: [1, 2] },
      'view',
      { path: 'a', view_range: [1, 2] },
    ],
    ['str_replace_editor', { command: 'create', path: 'a', file_text: 'x' }, 'create', { path: 'a', file_text: 'x' }],
    [
      'str_replace_based_edit_tool',
      { command: 'str_replace', path: 'a', old_str: 'x', new_str: 'y' },
      'str_replace',
      { path: 'a', old_str: 'x', new_str: 'y' },
    ],
    [
      'str_replace_based_edit_tool',
      { command: 'insert', path: 'a', insert_line: 0, insert_text: 'x' },
      'insert',
      { path: 'a', insert_line: 0, insert_text: 'x' },
    ],
    ['read_file', { path: 'a' }, 'Read', { path: 'a' }],
    ['write_file', { path: 'a', content: 'x' }, 'Write', { path: 'a', file_text: 'x' }],
    ['edit_file', { path: 'a', old_text: 'x', new_text: 'y' }, 'Edit', { path: 'a', old_str: 'x', new_str: 'y' }],
    ['bash', { command: 'ls' }, 'bash', { command: 'ls' }],
    ['Read', { path: 'a' }, 'Read', { path: 'a' }],
    ['glob', { pattern: '*' }, 'glob', { pattern: '*' }],
  ])('%s %j -> %s %j', (name, input, tool, expected) => {
    expect(mapped(call(name, input, 'ok')).call).toEqual({ tool, input: expected });
  });

  it("maps the lesson's read_file limit to a view_range when the result says more lines follow", () => {
    expect(mapped(call('read_file', { path: 'a', limit: 2 }, 'x\ny\n... (3 more lines)')).call.input).toEqual({
      path: 'a',
      view_range: [1, 2],
    });
  });

  it.each([
    ['TodoWrite', { todos: [] }, "not in the course's toolset: TodoWrite"],
    ['mcp__github__search', { q: 'x' }, "not in the course's toolset: mcp__github__search"],
    [
      'str_replace_based_edit_tool',
      { command: 'undo_edit', path: 'a' },
      "not in the course's toolset: str_replace_based_edit_tool undo_edit",
    ],
  ])('drops %s', (name, input, reason) => {
    expect(dropped(call(name, input, 'ok'))).toBe(reason);
  });
});

describe('mapCall: what cannot run in a sandbox', () => {
  it.each([
    [
      'a call that never ran',
      call('Bash', { command: 'ls' }, 'x', { notRun: 'blocked by a PreToolUse hook: Pre-commit validation failed: …' }),
      'never ran: blocked by a PreToolUse hook',
    ],
    [
      'a malformed input',
      call('Write', undefined, undefined, { malformed: 'Unexpected end of JSON' }),
      'malformed input',
    ],
    [
      'a call whose result the transcript never shows (the session ended first)',
      call('Bash', { command: 'ls' }),
      'no recorded result',
    ],
    [
      'a path outside the session',
      call('Read', { file_path: '/etc/passwd' }, 'x'),
      "path outside the session's directory",
    ],
    ['a relative path climbing out', call('Read', { path: '../other/a' }, 'x'), "path outside the session's directory"],
    [
      'a command naming the machine',
      call('Bash', { command: 'cat /home/ada/.ssh/id_rsa' }, 'x'),
      "Bash names a path outside the session's directory",
    ],
    [
      'a command writing to /tmp',
      call('Bash', { command: 'echo x > /tmp/out' }, ''),
      "Bash names a path outside the session's directory",
    ],
    [
      "the agent's own files",
      call('Bash', { command: 'tail /tmp/claude-1000/-home-ada-proj/tasks/b1.output' }, 'x'),
      "uses the agent's own files (~/.claude, /tmp/claude-*)",
    ],
    [
      'a background command',
      call('Bash', { command: 'mix phx.server', run_in_background: true }, ''),
      'Bash in the background',
    ],
  ])('drops %s', (_, c, reason) => {
    expect(dropped(c)).toBe(reason);
  });

  it('keeps commands that name only the sandbox and system directories', () => {
    expect(
      mapped(call('Bash', { command: `ls ${S}/src 2>/dev/null | head -3 && /usr/bin/env true` }, 'x')).call.tool,
    ).toBe('Bash');
  });

  it('replays a call made after a cd into a subdirectory from that subdirectory', () => {
    expect(mapped(call('Bash', { command: 'ls' }, 'x'), 'assets').call.input.command).toBe(`cd ${S}/assets && ls`);
    expect(mapped(call('Glob', { pattern: '*.css' }, 'No files found'), 'assets').call.input).toEqual({
      pattern: '*.css',
      path: `${S}/assets`,
    });
    expect(mapCall(call('Bash', { command: 'ls' }, 'x'), { subdir: undefined })).toEqual({
      drop: "Bash after a cd out of the session's directory",
    });
  });
});
