// Removing a program's temp space whatever it did to it: permissions taken away, symlinks pointing out.
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeTree } from '../../../src/grade/run/remove-tree.ts';
import { CHATTR_WORKS } from '../../support/isolation.ts';

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

  // Root can make a file immutable on most file systems; skipped where this machine cannot.
  it.runIf(CHATTR_WORKS)('leaves what cannot be removed and says where and how, instead of throwing', async () => {
    const dir = join(root, 'run');
    await mkdir(join(dir, 'tmp'), { recursive: true });
    const file = join(dir, 'tmp', 'undeletable.txt');
    await writeFile(file, 'x');
    await execa('chattr', ['+i', file]);
    try {
      expect(await removeTree(dir)).toMatch(
        new RegExp(
          `^could not remove ${dir} \\(E[A-Z]+\\): .*Remove it with: chattr -R -i '${dir}' && rm -rf '${dir}'$`,
        ),
      );
      expect(existsSync(file)).toBe(true);
    } finally {
      await execa('chattr', ['-i', file]);
    }
  });

  it('is fine with a tree that is already gone', async () => {
    await expect(removeTree(join(root, 'never-made'))).resolves.toBeUndefined();
  });
});
