// The replay worker's undo: a sandbox saved before a call and put back after it, whatever the call did to it.
import { execFileSync } from 'node:child_process';
import { chmod, lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SandboxCheckpoint } from '../../../src/record/replay/sandbox-checkpoint.ts';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'theinference-checkpoint-test-'));
  await mkdir(join(root, 'src/lib'), { recursive: true });
  await writeFile(join(root, 'src/a.ts'), 'export const a = 1;\n');
  await writeFile(join(root, 'src/lib/b.sh'), '#!/bin/sh\necho b\n');
  await chmod(join(root, 'src/lib/b.sh'), 0o755);
  await symlink('src/a.ts', join(root, 'link'));
});
afterEach(async () => {
  await chmod(root, 0o700).catch(() => {});
  execFileSync('chmod', ['-R', 'u+rwx', root]);
  await rm(root, { recursive: true, force: true });
});

// Every entry with its type, mode and content (or target).
async function tree(dir: string): Promise<string[]> {
  const rows: string[] = [];
  for (const path of (await readdir(dir, { recursive: true })).sort()) {
    const s = await lstat(join(dir, path));
    const what = s.isSymbolicLink()
      ? `-> ${await readlink(join(dir, path))}`
      : s.isDirectory()
        ? 'dir'
        : JSON.stringify(await readFile(join(dir, path), 'utf8'));
    rows.push(`${path} ${(s.mode & 0o777).toString(8)} ${what}`);
  }
  return rows;
}

describe('SandboxCheckpoint', () => {
  it.each([
    ['a file rewritten', () => writeFile(join(root, 'src/a.ts'), 'export const a = 2;\n')],
    ['a file appended to, in place', () => writeFile(join(root, 'src/a.ts'), 'more\n', { flag: 'a' })],
    ['files removed', () => rm(join(root, 'src'), { recursive: true })],
    [
      'files and directories made',
      async () => {
        await mkdir(join(root, 'dist/x'), { recursive: true });
        await writeFile(join(root, 'dist/x/out.js'), 'x');
      },
    ],
    ['a mode changed', () => chmod(join(root, 'src/lib/b.sh'), 0o600)],
    ['a directory locked', () => chmod(join(root, 'src/lib'), 0o000)],
    [
      'a link turned into a file',
      async () => {
        await rm(join(root, 'link'));
        await writeFile(join(root, 'link'), 'not a link');
      },
    ],
    [
      'a file turned into a directory',
      async () => {
        await rm(join(root, 'src/a.ts'));
        await mkdir(join(root, 'src/a.ts'));
      },
    ],
  ])('puts back %s', async (_, change) => {
    const before = await tree(root);
    const checkpoint = new SandboxCheckpoint();
    expect(await checkpoint.save(root)).toBe(true);
    await change();
    expect(await checkpoint.restore(root)).toEqual({ undone: true });
    expect(await tree(root)).toEqual(before);
  });

  it('reads again what changed since the last save, so a second undo puts back the second state', async () => {
    const checkpoint = new SandboxCheckpoint();
    await checkpoint.save(root);
    await writeFile(join(root, 'src/a.ts'), 'second\n');
    await checkpoint.save(root);
    await writeFile(join(root, 'src/a.ts'), 'third\n');
    await checkpoint.restore(root);
    expect(await readFile(join(root, 'src/a.ts'), 'utf8')).toBe('second\n');
  });

  it('cannot save a sandbox holding a FIFO, and says so on undo', async () => {
    execFileSync('mkfifo', [join(root, 'pipe')]);
    const checkpoint = new SandboxCheckpoint();
    expect(await checkpoint.save(root)).toBe(false);
    expect(await checkpoint.restore(root)).toEqual({ error: 'the sandbox could not be saved before this call' });
  });

  it('has nothing to undo once told the last call changed nothing', async () => {
    const checkpoint = new SandboxCheckpoint();
    await checkpoint.save(root);
    checkpoint.forget();
    expect(await checkpoint.restore(root)).toMatchObject({ error: expect.any(String) });
  });
});
