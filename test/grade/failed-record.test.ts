// The record `--failed` reads: written whole, read back, and nothing when it is missing or damaged.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { failedRecordPath, readFailures, recordFailures } from '../../src/grade/failed-record.ts';
import type { CaseResult, RunReport } from '../../src/grade/types.ts';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'theinference-failed-record-'));
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
    '{\n  "failed": [\n    "a",\n    "b"\n  ]\n}\n',
  );
  expect(await readFailures(dir, 'register-tools')).toEqual(['a', 'b']);
  expect(await readFailures(dir, 'another-stage')).toBeUndefined();
});

it('reads nothing from a damaged record', async () => {
  await mkdir(dirname(failedRecordPath(dir, 'register-tools')), { recursive: true });
  for (const text of ['{ "failed": [1] }', '[]', '{ not json']) {
    await writeFile(failedRecordPath(dir, 'register-tools'), text);
    expect(await readFailures(dir, 'register-tools'), text).toBeUndefined();
  }
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
