// Where seeds read the workspace as it was: a --files-from directory, or the workspace a live capture holds. Text
// files only, each no bigger than a seed may be, never outside.
import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFilesFrom, readWorkspace } from '../../../src/record/seed/files-from.ts';
import { MAX_SEED_CHARS } from '../../../src/record/seed/seed-files.ts';
import { useScratch } from '../../grade/course-fixture.ts';

const scratch = useScratch();

describe('readFilesFrom', () => {
  it('reads text files by sandbox-relative path, and nothing else', async () => {
    const dir = await mkdtemp(join(scratch.root, 'ws-'));
    await mkdir(join(dir, 'src'));
    await writeFile(join(dir, 'src', 'a.ts'), 'export {};\n');
    await writeFile(join(dir, 'bin.dat'), Buffer.from([1, 0, 2]));
    await writeFile(join(scratch.root, 'outside.txt'), 'secret');
    const read = readFilesFrom(dir);
    expect(await read('src/a.ts')).toBe('export {};\n');
    expect(await read('src')).toBeUndefined();
    expect(await read('bin.dat')).toBeUndefined();
    expect(await read('missing.txt')).toBeUndefined();
    expect(await read(`../${join(scratch.root, 'outside.txt').split('/').at(-1)}`)).toBeUndefined();
  });

  it('follows a link only to a file inside the directory', async () => {
    const dir = await mkdtemp(join(scratch.root, 'ws-'));
    await writeFile(join(dir, 'real.txt'), 'inside\n');
    await writeFile(join(scratch.root, 'secret.env'), 'KEY=1\n');
    await symlink('real.txt', join(dir, 'alias.txt'));
    await symlink(join(scratch.root, 'secret.env'), join(dir, '.env'));
    await symlink('../secret.env', join(dir, 'up.env'));
    const read = readFilesFrom(dir);
    expect(await read('alias.txt')).toBe('inside\n');
    expect(await read('.env')).toBeUndefined();
    expect(await read('up.env')).toBeUndefined();
  });
});

describe('readWorkspace', () => {
  it("reads a capture's text files, not its binary files, links or files too large to seed", async () => {
    const read = readWorkspace({
      'a.txt': 'A\n',
      'b.bin': { base64: 'AAE=' },
      l: { symlink: 'a.txt' },
      'big.txt': 'x'.repeat(MAX_SEED_CHARS + 1),
    });
    expect(await read('a.txt')).toBe('A\n');
    expect(await read('b.bin')).toBeUndefined();
    expect(await read('l')).toBeUndefined();
    expect(await read('big.txt')).toBeUndefined();
    expect(await read('toString')).toBeUndefined();
  });
});
