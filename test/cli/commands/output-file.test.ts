// --output is checked before any case runs: a name the report can be written to, or a message saying why not; and
// whatever was at that name is gone before the run, so that a run without a report leaves none there.
import { existsSync } from 'node:fs';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkOutputFile, clearOutputFile } from '../../../src/cli/commands/output-file.ts';
import { HarnessError } from '../../../src/errors.ts';
import { useScratch } from '../../grade/course-fixture.ts';

const scratch = useScratch();

describe('checkOutputFile', () => {
  it('gives the absolute path of a file in an existing directory, new or not', async () => {
    expect(await checkOutputFile(scratch.root, 'results.xml')).toBe(join(scratch.root, 'results.xml'));
    await writeFile(join(scratch.root, 'old.xml'), 'x');
    expect(await checkOutputFile(scratch.root, 'old.xml')).toBe(join(scratch.root, 'old.xml'));
  });

  it.each<[string, (root: string) => Promise<string>, RegExp]>([
    ['an empty name', async () => '', /^--output "" is empty: give the report a file name/],
    [
      'a directory',
      async () => 'courses',
      /^--output "courses" is a directory: give a file in it, e\.g\. --output "courses\/results\.xml"/,
    ],
    [
      'a missing parent',
      async () => 'nowhere/results.xml',
      /^--output "nowhere\/results\.xml" is in .*nowhere, which does not exist: create it first/,
    ],
    [
      'a parent that is a file',
      async (root) => {
        await writeFile(join(root, 'plain'), 'x');
        return 'plain/results.xml';
      },
      /is in .*plain, which is not a directory/,
    ],
  ])('refuses %s', async (_, name, message) => {
    await mkdir(join(scratch.root, 'courses'), { recursive: true });
    const error = await checkOutputFile(scratch.root, await name(scratch.root)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).message).toMatch(message);
  });
});

describe('clearOutputFile', () => {
  it('removes an earlier report, and a link in its place without touching what it points at', async () => {
    const earlier = join(scratch.root, 'earlier.xml');
    await writeFile(earlier, '<forged/>');
    await clearOutputFile(earlier);
    expect(existsSync(earlier)).toBe(false);
    const target = join(scratch.root, 'target.txt');
    await writeFile(target, 'kept');
    await symlink(target, join(scratch.root, 'linked.xml'));
    await clearOutputFile(join(scratch.root, 'linked.xml'));
    expect(existsSync(join(scratch.root, 'linked.xml'))).toBe(false);
    expect(await readFile(target, 'utf8')).toBe('kept');
    await clearOutputFile(join(scratch.root, 'never-there.xml'));
  });
});
