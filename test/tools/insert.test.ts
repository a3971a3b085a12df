import { describe, expect, it } from 'vitest';
import type { ToolOutput } from '../../src/tools/index.ts';
import { useSandbox } from './temp-sandbox.ts';

const box = useSandbox();

const error = (content: string): ToolOutput => ({ content, is_error: true });

describe('insert', () => {
  const rows: Array<{ name: string; before: string; line: number; text: string; after: string }> = [
    { name: 'at the top', before: 'a\nb\n', line: 0, text: 'x', after: 'x\na\nb\n' },
    { name: 'after line 1', before: 'a\nb\n', line: 1, text: 'x', after: 'a\nx\nb\n' },
    { name: 'after the last line', before: 'a\nb\n', line: 2, text: 'x', after: 'a\nb\nx\n' },
    { name: 'text ending in a newline gets none added', before: 'a\nb\n', line: 1, text: 'x\n', after: 'a\nx\nb\n' },
    { name: 'several lines', before: 'a\nb\n', line: 1, text: 'x\ny', after: 'a\nx\ny\nb\n' },
    {
      name: 'after a last line without newline: the newline goes first',
      before: 'a',
      line: 1,
      text: 'b',
      after: 'a\nb',
    },
    { name: 'same, text ending in a newline', before: 'a', line: 1, text: 'b\n', after: 'a\nb\n' },
    { name: 'before a last line without newline', before: 'a\nb', line: 1, text: 'x', after: 'a\nx\nb' },
    { name: 'into an empty file', before: '', line: 0, text: 'x', after: 'x\n' },
    { name: 'empty text inserts an empty line', before: 'a\nb\n', line: 1, text: '', after: 'a\n\nb\n' },
    { name: 'in a \\r\\n file only \\n is added', before: 'a\r\nb\r\n', line: 1, text: 'x', after: 'a\r\nx\nb\r\n' },
    { name: 'blank lines count', before: '\n\n', line: 2, text: 'x', after: '\n\nx\n' },
  ];
  it.each(rows)('$name', async ({ before, line, text, after }) => {
    await box.seed({ 'f.txt': before });
    expect(await box.tools.insert('f.txt', line, text)).toEqual({
      content: `Inserted text after line ${line} of f.txt`,
    });
    expect(await box.read('f.txt')).toBe(after);
  });
});

describe('insert: errors leave the file unchanged', () => {
  const range = (n: number) => error(`Invalid insert_line ${n}: must be between 0 and 2 (the file has 2 lines)`);
  const notWhole = (json: string) => error(`Invalid parameter 'insert_line': expected a whole number, got ${json}`);
  const rows: Array<{ name: string; line: unknown; text: unknown; expected: ToolOutput }> = [
    { name: 'past the end', line: 3, text: 'x', expected: range(3) },
    { name: 'negative', line: -1, text: 'x', expected: range(-1) },
    { name: 'a numeric string', line: '1', text: 'x', expected: notWhole('"1"') },
    { name: 'a fraction', line: 1.5, text: 'x', expected: notWhole('1.5') },
    { name: 'an array', line: [1], text: 'x', expected: notWhole('[1]') },
    {
      name: 'insert_line missing',
      line: undefined,
      text: 'x',
      expected: error("Missing required parameter 'insert_line'"),
    },
    { name: 'insert_line null', line: null, text: 'x', expected: error("Missing required parameter 'insert_line'") },
    { name: 'text missing', line: 1, text: undefined, expected: error("Missing required parameter 'insert_text'") },
    {
      name: 'text not a string',
      line: 1,
      text: 7,
      expected: error("Invalid parameter 'insert_text': expected a string, got number"),
    },
  ];
  it.each(rows)('$name', async ({ line, text, expected }) => {
    await box.seed({ 'f.txt': 'a\nb\n' });
    expect(await box.tools.insert('f.txt', line, text)).toEqual(expected);
    expect(await box.read('f.txt')).toBe('a\nb\n');
  });

  it('counts lines as view does: no final newline still makes 2 lines', async () => {
    await box.seed({ 'f.txt': 'a\nb' });
    expect(await box.tools.insert('f.txt', 3, 'x')).toEqual(range(3));
  });

  it('a missing file', async () => {
    expect(await box.tools.insert('nope.txt', 0, 'x')).toEqual(error('File not found: nope.txt'));
  });

  it('a directory', async () => {
    await box.seed({ 'src/a.ts': '' });
    expect(await box.tools.insert('src', 0, 'x')).toEqual(error('Is a directory: src'));
  });

  it('a path leaving the sandbox', async () => {
    expect(await box.tools.insert('../outside/secret.txt', 0, 'x')).toEqual(
      error('Path escapes workspace: ../outside/secret.txt'),
    );
    expect(await box.readOutside('secret.txt')).toBe('top secret\n');
  });
});
