// The submissions of a class run: which --dir values make one, globs expanded to directories only, names unique.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSubmissions, isClass } from '../../../src/cli/commands/submissions.ts';
import { HarnessError } from '../../../src/errors.ts';

let root = '';
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'theinference-submissions-'));
  for (const dir of ['subs/bob', 'subs/alice', 'subs/.git', 'a/x', 'b/x', 'c/p-q', 'c/p/q']) {
    await mkdir(join(root, dir), { recursive: true });
  }
  await writeFile(join(root, 'subs', 'notes.txt'), 'not a submission');
  await symlink(join(root, 'a'), join(root, 'subs', 'linked'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const names = async (dirs: string[]) =>
  (await findSubmissions(root, dirs)).map((s) => [s.name, s.dir.slice(root.length + 1)]);

describe('isClass', () => {
  it.each([
    [[], false],
    [['course'], false],
    [['a', 'b'], true],
    [['subs/*'], true],
    [['subs/{a,b}'], true],
  ])('%j: %s', (dirs, expected) => expect(isClass(dirs)).toBe(expected));
});

describe('findSubmissions', () => {
  it('expands a glob to the directories it matches, in name order: no files, no links, no hidden ones', async () => {
    expect(await names(['subs/*'])).toEqual([
      ['alice', 'subs/alice'],
      ['bob', 'subs/bob'],
    ]);
  });

  it('keeps a name holding a backslash as it is', async () => {
    await mkdir(join(root, 'odd', 'a\\b'), { recursive: true });
    expect(await names(['odd/*'])).toEqual([['a\\b', 'odd/a\\b']]);
  });

  it('takes a --dir naming a directory as it is literally, glob characters and backslash alike: one submission', async () => {
    for (const dir of ['odd/c\\d', 'odd/sub[1]']) {
      await mkdir(join(root, dir), { recursive: true });
      expect(isClass([dir], root)).toBe(false);
      expect(await names([dir])).toEqual([[dir.slice(4), dir]]);
    }
    // A pattern that names no directory as it is stays a pattern.
    await mkdir(join(root, 'odd', 'sub1'), { recursive: true });
    expect(isClass(['odd/sub[12]'], root)).toBe(true);
    expect(await names(['odd/sub[12]'])).toEqual([['sub1', 'odd/sub1']]);
  });

  it('keeps each directory once, however many --dir name it', async () => {
    expect(await names(['subs/bob', 'subs/*', './subs/bob/'])).toEqual([
      ['alice', 'subs/alice'],
      ['bob', 'subs/bob'],
    ]);
  });

  it('names submissions that share a base name by their paths from the directory holding them all', async () => {
    expect(await names(['a/x', 'b/x'])).toEqual([
      ['a-x', 'a/x'],
      ['b-x', 'b/x'],
    ]);
  });

  it('refuses two submissions whose names would still be the same', async () => {
    const error = await findSubmissions(root, ['c/p-q', 'c/p/q', 'a/q']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).message).toMatch(
      /^--dir .*c\/p-q and .*c\/p\/q would both be named "c-p-q" in the reports/,
    );
  });

  it('refuses a glob that matches no directory', async () => {
    const error = await findSubmissions(root, ['nothing/*']).catch((e: unknown) => e);
    expect((error as HarnessError).message).toMatch(/^--dir "nothing\/\*" matches no directory/);
  });
});
