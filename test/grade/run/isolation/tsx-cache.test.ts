// The tsx caches: a command's own, gone with it; a course's, kept between runs but read only by a run of the very
// same files in the same directory (an edit, another course or a fresh copy of the same code each get another),
// and pruned to the course's last few versions once they are an hour old.
import { existsSync } from 'node:fs';
import { cp, readdir, utimes, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isCourseCache, openCourseCache, openTsxCache } from '../../../../src/grade/run/isolation/tsx-cache.ts';
import { makeCourse, useScratch } from '../../course-fixture.ts';

const scratch = useScratch();
const env = process.env;

describe('openTsxCache', () => {
  it("makes a fresh directory in the grader's temp dir and removes it on close", async () => {
    const cache = await openTsxCache(env);
    expect(cache.dir?.startsWith(join(scratch.tmp, 'theinference-tsx-'))).toBe(true);
    expect(isCourseCache(basename(cache.dir!))).toBe(false);
    await cache.close();
    expect(existsSync(cache.dir!)).toBe(false);
  });
});

describe('openCourseCache', () => {
  it('gives the same sources in the same directory the same cache, and keeps it', async () => {
    const dir = await makeCourse(scratch);
    const first = await openCourseCache(dir, env);
    await first.close();
    const again = await openCourseCache(dir, env);
    expect(again.dir).toBe(first.dir);
    expect(isCourseCache(basename(first.dir!))).toBe(true);
    expect(existsSync(first.dir!)).toBe(true);
  });

  it('gives an edit, another course directory, and a fresh copy of the same files each a cache of their own', async () => {
    const dir = await makeCourse(scratch);
    const before = (await openCourseCache(dir, env)).dir;
    await writeFile(join(dir, 'src', 'extra.ts'), 'export const x = 1;\n');
    const edited = (await openCourseCache(dir, env)).dir;
    const copy = join(scratch.root, 'courses', 'copy');
    await cp(dir, copy, { recursive: true, verbatimSymlinks: true });
    const copied = (await openCourseCache(copy, env)).dir;
    expect(new Set([before, edited, copied]).size).toBe(3);
  });

  it('gives none with TSX_DISABLE_CACHE', async () => {
    expect((await openCourseCache(await makeCourse(scratch), { ...env, TSX_DISABLE_CACHE: '1' })).dir).toBeUndefined();
  });

  it("prunes the course's caches but the two most recent once they are an hour old, and leaves other courses' alone", async () => {
    const dir = await makeCourse(scratch);
    const other = (await openCourseCache(await makeCourse(scratch), env)).dir!;
    const versions: string[] = [];
    for (let v = 0; v < 4; v += 1) {
      await writeFile(join(dir, 'src', 'version.ts'), `export const v = ${v};\n`);
      versions.push((await openCourseCache(dir, env)).dir!);
    }
    const hoursAgo = (h: number) => new Date(Date.now() - h * 3600 * 1000);
    for (const [k, cache] of versions.entries()) await utimes(cache, hoursAgo(5 - k), hoursAgo(5 - k));
    await utimes(other, hoursAgo(9), hoursAgo(9));
    await (await openCourseCache(dir, env)).close();
    const left = new Set(await readdir(scratch.tmp));
    // The last open is version 3 itself: it and the one before it stay.
    expect(versions.map((c) => left.has(basename(c)))).toEqual([false, false, true, true]);
    expect(left.has(basename(other))).toBe(true);
  });
});
