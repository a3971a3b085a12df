// A program.ts that is not the course's is named in one line, with the command that restores it.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { programNote } from '../../src/grade/program-note.ts';

let dir: string;
let root: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'theinference-program-note-'));
  root = join(dir, 'node_modules', 'theinference');
  await mkdir(root, { recursive: true });
  await writeFile(join(root, 'program.ts'), 'the course driver\n');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

it("says nothing while program.ts is the course's", async () => {
  await writeFile(join(dir, 'program.ts'), 'the course driver\n');
  expect(await programNote(dir, root)).toBeUndefined();
});

it("names a program.ts that is not the course's, says it changes nothing, and how to restore it", async () => {
  await writeFile(join(dir, 'program.ts'), 'the course driver\nconsole.log("debug");\n');
  expect(await programNote(dir, root)).toBe(
    "program.ts is not the course's: the grader never runs it (it runs its own driver), so it changes nothing of this grade. To run cases by hand as the grader does, restore it: cp node_modules/theinference/program.ts program.ts",
  );
});

it('says nothing when there is no program.ts to compare (that is reported on its own)', async () => {
  expect(await programNote(dir, root)).toBeUndefined();
});

it('reads a program.ts that is not a regular file as nothing (a link to /dev/zero never hangs it)', async () => {
  await symlink('/dev/zero', join(dir, 'program.ts'));
  expect(await programNote(dir, root)).toBeUndefined();
});
