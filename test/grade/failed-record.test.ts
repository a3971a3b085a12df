// The record `--failed` reads: written whole, read back, and nothing when it is missing or damaged; never written
// or read through a link, and never one course's record read as another's.
import { execFileSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { failedRecordPath, readFailures, recordFailures } from '../../src/grade/failed-record.ts';
import type { CaseResult, RunReport } from '../../src/grade/types.ts';

let dir: string;

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'theinference-failed-record-')));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const result = (name: string, status: 'pass' | 'fail'): CaseResult => ({
  name,
  description: '',
  status,
  durationMs: 1,
  output: '',
});
const report = (cases: CaseResult[]): RunReport => ({
  stage: 'register-tools',
  dir,
  cases,
  passed: 0,
  failed: 0,
  durationMs: 1,
});

it('keeps the sorted names of the failures under node_modules/.cache/theinference/, one file per stage', async () => {
  expect(await recordFailures(report([result('b', 'fail'), result('p', 'pass'), result('a', 'fail')]))).toBe(true);
  expect(failedRecordPath(dir, 'register-tools')).toBe(
    join(dir, 'node_modules', '.cache', 'theinference', 'failed-register-tools.json'),
  );
  expect(await readFile(failedRecordPath(dir, 'register-tools'), 'utf8')).toBe(
    `{\n  "dir": ${JSON.stringify(dir)},\n  "failed": [\n    "a",\n    "b"\n  ]\n}\n`,
  );
  expect(await readFailures(dir, 'register-tools')).toEqual(['a', 'b']);
  expect(await readFailures(dir, 'another-stage')).toBeUndefined();
});

it('reads nothing from a damaged record', async () => {
  await mkdir(dirname(failedRecordPath(dir, 'register-tools')), { recursive: true });
  for (const text of [`{ "dir": ${JSON.stringify(dir)}, "failed": [1] }`, '[]', '{ not json']) {
    await writeFile(failedRecordPath(dir, 'register-tools'), text);
    expect(await readFailures(dir, 'register-tools'), text).toBeUndefined();
  }
});

it('reads nothing, at once, from a FIFO at the record’s name', async () => {
  await mkdir(dirname(failedRecordPath(dir, 'register-tools')), { recursive: true });
  execFileSync('mkfifo', [failedRecordPath(dir, 'register-tools')]);
  expect(await readFailures(dir, 'register-tools')).toBeUndefined();
});

it('says false, throwing nothing, when the record cannot be written', async () => {
  await writeFile(join(dir, 'node_modules'), 'a file where the directory goes');
  expect(await recordFailures(report([result('a', 'fail')]))).toBe(false);
});

it('keeps the failures on record of the cases a run did not grade (a --case run), and drops those it passed', async () => {
  await recordFailures(report([result('a', 'fail'), result('b', 'fail'), result('c', 'fail')]));
  await recordFailures(report([result('a', 'pass'), result('d', 'fail')]));
  expect(await readFailures(dir, 'register-tools')).toEqual(['b', 'c', 'd']);
});

it.each<[string, (other: string) => Promise<void>]>([
  [
    "node_modules is a link to another course's",
    (other) => symlink(join(other, 'node_modules'), join(dir, 'node_modules')),
  ],
  [
    'node_modules/.cache is a link',
    async (other) => {
      await mkdir(join(dir, 'node_modules'));
      await symlink(join(other, 'node_modules', '.cache'), join(dir, 'node_modules', '.cache'));
    },
  ],
])('writes nothing, and reads nothing, when %s', async (_, arrange) => {
  const other = await mkdtemp(join(tmpdir(), 'theinference-failed-record-other-'));
  try {
    await mkdir(join(other, 'node_modules', '.cache', 'theinference'), { recursive: true });
    await arrange(other);
    expect(await recordFailures(report([result('a', 'fail')]))).toBe(false);
    expect(await readdir(join(other, 'node_modules', '.cache', 'theinference'))).toEqual([]);
    await writeFile(
      join(other, 'node_modules', '.cache', 'theinference', 'failed-register-tools.json'),
      JSON.stringify({ dir, failed: ['a'] }),
    );
    expect(await readFailures(dir, 'register-tools')).toBeUndefined();
  } finally {
    await rm(other, { recursive: true, force: true });
  }
});

it('gives up at once on a node_modules linked to /proc (a recursive mkdir there never returns)', async () => {
  await symlink('/proc', join(dir, 'node_modules'));
  expect(await recordFailures(report([result('a', 'fail')]))).toBe(false);
  expect(await readFailures(dir, 'register-tools')).toBeUndefined();
});

it("replaces a link left at the record's own name, never writing through it", async () => {
  const outside = join(dir, 'outside.json');
  await writeFile(outside, 'untouched');
  await mkdir(dirname(failedRecordPath(dir, 'register-tools')), { recursive: true });
  await symlink(outside, failedRecordPath(dir, 'register-tools'));
  expect(await recordFailures(report([result('a', 'fail')]))).toBe(true);
  expect(await readFile(outside, 'utf8')).toBe('untouched');
  expect(await readFailures(dir, 'register-tools')).toEqual(['a']);
});

it("does not read a record copied from another course directory as this one's", async () => {
  expect(await recordFailures(report([result('a', 'fail')]))).toBe(true);
  const copy = `${dir}-copy`;
  await cp(dir, copy, { recursive: true });
  try {
    expect(await readFailures(copy, 'register-tools')).toBeUndefined();
  } finally {
    await rm(copy, { recursive: true, force: true });
  }
});
