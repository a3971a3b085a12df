// A class's JUnit files as CI reads them: 200 submissions' reports, as the class run writes them (one file each,
// the submission's name and its file from where the grader ran), merged by junit-report-merger's CLI run as a
// process, then read as GitLab reads a JUnit report (gitlab lib/gitlab/ci/parsers/test/junit.rb: every testcase of
// every suite, keyed by classname and name, one test kept per key; failure or error text as the details).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { studentFileOf } from '../../../../src/cli/commands/test.ts';
import { renderReport } from '../../../../src/grade/report/index.ts';
import { REPO } from '../../../support/reference-course.ts';
import { previousRun } from './class-size-runs.ts';

const CLASS = Array.from({ length: 200 }, (_, i) => `student-${String(i).padStart(3, '0')}`);
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  isArray: (n) => n === 'testsuite' || n === 'testcase',
});

let dir = '';
let merged: { testsuites: { testsuite: Record<string, any>[] } };
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'theinference-class-junit-'));
  const { previous: _, ...run } = previousRun();
  for (const name of CLASS) {
    const xml = renderReport('junit', run, {
      color: false,
      submission: name,
      fileOf: studentFileOf(dir, join(dir, 'submissions', name)),
    });
    await writeFile(join(dir, `${name}.xml`), xml);
  }
  const jrm = await execa(join(REPO, 'node_modules/.bin/jrm'), ['merged.xml', '*.xml'], { cwd: dir });
  expect(jrm.exitCode).toBe(0);
  merged = parser.parse(await readFile(join(dir, 'merged.xml'), 'utf8'));
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("a class's JUnit, merged", () => {
  it('holds one suite per submission, named for it, with its file from where the grader ran', () => {
    const suites = merged.testsuites.testsuite;
    expect(suites.map((s) => s.name)).toEqual(CLASS);
    for (const s of suites) expect(s.file).toBe(`submissions/${s.name}/src/execute.ts`);
  });

  it('gives GitLab a key of its own for every test of every student: none is dropped as a duplicate', () => {
    const cases = merged.testsuites.testsuite.flatMap((s) => s.testcase);
    const keys = new Set(cases.map((c) => `${c.classname}_${c.name}`));
    expect(keys.size).toBe(cases.length);
    expect(cases.length).toBe(CLASS.length * previousRun().cases.length);
  });

  it("keeps the line an error thrown inside execute was thrown at, on the student's own file", () => {
    const suite = merged.testsuites.testsuite[7]!;
    const threw = suite.testcase.find((c: Record<string, any>) => c.failure?.['#text']?.includes('execute threw'));
    expect(threw.failure['#text']).toMatch(/ {4}at makeExecute \(submissions\/student-007\/src\/execute\.ts:17:1\)$/);
  });
});
