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
    ['read_file', { absolute_path: `${S}/a.ts`, offset: 10, limit: 5 }, 'read_file of a line range'],
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
      "search_file_content: Gemini's grouped search output is not compared with the course's grep",
    ],
  ])('drops %s %j: %s', (name, input, reason) => {
    expect(dropped(call(name, input, 'x'))).toBe(reason);
  });
});
