// A grader that dies of an uncaught error still takes its running programs down with it.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCourse, makeScratch, processRunning, REPO, type Scratch } from '../course-fixture.ts';

let scratch: Scratch;

beforeAll(async () => {
  scratch = await makeScratch();
});

afterAll(async () => {
  await scratch.remove();
});

describe('the exit hook', () => {
  it.each(['sandbox', 'off'])(
    'kills the programs still running (%s) with all they started, and removes their temp dirs',
    async (how) => {
      const course = await makeCourse(scratch, 'hangs');
      const cases = ['course-bash-echo-hi', 'course-glob-everything'].map((n) =>
        join(REPO, 'cases', 'register-tools', `${n}.json`),
      );
      // Bash leaves a background sleep; Glob then hangs; the grader throws a second after Bash's line.
      const grader = join(REPO, 'test', 'fixtures', 'crashing-grader', 'grader.ts');
      const { exitCode, stderr } = await execa('node', ['--import', 'tsx/esm', grader, course, how, ...cases], {
        cwd: REPO,
        env: { PATH: process.env.PATH, TMPDIR: scratch.tmp, TSX_DISABLE_CACHE: '1' },
        reject: false,
      });
      expect(exitCode).toBe(1);
      expect(stderr).toContain('Error: a bug in the grader');
      expect(await readdir(scratch.tmp)).toEqual([]);
      expect(await processRunning('sleep 987654', course)).toBe(false);
    },
  );
});
