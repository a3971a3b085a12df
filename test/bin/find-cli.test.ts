// An installed package always runs the compiled CLI; a git checkout only while it is at least as new as every
// source file.
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
// @ts-expect-error: plain JavaScript (it runs before tsx is registered), no declarations.
import { findCli } from '../../bin/find-cli.js';

let root: string;
const at = (seconds: number) => new Date(seconds * 1000);

async function touch(path: string, seconds: number): Promise<void> {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, '');
  await utimes(path, at(seconds), at(seconds));
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'theinference-find-cli-'));
  await touch(join(root, 'src', 'cli', 'main.ts'), 1000);
  await touch(join(root, 'src', 'grade', 'deep', 'file.ts'), 1000);
  for (const dir of ['src/grade/deep', 'src/grade', 'src/cli', 'src'])
    await utimes(join(root, dir), at(1000), at(1000));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('findCli in a git checkout of theinference', () => {
  beforeEach(async () => {
    await mkdir(join(root, '.git'));
  });

  it('runs the sources through tsx when nothing was built', () => {
    const src = join(root, 'src', 'cli');
    expect(findCli(root)).toEqual({ entry: join(src, 'main.ts'), early: join(src, 'early-start.ts'), needsTsx: true });
  });

  it('runs the compiled CLI when the build is as new as every source (npm gives packed files one date)', async () => {
    await touch(join(root, 'dist', '.built'), 1000);
    const dist = join(root, 'dist', 'cli');
    expect(findCli(root)).toEqual({
      entry: join(dist, 'main.js'),
      early: join(dist, 'early-start.js'),
      needsTsx: false,
    });
  });

  it('falls back to the sources when a file deep in src/ changed after the build', async () => {
    await touch(join(root, 'dist', '.built'), 2000);
    await utimes(join(root, 'src', 'grade', 'deep', 'file.ts'), at(3000), at(3000));
    expect(findCli(root).needsTsx).toBe(true);
  });

  it('counts a worktree (whose .git is a file) as a checkout', async () => {
    await rm(join(root, '.git'), { recursive: true });
    await writeFile(join(root, '.git'), 'gitdir: /elsewhere\n');
    await touch(join(root, 'dist', '.built'), 2000);
    await utimes(join(root, 'src', 'grade', 'deep', 'file.ts'), at(3000), at(3000));
    expect(findCli(root).needsTsx).toBe(true);
  });
});

describe('findCli in an installed package (no .git)', () => {
  it('runs the compiled CLI even when src/ looks newer than dist/ (an unpacked tarball)', async () => {
    await touch(join(root, 'dist', '.built'), 1000);
    await utimes(join(root, 'src', 'grade', 'deep', 'file.ts'), at(3000), at(3000));
    const dist = join(root, 'dist', 'cli');
    expect(findCli(root)).toEqual({
      entry: join(dist, 'main.js'),
      early: join(dist, 'early-start.js'),
      needsTsx: false,
    });
  });

  it('runs the sources through tsx only when nothing was built at all', () => {
    expect(findCli(root).needsTsx).toBe(true);
  });
});
