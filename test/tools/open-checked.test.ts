// What a tool opens is what its path check approved. The check (sandbox-path.ts) looks at the path; a bash
// command running alongside can swap a symlink in before the tool opens it. Each case here stands the tool at
// the moment after the check: the path now leads elsewhere, and the opened file must be refused.
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openToRead, writeChecked } from '../../src/tools/open-checked.ts';
import { isFailure } from '../../src/tools/output.ts';
import { SECRET, useSandbox } from './temp-sandbox.ts';

const box = useSandbox();

// Resolves with the value, or rejects when it takes longer than `ms` (a FIFO open that blocked).
const within = <T>(ms: number, work: Promise<T>): Promise<T> =>
  Promise.race([work, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`blocked for ${ms} ms`)), ms))]);

describe('openToRead', () => {
  it('opens a file inside, and a link that stays inside', async () => {
    await box.seed({ 'a.txt': 'A', link: { symlink: 'a.txt' } });
    for (const path of ['a.txt', 'link']) {
      const handle = await openToRead(box.root, join(box.root, path), path);
      if (isFailure(handle)) throw new Error(handle.content);
      expect(await handle.readFile('utf8')).toBe('A');
      await handle.close();
    }
  });

  it('refuses a file that a link swapped in after the check leads outside to', async () => {
    await box.seed({ swapped: { symlink: '<outside>/secret.txt' } });
    expect(await openToRead(box.root, join(box.root, 'swapped'), 'swapped')).toEqual({
      content: 'Path escapes workspace: swapped',
      is_error: true,
    });
  });

  it('opens a FIFO swapped in for a file at once, and refuses it', async () => {
    execFileSync('mkfifo', [join(box.root, 'pipe')]);
    expect(await within(2000, openToRead(box.root, join(box.root, 'pipe'), 'pipe'))).toEqual({
      content: 'Not a regular file: pipe',
      is_error: true,
    });
  });
});

describe('writeChecked', () => {
  it('writes over a file inside', async () => {
    await box.seed({ 'a.txt': 'old contents' });
    expect(await writeChecked(box.root, join(box.root, 'a.txt'), 'a.txt', 'new')).toBeUndefined();
    expect(await readFile(join(box.root, 'a.txt'), 'utf8')).toBe('new');
  });

  it.each([false, true])(
    'refuses, without emptying it, a file outside that a swapped-in link leads to (create: %s)',
    async (create) => {
      await box.seed({ swapped: { symlink: '<outside>/secret.txt' } });
      expect(await writeChecked(box.root, join(box.root, 'swapped'), 'swapped', 'pwned', create)).toEqual({
        content: 'Path escapes workspace: swapped',
        is_error: true,
      });
      expect(await readFile(join(box.outside, 'secret.txt'), 'utf8')).toBe(SECRET);
    },
  );

  it('refuses a FIFO swapped in for a file at once, without waiting for a reader', async () => {
    execFileSync('mkfifo', [join(box.root, 'pipe')]);
    expect(await within(2000, writeChecked(box.root, join(box.root, 'pipe'), 'pipe', 'x'))).toEqual({
      content: 'Not a regular file: pipe',
      is_error: true,
    });
  });
});
