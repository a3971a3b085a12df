// The real binary, each CI reporter, on the reference solution (this repository) and on a course directory
// whose dispatcher forgot the `Read` alias: exit codes, and output that the format's consumer accepts.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { Parser, type FinalResults, type Result } from 'tap-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNTRUSTED_PREFIX } from '../../../src/grade/report/workflow-command.ts';
import { readLog } from './workflow-log.ts';
import { REPO, writeReferenceCourse } from '../../support/reference-course.ts';

const STAGE = 'register-tools';
// A case that reads a seeded file through `Read`: it fails when the alias is missing.
const READ_CASE = 'course-read-seeded-file';

let scratch: string;
let wrongCourse: string;
let caseCount: number;

beforeAll(async () => {
  caseCount = (await readdir(join(REPO, 'cases', STAGE))).filter((f) => f.endsWith('.json')).length;
  scratch = await mkdtemp(join(tmpdir(), 'theinference-reporters-e2e-'));
  // The grader's temp dir too: the course caches its runs keep go with the scratch area.
  await mkdir(join(scratch, 'tmp'));
  wrongCourse = join(scratch, 'course');
  await writeReferenceCourse(wrongCourse);
  const execute = await readFile(join(REPO, 'src', 'execute.ts'), 'utf8');
  const withoutRead = execute.replace(/^\s*case 'Read':\n/m, '');
  expect(withoutRead).not.toBe(execute);
  await writeFile(join(wrongCourse, 'src', 'execute.ts'), withoutRead);
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

// The course page's three examples, one of them a Read: a quick run that fails without the alias.
const COURSE_EXAMPLES = ['--case', 'course-*'];

// Runs the grader; a generous per-case timeout keeps a busy machine from turning a pass into a timeout.
async function grade(dir: string, reporter: string, ...extra: string[]) {
  const args = [
    'bin/theinference.js',
    'test',
    '--stage',
    STAGE,
    '--dir',
    dir,
    '--reporter',
    reporter,
    '--timeout',
    '60000',
    ...extra,
  ];
  return execa('node', args, {
    cwd: REPO,
    reject: false,
    stripFinalNewline: false,
    env: { NO_COLOR: '1', TMPDIR: join(scratch, 'tmp') },
  });
}

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  trimValues: false,
  htmlEntities: true,
  isArray: (name) => ['testsuite', 'testcase', 'failure', 'error'].includes(name),
});

function tap(text: string): { asserts: Result[]; extra: string[]; final: FinalResults } {
  const parser = new Parser({ strict: true });
  const out = { asserts: [] as Result[], extra: [] as string[], final: undefined as unknown as FinalResults };
  parser.on('assert', (r: Result) => out.asserts.push(r));
  parser.on('extra', (e: string) => out.extra.push(e));
  parser.on('complete', (f: FinalResults) => (out.final = f));
  parser.end(text);
  return out;
}

describe('json reporter, end to end', () => {
  it('passes the reference: exit 0, status pass, every case', async () => {
    const run = await grade(REPO, 'json');
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect([report.version, report.status, report.stage, report.passed, report.failed]).toEqual([
      3,
      'pass',
      STAGE,
      caseCount,
      0,
    ]);
    expect(report.tests).toHaveLength(caseCount);
  });

  it('fails the course without Read: exit 1, status fail, the Read case with its diagnosis', async () => {
    const run = await grade(wrongCourse, 'json', ...COURSE_EXAMPLES);
    expect(run.exitCode, run.stdout + run.stderr).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report.status).toBe('fail');
    expect(report.failed).toBeGreaterThan(0);
    const read = report.tests.find((t: { name: string }) => t.name === READ_CASE);
    expect(read.status).toBe('fail');
    expect(read.message).toContain('unknown tool: Read');
  });
});

