// An edited program.ts is named, with the command that restores the course's.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { programEdited } from '../../../src/grade/judge/program-edited.ts';

let dir: string;
let root: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'theinference-program-edited-'));
  root = join(dir, 'node_modules', 'theinference');
  await mkdir(root, { recursive: true });
  await writeFile(join(root, 'program.ts'), 'the course driver\n');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

it("says nothing while program.ts is the course's", async () => {
  await writeFile(join(dir, 'program.ts'), 'the course driver\n');
  expect(await programEdited(dir, root)).toBeUndefined();
});

it('names an edited program.ts and how to restore it', async () => {
  await writeFile(join(dir, 'program.ts'), 'the course driver\nconsole.log("debug");\n');
  expect(await programEdited(dir, root)).toBe(
    "program.ts is not the course's (node_modules/theinference/program.ts): the grader runs it to grade your code, and an edited copy can fail every case. Restore it: cp node_modules/theinference/program.ts program.ts",
  );
});

it('says nothing when there is no program.ts to compare (that is reported on its own)', async () => {
  expect(await programEdited(dir, root)).toBeUndefined();
});
