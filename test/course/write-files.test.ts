// A set of files is written whole or not at all.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existingPaths, writeFiles } from '../../src/course/write-files.ts';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'theinference-write-files-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

// Every path under `dir`, directories with a trailing slash, sorted.
async function tree(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.map((e) => join(e.parentPath, e.name).slice(dir.length + 1) + (e.isDirectory() ? '/' : '')).sort();
}

describe('writeFiles', () => {
  it('writes every file, making the directories on the way', async () => {
    const dir = join(root, 'new');
    await writeFiles(dir, [
      { path: 'a.txt', text: 'A' },
      { path: 'src/deep/b.ts', text: 'B' },
    ]);
    expect(await tree(dir)).toEqual(['a.txt', 'src/', 'src/deep/', 'src/deep/b.ts']);
    expect(await readFile(join(dir, 'src/deep/b.ts'), 'utf8')).toBe('B');
  });

  it('replaces a file that is there', async () => {
    await writeFile(join(root, 'a.txt'), 'old');
    await writeFiles(root, [{ path: 'a.txt', text: 'new' }]);
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('new');
  });

  it('leaves nothing behind when a file cannot be written: no temp file, no directory it made, the old file kept', async () => {
    await writeFile(join(root, 'a.txt'), 'old');
    await writeFile(join(root, 'blocker'), 'a file where a directory is needed');
    const files = [
      { path: 'a.txt', text: 'new' },
      { path: 'made/b.txt', text: 'B' },
      { path: 'blocker/c.txt', text: 'C' },
    ];
    await expect(writeFiles(root, files)).rejects.toThrow(/ENOTDIR|EEXIST/);
    expect(await tree(root)).toEqual(['a.txt', 'blocker']);
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('old');
  });

  it('removes the directory itself when it made it and then failed', async () => {
    await writeFile(join(root, 'blocker'), '');
    await expect(
      writeFiles(join(root, 'new'), [
        { path: 'a.txt', text: 'A' },
        { path: '../blocker/x', text: '' },
      ]),
    ).rejects.toThrow();
    expect(await tree(root)).toEqual(['blocker']);
  });
});

describe('existingPaths', () => {
  it('names the paths that exist, whatever they are', async () => {
    await mkdir(join(root, 'src'));
    await writeFile(join(root, 'a.txt'), '');
    const files = ['a.txt', 'src', 'b.txt'].map((path) => ({ path, text: '' }));
    expect(await existingPaths(root, files)).toEqual(['a.txt', 'src']);
  });
});
