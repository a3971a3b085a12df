// The real binary, `node bin/theinference.js …`, for end-to-end tests: run in a scratch area whose tmp/ is the
// grader's TMPDIR, without colour, and checked after each test to have left no temp dir behind.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { makeScratch, REPO, type Scratch } from '../grade/course-fixture.ts';

const BIN = join(REPO, 'bin', 'theinference.js');

// Hooks for one test file, and the runner: `scratch` is filled in before the tests run.
export function useBinary() {
  const scratch = {} as Scratch;
  beforeAll(async () => {
    Object.assign(scratch, await makeScratch());
  });
  afterEach(async () => {
    expect(await readdir(scratch.tmp)).toEqual([]);
  });
  afterAll(async () => {
    await scratch.remove();
  });
  // The grader's own tsx cache would land in its TMPDIR; it is not what these tests look for.
  const env = () => ({ NO_COLOR: '1', TMPDIR: scratch.tmp, TSX_DISABLE_CACHE: '1' });
  const theinference = (args: string[], cwd = REPO) =>
    execa('node', [BIN, ...args], { cwd, env: env(), reject: false });
  return { scratch, env, theinference };
}
