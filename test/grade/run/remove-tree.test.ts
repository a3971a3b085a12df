// Removing a program's temp space whatever it did to it: permissions taken away, symlinks pointing out.
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeTree } from '../../../src/grade/run/remove-tree.ts';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'theinference-remove-tree-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('removeTree', () => {
  it('removes a tree whose directories were made unreadable and unwritable', async () => {
    const dir = join(root, 'run');
    await mkdir(join(dir, 'a', 'b'), { recursive: true });
    await writeFile(join(dir, 'a', 'b', 'f.txt'), 'x');
    await chmod(join(dir, 'a', 'b'), 0o000);
    await chmod(join(dir, 'a'), 0o000);
    await removeTree(dir);
    expect(existsSync(dir)).toBe(false);
  });

  it('removes symlinks without following them', async () => {
    const outside = join(root, 'outside');
    await mkdir(outside);
    await writeFile(join(outside, 'keep.txt'), 'keep');
    const dir = join(root, 'run');
    await mkdir(dir);
    await symlink(outside, join(dir, 'link'));
    await chmod(dir, 0o000);
    await removeTree(dir);
    expect([existsSync(dir), existsSync(join(outside, 'keep.txt'))]).toEqual([false, true]);
  });

  it('is fine with a tree that is already gone', async () => {
    await expect(removeTree(join(root, 'never-made'))).resolves.toBeUndefined();
  });
});
