import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Tools } from '../../src/tools/index.ts';
import { isInside, sandboxPath } from '../../src/tools/sandbox-path.ts';
import { type Seed, useSandbox } from './temp-sandbox.ts';

const box = useSandbox();

const escapes = (path: string) => ({ content: `Path escapes workspace: ${path}`, is_error: true });

describe('sandboxPath: allowed', () => {
  const rows: Array<{ name: string; files: Seed; path: string; resolved: string }> = [
    { name: 'a relative path', files: {}, path: 'a.txt', resolved: 'a.txt' },
    { name: 'a path not there yet', files: {}, path: 'new/dir/x.txt', resolved: 'new/dir/x.txt' },
    { name: 'the empty path is the root', files: {}, path: '', resolved: '' },
    { name: '. is the root', files: {}, path: '.', resolved: '' },
    { name: '.. that stays inside', files: {}, path: 'a/../b.txt', resolved: 'b.txt' },
    { name: 'a name starting with ..', files: {}, path: '..foo', resolved: '..foo' },
    { name: 'a symlink to a file inside', files: { 'a.txt': '', l: { symlink: 'a.txt' } }, path: 'l', resolved: 'l' },
    { name: 'a symlinked directory inside', files: { 'd/x': '', l: { symlink: 'd' } }, path: 'l/x', resolved: 'l/x' },
    { name: 'a dangling symlink to inside', files: { l: { symlink: 'later.txt' } }, path: 'l', resolved: 'l' },
    {
      name: 'a chain of symlinks inside',
      files: { 'a.txt': '', l1: { symlink: 'l2' }, l2: { symlink: 'a.txt' } },
      path: 'l1',
      resolved: 'l1',
    },
    { name: 'below a file (the tool reports it)', files: { 'a.txt': '' }, path: 'a.txt/x', resolved: 'a.txt/x' },
  ];
  it.each(rows)('$name', async ({ files, path, resolved }) => {
    await box.seed(files);
    expect(await sandboxPath(box.root, path)).toBe(join(box.root, resolved));
  });

  it('an absolute path inside', async () => {
    expect(await sandboxPath(box.root, join(box.root, 'x/y'))).toBe(join(box.root, 'x/y'));
  });
});

describe('sandboxPath: escapes', () => {
  const rows: Array<{ name: string; files: Seed; path: string }> = [
    { name: '..', files: {}, path: '..' },
    { name: '../ to a sibling', files: {}, path: '../outside/secret.txt' },
    { name: '.. deeper down', files: {}, path: 'a/b/../../../outside' },
    { name: 'an absolute path outside', files: {}, path: '/etc/passwd' },
    { name: 'the filesystem root', files: {}, path: '/' },
    { name: 'a seeded symlink to a file outside', files: { s: { symlink: '<outside>/secret.txt' } }, path: 's' },
    { name: 'a seeded symlink to a directory outside', files: { o: { symlink: '<outside>' } }, path: 'o/secret.txt' },
    {
      name: 'a symlinked parent directory, new file below',
      files: { o: { symlink: '<outside>' } },
      path: 'o/new/x.txt',
    },
    { name: 'a relative symlink leading out', files: { 'd/o': { symlink: '../../outside' } }, path: 'd/o/secret.txt' },
    { name: 'a dangling symlink leading out', files: { d: { symlink: '<outside>/not-yet.txt' } }, path: 'd' },
    {
      name: 'a chain whose last link leads out',
      files: { l1: { symlink: 'l2' }, l2: { symlink: '<outside>' } },
      path: 'l1/secret.txt',
    },
    { name: 'a symlink to /', files: { r: { symlink: '/' } }, path: 'r/etc/passwd' },
    { name: 'a symlink loop (more than 40 links)', files: { loop: { symlink: 'loop' } }, path: 'loop' },
  ];
  it.each(rows)('$name', async ({ files, path }) => {
    await box.seed(files);
    expect(await sandboxPath(box.root, path)).toEqual(escapes(path));
  });

  it('an absolute path outside, named as sent', async () => {
    const path = join(box.outside, 'secret.txt');
    expect(await sandboxPath(box.root, path)).toEqual(escapes(path));
  });

  it('a sibling whose name starts with the sandbox name', async () => {
    await mkdir(`${box.root}-evil`);
    expect(await sandboxPath(box.root, `${box.root}-evil/x`)).toEqual(escapes(`${box.root}-evil/x`));
  });
});

describe('sandbox through every tool', () => {
  it('a symlink made by bash', async () => {
    await box.tools.bash(`ln -s '${box.outside}' made`);
    expect(await box.tools.view('made/secret.txt')).toEqual(escapes('made/secret.txt'));
    expect(await box.tools.create('made/x.txt', 'x')).toEqual(escapes('made/x.txt'));
    expect(await box.tools.strReplace('made/secret.txt', 'top', 'x')).toEqual(escapes('made/secret.txt'));
    expect(await box.tools.insert('made/secret.txt', 0, 'x')).toEqual(escapes('made/secret.txt'));
    expect(await box.tools.glob('*', 'made')).toEqual(escapes('made'));
    expect(await box.tools.grep('secret', 'made')).toEqual(escapes('made'));
    expect(await box.readOutside('secret.txt')).toBe('top secret\n');
    expect(await box.readOutside('x.txt')).toBeNull();
  });
});

describe('a sandbox reached through a symlink', () => {
  it('accepts the sandbox spelled either way, and answers in the spelling it was given', async () => {
    // <base>/via -> <base>/sandbox: the Tools know the sandbox as <base>/via; bash's pwd prints the real path.
    const via = join(box.root, '..', 'via');
    await symlink(box.root, via);
    await box.seed({ 'a.txt': 'A' });
    const tools = new Tools(via);
    expect(await sandboxPath(via, join(box.root, 'a.txt'))).toBe(join(via, 'a.txt'));
    expect(await tools.view(join(box.root, 'a.txt'))).toEqual({ content: '1: A' });
    expect(await tools.grep('A', join(box.root, 'a.txt'))).toEqual({ content: 'a.txt:1: A' });
    expect(await tools.view(join(via, '..', 'outside', 'secret.txt'))).toEqual(
      escapes(join(via, '..', 'outside', 'secret.txt')),
    );
  });
});

describe('isInside', () => {
  const rows: Array<[string, string, boolean]> = [
    ['/a/b', '/a/b', true],
    ['/a/b', '/a/b/c', true],
    ['/a/b', '/a/b/..c', true],
    ['/a/b', '/a', false],
    ['/a/b', '/a/bc', false],
    ['/a/b', '/x', false],
  ];
  it.each(rows)('%s contains %s: %s', (parent, child, inside) => {
    expect(isInside(parent, child)).toBe(inside);
  });
});
