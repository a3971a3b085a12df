// Gemini CLI's tools in the course's vocabulary, and what is dropped and why.
import { describe, expect, it } from 'vitest';
import { mapCall } from '../../../src/record/map/map-call.ts';
import type { MappedCall } from '../../../src/record/record-types.ts';
import { call } from '../calls.ts';

const S = '<sandbox>';
const mapped = (c: ReturnType<typeof call>): MappedCall => {
  const m = mapCall(c, { subdir: '' });
  if ('drop' in m) throw new Error(`dropped: ${m.drop}`);
  return m;
};
const dropped = (c: ReturnType<typeof call>): string => {
  const m = mapCall(c, { subdir: '' });
  return 'drop' in m ? m.drop : `mapped to ${m.call.tool}`;
};

describe("Gemini CLI's tools", () => {
  it.each([
    ['read_file', { absolute_path: `${S}/a.ts` }, 'Read', { path: `${S}/a.ts` }],
    ['read_file', { file_path: `${S}/a.ts` }, 'Read', { path: `${S}/a.ts` }],
    ['write_file', { file_path: `${S}/a.ts`, content: 'x' }, 'Write', { path: `${S}/a.ts`, file_text: 'x' }],
    [
      'replace',
      { file_path: `${S}/a.ts`, old_string: 'a', new_string: 'b', instruction: 'why' },
      'Edit',
      { path: `${S}/a.ts`, old_str: 'a', new_str: 'b' },
    ],
    ['run_shell_command', { command: 'ls', description: 'list' }, 'Bash', { command: 'ls' }],
    ['run_shell_command', { command: 'ls', directory: 'src' }, 'Bash', { command: `cd ${S}/src && ls` }],
    ['run_shell_command', { command: 'ls', directory: `${S}/src` }, 'Bash', { command: `cd ${S}/src && ls` }],
    ['glob', { pattern: '*.ts', dir_path: `${S}/src` }, 'glob', { pattern: '*.ts', path: `${S}/src` }],
  ])('%s %j -> %s %j', (name, input, tool, courseInput) => {
    expect(mapped(call(name, input, 'x')).call).toEqual({ tool, input: courseInput });
  });

  it.each([
    [
      'replace',
      { file_path: `${S}/a`, old_string: 'a', new_string: 'b', expected_replacements: 3 },
      'replace of several occurrences',
    ],
    ['run_shell_command', { command: 'serve', is_background: true }, 'Bash in the background'],
    ['run_shell_command', { command: 'ls', directory: '../other' }, "Bash after a cd out of the session's directory"],
    ['run_shell_command', { command: 'ls', directory: '/etc' }, "Bash after a cd out of the session's directory"],
    [
      'search_file_content',
      { pattern: 'x' },
      'search_file_content result cut by the agent',
      'x (results limited to 20)',
    ],
    ['list_directory', { dir_path: S, ignore: '*.log' }, 'malformed input'],
  ])('drops %s %j: %s', (name, input, reason, result = 'x') => {
    expect(dropped(call(name, input, result))).toBe(reason);
  });
});

describe("Gemini CLI's ranged reads", () => {
  const ranged = (input: Record<string, unknown>, file?: object) =>
    mapped(
      call(
        'read_file',
        { absolute_path: `${S}/a.ts`, ...input },
        { content: 'x', ...(file ? { details: { file } } : {}) },
      ),
    );

  it('views the lines Gemini says it showed, counted from 1', () => {
    const m = ranged({ offset: 10, limit: 5 }, { startLine: 11, numLines: 5, totalLines: 40 });
    expect(m.call.input).toEqual({ path: `${S}/a.ts`, view_range: [11, 15] });
    expect(m.renamedKeys).toMatchObject({ offset: 'view_range', limit: 'view_range' });
  });

  it("views to the end a range that reaches Gemini's last line (the empty one after a final newline)", () => {
    expect(ranged({ start_line: 7, end_line: 30 }, { startLine: 7, numLines: 4, totalLines: 10 }).call.input).toEqual({
      path: `${S}/a.ts`,
      view_range: [7, -1],
    });
  });

  it('views the whole file when the range showed all of it (Gemini then adds no note)', () => {
    expect(ranged({ offset: 0, limit: 2000 }).call.input).toEqual({ path: `${S}/a.ts` });
  });
});

describe("Gemini CLI's list_directory", () => {
  it('is a view of the directory, judged by its first level, with ignore patterns hiding the same entries', () => {
    const m = mapped(call('list_directory', { dir_path: `${S}/src`, ignore: ['*.log'] }, 'Directory listing for x:'));
    expect(m.call).toEqual({ tool: 'view', input: { path: `${S}/src` } });
    expect(m.check).toEqual({ kind: 'directory', base: 'src', from: 'list_directory', ignore: ['*.log'] });
  });
});

describe("Gemini CLI's search", () => {
  it('is the course grep of its pattern, directory and include glob, judged by the lines found there', () => {
    const m = mapped(
      call('search_file_content', { pattern: 'x', dir_path: `${S}/src`, include: '*.ts' }, 'No matches'),
    );
    expect(m.call).toEqual({ tool: 'grep', input: { pattern: 'x', path: `${S}/src`, glob: '*.ts' } });
    expect(m.check).toEqual({ kind: 'grep', mode: 'lines', base: 'src' });
    expect(mapped(call('grep_search', { pattern: 'x' }, 'No matches')).call.tool).toBe('grep');
  });
});
