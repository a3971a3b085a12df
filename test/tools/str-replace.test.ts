import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolOutput } from '../../src/tools/index.ts';
import { useSandbox } from './temp-sandbox.ts';

const box = useSandbox();

const error = (content: string): ToolOutput => ({ content, is_error: true });

describe('strReplace', () => {
  const rows: Array<{ name: string; before: string; oldStr: string; newStr: unknown; after: string }> = [
    { name: 'one occurrence', before: 'hello world\n', oldStr: 'world', newStr: 'there', after: 'hello there\n' },
    {
      name: 'replacement patterns are literal',
      before: 'a b c',
      oldStr: 'b',
      newStr: "$& $1 $$ $' $`",
      after: "a $& $1 $$ $' $` c",
    },
    { name: 'old_str is literal, not a regex', before: 'a.c abc', oldStr: 'a.c', newStr: 'X', after: 'X abc' },
    {
      name: 'new_str missing deletes',
      before: 'keep drop keep',
      oldStr: ' drop',
      newStr: undefined,
      after: 'keep keep',
    },
    { name: 'new_str null deletes', before: 'keep drop keep', oldStr: ' drop', newStr: null, after: 'keep keep' },
    { name: 'multi-line old_str', before: 'a\nb\nc\n', oldStr: 'a\nb\n', newStr: 'z\n', after: 'z\nc\n' },
    { name: 'overlapping matches count once', before: 'aaa', oldStr: 'aa', newStr: 'b', after: 'ba' },
    { name: 'UTF-8 around the match is kept', before: 'é😀x😀é', oldStr: 'x', newStr: 'ü', after: 'é😀ü😀é' },
  ];
  it.each(rows)('$name', async ({ before, oldStr, newStr, after }) => {
    await box.seed({ 'f.txt': before });
    expect(await box.tools.strReplace('f.txt', oldStr, newStr)).toEqual({ content: 'The file f.txt has been edited.' });
    expect(await box.read('f.txt')).toBe(after);
  });

  it('keeps every other byte of a file that is not UTF-8', async () => {
    await box.seed({ 'b.bin': Buffer.from([0xff, 0x00, 0x61, 0x62, 0xfe]) });
    expect(await box.tools.strReplace('b.bin', 'ab', 'cd')).toEqual({ content: 'The file b.bin has been edited.' });
    expect(await readFile(join(box.root, 'b.bin'))).toEqual(Buffer.from([0xff, 0x00, 0x63, 0x64, 0xfe]));
  });
});

describe('strReplace: errors leave the file unchanged', () => {
  const several = (k: number, lines: string) =>
    error(
      `No replacement was performed: old_str appears ${k} times in f.txt, on lines ${lines}; include more context to make it unique`,
    );
  const rows: Array<{ name: string; before: string; oldStr: unknown; newStr?: unknown; expected: ToolOutput }> = [
    {
      name: 'zero occurrences',
      before: 'abc',
      oldStr: 'x',
      expected: error('No replacement was performed: old_str did not appear verbatim in f.txt'),
    },
    {
      name: 'case differs',
      before: 'abc',
      oldStr: 'ABC',
      expected: error('No replacement was performed: old_str did not appear verbatim in f.txt'),
    },
    {
      name: '\\n does not match \\r\\n',
      before: 'a\r\nb',
      oldStr: 'a\nb',
      expected: error('No replacement was performed: old_str did not appear verbatim in f.txt'),
    },
    { name: 'two occurrences', before: 'x\ny\nx\n', oldStr: 'x', expected: several(2, '1, 3') },
    { name: 'two on one line list it twice', before: 'a\nx y x\nz\nx', oldStr: 'x', expected: several(3, '2, 2, 4') },
    {
      name: 'the line where a multi-line match starts',
      before: 'a\nb\na\nb\n',
      oldStr: 'a\nb',
      expected: several(2, '1, 3'),
    },
    {
      name: 'old_str empty',
      before: 'abc',
      oldStr: '',
      expected: error("Invalid parameter 'old_str': it must not be empty"),
    },
    {
      name: 'old_str missing',
      before: 'abc',
      oldStr: undefined,
      expected: error("Missing required parameter 'old_str'"),
    },
    {
      name: 'old_str not a string',
      before: 'abc',
      oldStr: ['a'],
      expected: error("Invalid parameter 'old_str': expected a string, got array"),
    },
    {
      name: 'new_str not a string',
      before: 'abc',
      oldStr: 'a',
      newStr: 1,
      expected: error("Invalid parameter 'new_str': expected a string, got number"),
    },
  ];
  it.each(rows)('$name', async ({ before, oldStr, newStr, expected }) => {
    await box.seed({ 'f.txt': before });
    expect(await box.tools.strReplace('f.txt', oldStr, newStr)).toEqual(expected);
    expect(await box.read('f.txt')).toBe(before);
  });

  it('a missing file', async () => {
    expect(await box.tools.strReplace('nope.txt', 'a', 'b')).toEqual(error('File not found: nope.txt'));
  });

  it('a directory', async () => {
    await box.seed({ 'src/a.ts': 'a' });
    expect(await box.tools.strReplace('src', 'a', 'b')).toEqual(error('Is a directory: src'));
  });

  it('a path leaving the sandbox, through a symlink', async () => {
    await box.seed({ out: { symlink: '<outside>' } });
    expect(await box.tools.strReplace('out/secret.txt', 'top', 'pwned')).toEqual(
      error('Path escapes workspace: out/secret.txt'),
    );
    expect(await box.readOutside('secret.txt')).toBe('top secret\n');
  });
});
