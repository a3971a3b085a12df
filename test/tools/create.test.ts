import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolOutput } from '../../src/tools/index.ts';
import { type Seed, useSandbox } from './temp-sandbox.ts';

const box = useSandbox();

const error = (content: string): ToolOutput => ({ content, is_error: true });

describe('create', () => {
  const rows: Array<{ name: string; files: Seed; path: string; text: string; expected: string; file: string }> = [
    {
      name: 'a new file',
      files: {},
      path: 'new.txt',
      text: 'hello\n',
      expected: 'File created successfully at: new.txt',
      file: 'new.txt',
    },
    {
      name: 'parents are created',
      files: {},
      path: 'a/b/c.txt',
      text: 'deep',
      expected: 'File created successfully at: a/b/c.txt',
      file: 'a/b/c.txt',
    },
    {
      name: 'an empty file',
      files: {},
      path: 'e.txt',
      text: '',
      expected: 'File created successfully at: e.txt',
      file: 'e.txt',
    },
    {
      name: 'text as is (no newline added, \\r\\n kept)',
      files: {},
      path: 'w.txt',
      text: 'a\r\nb',
      expected: 'File created successfully at: w.txt',
      file: 'w.txt',
    },
    {
      name: 'UTF-8',
      files: {},
      path: 'u.txt',
      text: 'héllo 😀',
      expected: 'File created successfully at: u.txt',
      file: 'u.txt',
    },
    {
      name: 'an existing file is overwritten',
      files: { 'a.txt': 'old old old' },
      path: 'a.txt',
      text: 'new',
      expected: 'File overwritten successfully at: a.txt',
      file: 'a.txt',
    },
    {
      name: 'a symlink inside is written through',
      files: { 'a.txt': 'old', link: { symlink: 'a.txt' } },
      path: 'link',
      text: 'new',
      expected: 'File overwritten successfully at: link',
      file: 'a.txt',
    },
    {
      name: 'a dangling symlink inside creates its target',
      files: { link: { symlink: 'target.txt' } },
      path: 'link',
      text: 'new',
      expected: 'File created successfully at: link',
      file: 'target.txt',
    },
  ];
  it.each(rows)('$name', async ({ files, path, text, expected, file }) => {
    await box.seed(files);
    expect(await box.tools.create(path, text)).toEqual({ content: expected });
    expect(await box.read(file)).toBe(text);
  });

  it('names an absolute path as it was sent', async () => {
    const path = join(box.root, 'abs.txt');
    expect(await box.tools.create(path, 'x')).toEqual({ content: `File created successfully at: ${path}` });
    expect(await box.read('abs.txt')).toBe('x');
  });
});

describe('create: errors', () => {
  const rows: Array<{ name: string; files: Seed; path: string; text: unknown; expected: ToolOutput }> = [
    { name: 'a directory', files: { 'src/a.ts': 'x' }, path: 'src', text: 'x', expected: error('Is a directory: src') },
    { name: 'the root', files: {}, path: '.', text: 'x', expected: error('Is a directory: .') },
    {
      name: 'a parent is a file',
      files: { 'a.txt': 'A' },
      path: 'a.txt/x',
      text: 'x',
      expected: error('Not a directory: a.txt/x'),
    },
    {
      name: 'a grandparent is a file',
      files: { 'a.txt': 'A' },
      path: 'a.txt/x/y.txt',
      text: 'x',
      expected: error('Not a directory: a.txt/x/y.txt'),
    },
    {
      name: 'file_text missing',
      files: {},
      path: 'n.txt',
      text: undefined,
      expected: error("Missing required parameter 'file_text'"),
    },
    {
      name: 'file_text null',
      files: {},
      path: 'n.txt',
      text: null,
      expected: error("Missing required parameter 'file_text'"),
    },
    {
      name: 'file_text not a string',
      files: {},
      path: 'n.txt',
      text: 42,
      expected: error("Invalid parameter 'file_text': expected a string, got number"),
    },
  ];
  it.each(rows)('$name', async ({ files, path, text, expected }) => {
    await box.seed(files);
    expect(await box.tools.create(path, text)).toEqual(expected);
  });

  it('writes nothing when file_text is missing', async () => {
    await box.tools.create('n.txt', undefined);
    await expect(box.read('n.txt')).rejects.toThrow(/ENOENT/);
  });

  it('leaves the file in the way untouched', async () => {
    await box.seed({ 'a.txt': 'A' });
    await box.tools.create('a.txt/x', 'x');
    expect(await box.read('a.txt')).toBe('A');
  });

  it('refuses to write into a FIFO, which would block', async () => {
    execFileSync('mkfifo', [join(box.root, 'pipe')]);
    expect(await box.tools.create('pipe', 'x')).toEqual(error('Not a regular file: pipe'));
  });
});

describe('create: sandbox', () => {
  const rows: Array<{ name: string; files: Seed; path: string }> = [
    { name: '..', files: {}, path: '../outside/secret.txt' },
    { name: 'a symlinked directory leading out', files: { out: { symlink: '<outside>' } }, path: 'out/secret.txt' },
    { name: 'a new file below a symlinked directory', files: { out: { symlink: '<outside>' } }, path: 'out/new/x.txt' },
    { name: 'a symlink to a file outside', files: { s: { symlink: '<outside>/secret.txt' } }, path: 's' },
    { name: 'a dangling symlink pointing outside', files: { d: { symlink: '<outside>/new.txt' } }, path: 'd' },
  ];
  it.each(rows)('$name', async ({ files, path }) => {
    await box.seed(files);
    expect(await box.tools.create(path, 'pwned')).toEqual(error(`Path escapes workspace: ${path}`));
    expect(await box.readOutside('secret.txt')).toBe('top secret\n');
    expect(await box.readOutside('new.txt')).toBeNull();
    expect(await box.readOutside('new/x.txt')).toBeNull();
  });

  it('refuses an absolute path outside', async () => {
    const path = join(box.outside, 'secret.txt');
    expect(await box.tools.create(path, 'pwned')).toEqual(error(`Path escapes workspace: ${path}`));
    expect(await readFile(path, 'utf8')).toBe('top secret\n');
  });
});
