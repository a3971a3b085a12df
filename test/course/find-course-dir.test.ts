// A run started below the course directory grades the course directory, as git and npm find theirs.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { courseDirFor, findCourseDir } from '../../src/course/find-course-dir.ts';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'theinference-find-course-'));
  await mkdir(join(root, 'course', 'src', 'tools'), { recursive: true });
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const files = (...paths: string[]) => Promise.all(paths.map((p) => writeFile(join(root, p), '')));

it('is the nearest directory above with program.ts and a package.json', async () => {
  await files('course/program.ts', 'course/package.json', 'course/src/package.json');
  expect(findCourseDir(join(root, 'course', 'src', 'tools'))).toBe(join(root, 'course'));
  expect(findCourseDir(join(root, 'course'))).toBe(join(root, 'course'));
});

it('passes a program.ts without a package.json for one further up that has both', async () => {
  await files('program.ts', 'package.json', 'course/program.ts');
  expect(findCourseDir(join(root, 'course', 'src'))).toBe(root);
});

it('takes the nearest program.ts when none has a package.json beside it (its package.json problem is then named)', async () => {
  await files('course/program.ts');
  expect(findCourseDir(join(root, 'course', 'src'))).toBe(join(root, 'course'));
});

it('is where it started when nothing above is a course directory', () => {
  expect(findCourseDir(join(root, 'course', 'src'))).toBe(join(root, 'course', 'src'));
});

it('--dir wins, from the working directory', async () => {
  await files('course/program.ts', 'course/package.json');
  expect(courseDirFor(join(root, 'course', 'src'), '../..')).toBe(root);
  expect(courseDirFor(join(root, 'course', 'src'), undefined)).toBe(join(root, 'course'));
});