describe('junit reporter, end to end', () => {
  it('passes the reference: exit 0, one suite, no failures', async () => {
    const run = await grade(REPO, 'junit');
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(XMLValidator.validate(run.stdout)).toBe(true);
    const suite = xml.parse(run.stdout).testsuites.testsuite[0];
    expect([suite.name, suite.tests, suite.failures, suite.errors]).toEqual([STAGE, String(caseCount), '0', '0']);
  });

  it('writes the failing course to --output: exit 1, a <failure> for the Read case', async () => {
    const file = join(scratch, 'junit.xml');
    const run = await grade(wrongCourse, 'junit', '--output', file, ...COURSE_EXAMPLES);
    expect(run.exitCode, run.stdout + run.stderr).toBe(1);
    const text = await readFile(file, 'utf8');
    expect(XMLValidator.validate(text)).toBe(true);
    // As the Jenkins xunit plugin checks it before reading it (test/fixtures/junit: its schema's structure).
    const schema = join(REPO, 'test', 'fixtures', 'junit', 'jenkins-junit-10.xsd');
    expect((await execa('xmllint', ['--noout', '--schema', schema, file], { reject: false })).exitCode).toBe(0);
    expect(xml.parse(text).testsuites.testsuite[0].file).toMatch(/\/course\/src\/execute\.ts$/);
    const cases = xml.parse(text).testsuites.testsuite[0].testcase;
    const read = cases.find((c: { name: string }) => c.name === READ_CASE);
    expect(read.classname).toBe(STAGE);
    expect(read.failure[0].type).toBe('mismatch');
    expect(read.failure[0]['#text']).toContain('unknown tool: Read');
  });
});

describe('tap reporter, end to end', () => {
  it('passes the reference: exit 0, every point ok', async () => {
    const run = await grade(REPO, 'tap');
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    const { extra, final } = tap(run.stdout);
    expect(extra).toEqual([]);
    expect([final.ok, final.count, final.pass]).toEqual([true, caseCount, caseCount]);
    expect(run.stdout.endsWith(`# ${caseCount} passed, 0 failed\n`)).toBe(true);
  });

  it('fails the course without Read: exit 1, not ok with a parsed diagnostic', async () => {
    const run = await grade(wrongCourse, 'tap', ...COURSE_EXAMPLES);
    expect(run.exitCode, run.stdout + run.stderr).toBe(1);
    const { asserts, extra, final } = tap(run.stdout);
    expect(extra).toEqual([]);
    expect(final.ok).toBe(false);
    const read = asserts.find((a) => a.name === READ_CASE)!;
    expect(read.ok).toBe(false);
    expect(read.diag).toMatchObject({
      kind: 'mismatch',
      tool: 'Read',
      received: { content: 'unknown tool: Read', is_error: true },
    });
  });
});

describe('github reporter, end to end', () => {
  it('passes the reference: exit 0, no annotation, the counts line last', async () => {
    const run = await grade(REPO, 'github');
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    const log = readLog(run.stdout);
    expect(log.commands.filter((c) => c.name === 'error')).toEqual([]);
    expect(log.lines.at(-1)).toBe(`${caseCount} passed, 0 failed`);
  });

  it('fails the course without Read: exit 1, an annotation per failure, quarantined diagnoses', async () => {
    const run = await grade(wrongCourse, 'github');
    expect(run.exitCode, run.stdout + run.stderr).toBe(1);
    const log = readLog(run.stdout);
    const groups = log.commands.filter((c) => c.name === 'group').map((g) => g.data);
    expect(groups).toContain(`FAIL ${READ_CASE}`);
    const errors = log.commands.filter((c) => c.name === 'error');
    expect(errors.length).toBe(Math.min(groups.length, 10));
    expect(log.commands.filter((c) => c.name === 'notice')).toHaveLength(groups.length > 10 ? 1 : 0);
    for (const line of log.plain.slice(0, -1)) {
      expect(line.stopped).toBe(true);
      expect(line.text.startsWith(UNTRUSTED_PREFIX)).toBe(true);
    }
    expect(log.lines.at(-1)).toMatch(/^\d+ passed, [1-9]\d* failed$/);
  });
});
