// Issue 9's attacks on what a verdict is judged against (attacks 1–3): reading the snapshots, rewriting them, and
// poisoning the tsx transform cache. Each hostile course runs under --isolation required, where the attack must
// fail and nothing of the grader is read or changed; and under --isolation off, where it works: the proof that the
// fixture is a real attack and that the sandbox is what stops it. The attacks that write run against a copy of the
// package installed in the course (node_modules/theinference, as `npm install` puts it), never this repository.
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AS_ITSELF } from '../../../support/isolation.ts';
import { makeCourse, makeInstalledCourse, REPO, useScratch } from '../../course-fixture.ts';
import { tsxCacheName } from '../../../../src/grade/run/isolation/tsx-cache.ts';
import { BIN, COURSE_CASES, digestTree, grade, jsonTests, survivorsIn, theinference } from './hostile-course.ts';

const scratch = useScratch();
// Nothing a run started survives it: no process is left working in any of this file's courses.
afterEach(async () => expect(await survivorsIn(join(scratch.root, 'courses'))).toEqual([]));
const JSON_REPORT = [...COURSE_CASES, '--reporter', 'json'];

// What each case printed, joined: the attack reports what it managed on stderr.
const outputs = (stdout: string): string => [...jsonTests(stdout).values()].map((t) => t.output ?? '').join('\n');

describe('attack 1: answering from the snapshots instead of routing calls', () => {
  it('finds no snapshot in the sandbox, next to this repository or installed in the course, so every case fails', async () => {
    const beside = await grade(BIN, await makeCourse(scratch, 'hostile-reads-snapshots'), 'required', JSON_REPORT);
    const installed = await makeInstalledCourse(scratch, 'hostile-reads-snapshots');
    const inside = await grade(installed.bin, installed.dir, 'required', JSON_REPORT);
    for (const run of [beside, inside]) {
      expect(run.exitCode).toBe(1);
      expect([...jsonTests(run.stdout).values()].map((t) => t.status)).toEqual(['fail', 'fail', 'fail']);
      expect(outputs(run.stdout)).toContain('[attack] snapshot files read: 0');
    }
  });

  it('passes cases with no tool at all without the sandbox: the attack is real', async () => {
    const run = await grade(BIN, await makeCourse(scratch, 'hostile-reads-snapshots'), 'off', JSON_REPORT);
    expect(outputs(run.stdout)).toMatch(/\[attack\] snapshot files read: [1-9]\d*/);
    // (Glob "**" is in several cases with different answers: the lookup by call alone gets that one wrong.)
    expect([...jsonTests(run.stdout).values()].filter((t) => t.status === 'pass').length).toBeGreaterThanOrEqual(2);
  });
});

describe('attack 2: rewriting the snapshots so that the next run passes', () => {
  it('changes no snapshot in the sandbox: the second run fails as the first did', async () => {
    const { dir, bin } = await makeInstalledCourse(scratch, 'hostile-rewrites-snapshots');
    const snapshots = join(dir, 'node_modules', 'theinference', 'snapshots');
    const before = [await digestTree(snapshots), await digestTree(join(REPO, 'snapshots'))];
    for (const run of [
      await grade(bin, dir, 'required', JSON_REPORT),
      await grade(bin, dir, 'required', JSON_REPORT),
    ]) {
      expect(run.exitCode).toBe(1);
      expect(outputs(run.stdout)).toContain('[attack] snapshot files rewritten: 0');
    }
    expect([await digestTree(snapshots), await digestTree(join(REPO, 'snapshots'))]).toEqual(before);
  });

  it.runIf(AS_ITSELF)('makes the second run pass without the sandbox: the attack is real', async () => {
    const { dir, bin } = await makeInstalledCourse(scratch, 'hostile-rewrites-snapshots');
    // The first run's verdict is not asserted: without the sandbox, whether the grader has read a snapshot before
    // the attack rewrites it is a race the load on the machine decides. The rewrite and the second run are not.
    const first = await grade(bin, dir, 'off', JSON_REPORT);
    expect(outputs(first.stdout)).toMatch(/\[attack\] snapshot files rewritten: [1-9]\d*/);
    expect((await grade(bin, dir, 'off', JSON_REPORT)).exitCode).toBe(0);
  });
});

describe("attack 3: poisoning the tsx transform cache that a later run (the grader's own, the reference's) reads", () => {
  // The installed copy runs the grader from its sources through tsx, so the grader has a cache of its own in
  // the temp dir: <TMPDIR>/tsx-<euid>. The run's processes share one of the run's own (theinference-tsx-<random>).
  const graderCache = (): string => join(scratch.tmp, tsxCacheName());
  const poisonedIn = async (cache: string): Promise<number> => {
    let found = 0;
    for (const entry of await readdir(cache).catch(() => [])) {
      if ((await readFile(join(cache, entry), 'utf8')).includes('poisoned by a student')) found += 1;
    }
    return found;
  };

  it("reaches only its own run's cache in the sandbox, gone with the run: the grader's stays clean, and so the reference runs clean", async () => {
    const hostile = await makeInstalledCourse(scratch, 'hostile-poisons-tsx-cache');
    const run = await grade(hostile.bin, hostile.dir, 'required', JSON_REPORT);
    expect(run.exitCode).toBe(1);
    // It found a cache to poison (its run's, which its later processes compile through)…
    expect(outputs(run.stdout)).toMatch(/\[attack\] cache entries poisoned: [1-9]\d* in \$TMPDIR\/tsx-/);
    // …and nothing else: nothing of the run's cache is left (useScratch checks the temp dir after each test), the
    // grader's cache is clean, and the grader (from its sources, through that cache) and the reference (in this
    // repository, through a cache of its own) run clean.
    expect((await readdir(graderCache())).length).toBeGreaterThan(0);
    expect(await poisonedIn(graderCache())).toBe(0);
    const check = await theinference(BIN, REPO, ['snapshot', '--stage', 'register-tools', '--check', ...COURSE_CASES]);
    expect([check.exitCode, check.stdout.trim().split('\n').at(-1)]).toEqual([0, '3 up to date']);
  });

  it.runIf(AS_ITSELF)("poisons the grader's own cache without the sandbox: the attack is real", async () => {
    const hostile = await makeInstalledCourse(scratch, 'hostile-poisons-tsx-cache');
    try {
      await grade(hostile.bin, hostile.dir, 'off', JSON_REPORT);
      expect(await poisonedIn(graderCache())).toBeGreaterThan(0);
    } finally {
      await rm(graderCache(), { recursive: true, force: true });
    }
  });
});
