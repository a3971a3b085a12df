// The tsx cache: one per command whose processes run outside the sandbox, in the grader's temp dir, gone with it
// (so nothing a program writes there outlives the run); none for sandboxed processes, and none at all with
// TSX_DISABLE_CACHE.
import { existsSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openTsxCache } from '../../../../src/grade/run/isolation/tsx-cache.ts';
import { useScratch } from '../../course-fixture.ts';

const scratch = useScratch();
const env = process.env;

describe('openTsxCache', () => {
  it("makes a fresh directory in the grader's temp dir and removes it, and what was written in it, on close", async () => {
    const cache = await openTsxCache(env, false);
    expect(cache.dir?.startsWith(join(scratch.tmp, 'theinference-tsx-'))).toBe(true);
    await writeFile(join(cache.dir!, '1-written-by-a-program'), 'x'.repeat(1024));
    await cache.close();
    expect(existsSync(cache.dir!)).toBe(false);
  });

  it('gives two commands two caches', async () => {
    const [a, b] = [await openTsxCache(env, false), await openTsxCache(env, false)];
    expect(a.dir).not.toBe(b.dir);
    await Promise.all([a.close(), b.close()]);
  });

  it('gives none with TSX_DISABLE_CACHE', async () => {
    expect((await openTsxCache({ ...env, TSX_DISABLE_CACHE: '1' }, false)).dir).toBeUndefined();
  });

  it('gives none to sandboxed processes, and makes nothing', async () => {
    const before = await readdir(scratch.tmp);
    const cache = await openTsxCache(env, true);
    expect([cache.dir, await readdir(scratch.tmp)]).toEqual([undefined, before]);
    expect(await cache.close()).toBeUndefined();
  });
});
