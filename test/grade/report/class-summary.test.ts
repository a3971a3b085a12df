// A class's summary: the terminal table, JSON and CSV, with names a course may take from students made harmless.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { renderSummaryCsv, renderSummaryJson, renderSummaryTable } from '../../../src/grade/report/class-summary.ts';
import { mistakeId } from '../../../src/grade/report/class-mistakes.ts';
import type { ClassReport, SubmissionResult } from '../../../src/grade/types.ts';
import { REPO } from '../course-fixture.ts';
import { hostile, mismatch, report, weighty } from './reports.ts';

// The summary's published schema (shipped in the package: package.json `files`), compiled strictly.
const SCHEMA = JSON.parse(readFileSync(join(REPO, 'schemas', 'summary.schema.json'), 'utf8'));
const validate = new Ajv({ allErrors: true, strict: true }).compile(SCHEMA);

const submission = (
  name: string,
  verdict: SubmissionResult['verdict'],
  passed: number,
  failed: number,
  message?: string,
  run = report('register-tools', []),
): SubmissionResult => ({
  name,
  dir: `/class/${name}`,
  verdict,
  passed,
  failed,
  ...(message === undefined ? {} : { message }),
  report: run,
});

// Bob reads `Read` wrong: one mistake (its hint cause), in two cases; a passing case worth 3 points.
const READ_CAUSE = 'finding: not wired: view';
const BOB = report('register-tools', [
  weighty,
  { ...mismatch, failure: { ...mismatch.failure!, hintCause: READ_CAUSE } },
  { ...mismatch, name: 'read-alias-2', failure: { ...mismatch.failure!, hintCause: READ_CAUSE } },
]);

const CLASS: ClassReport = {
  stage: 'register-tools',
  durationMs: 12_340,
  variants: { seed: 41730 },
  submissions: [
    submission('alice', 'pass', 115, 0),
    submission('bob', 'fail', 13, 102, undefined, BOB),
    submission(
      'carol',
      'did not start',
      0,
      115,
      'the program exited with code 1 before running any case. See its output.',
    ),
    submission('dave', 'misuse', 0, 115, '/class/dave has no program.ts. Restore it.'),
  ],
};
const FILES = new Map([
  ['alice', '/reports/alice.xml'],
  ['bob', '/reports/bob.xml'],
]);

describe('renderSummaryTable', () => {
  it('is a table of every submission, then why those that could not be graded failed, then the count', () => {
    expect(renderSummaryTable(CLASS, { color: false })).toBe(
      [
        ' submission  passed  failed  verdict',
        ' alice          115       0  pass',
        ' bob             13     102  fail',
        ' carol            0     115  did not start',
        ' dave             0     115  misuse',
        '',
        '  carol: the program exited with code 1 before running any case.',
        '  dave: /class/dave has no program.ts.',
        '',
        'variants: seed 41730 (--seed 41730 repeats them)',
        '1 of 4 submissions passed (12.34 s)',
        '',
      ].join('\n'),
    );
  });

  it('shows a hostile name, never obeys it', () => {
    const hostile = { ...CLASS, submissions: [submission('\u001b[2J\n::error::x', 'pass', 1, 0)] };
    const text = renderSummaryTable(hostile, { color: false });
    expect(text).not.toMatch(/\u001b|\n::/);
    // A line break in a name is written `\n`, as in every report.
    expect(text).toContain('␛[2J\\n::error::x');
  });
});

describe('renderSummaryJson', () => {
  it('gives the stage, the seed, the mistakes, and each submission with its counts, score, verdict, why, report file and mistakes', () => {
    expect(JSON.parse(renderSummaryJson(CLASS, FILES))).toEqual({
      stage: 'register-tools',
      seed: 41730,
      mistakes: [{ id: mistakeId(READ_CAUSE), hint: mismatch.failure!.hint, submissions: 1 }],
      submissions: [
        {
          name: 'alice',
          dir: '/class/alice',
          passed: 115,
          failed: 0,
          score: 0,
          max_score: 0,
          verdict: 'pass',
          message: null,
          report: '/reports/alice.xml',
          mistakes: [],
        },
        {
          name: 'bob',
          dir: '/class/bob',
          passed: 13,
          failed: 102,
          score: 3,
          max_score: 5,
          verdict: 'fail',
          message: null,
          report: '/reports/bob.xml',
          mistakes: [mistakeId(READ_CAUSE)],
        },
        {
          name: 'carol',
          dir: '/class/carol',
          passed: 0,
          failed: 115,
          score: 0,
          max_score: 0,
          verdict: 'did not start',
          message: 'the program exited with code 1 before running any case. See its output.',
          report: null,
          mistakes: [],
        },
        {
          name: 'dave',
          dir: '/class/dave',
          passed: 0,
          failed: 115,
          score: 0,
          max_score: 0,
          verdict: 'misuse',
          message: '/class/dave has no program.ts. Restore it.',
          report: null,
          mistakes: [],
        },
      ],
    });
    const { variants: _, ...withoutVariants } = CLASS;
    expect(JSON.parse(renderSummaryJson(withoutVariants, FILES)).seed).toBeNull();
  });
});

describe('renderSummaryCsv', () => {
  it('is RFC 4180: a header, CRLF line ends, fields quoted when they must be', () => {
    expect(renderSummaryCsv(CLASS, FILES).split('\r\n')).toEqual([
      'submission,passed,failed,verdict,message,report,score,max_score,mistakes',
      'alice,115,0,pass,,/reports/alice.xml,0,0,',
      `bob,13,102,fail,,/reports/bob.xml,3,5,${mistakeId(READ_CAUSE)}`,
      'carol,0,115,did not start,the program exited with code 1 before running any case. See its output.,,0,0,',
      'dave,0,115,misuse,/class/dave has no program.ts. Restore it.,,0,0,',
      '',
    ]);
  });

  it('never hands a spreadsheet a formula, and quotes commas, quotes and line breaks', () => {
    const tricky = { ...CLASS, submissions: [submission('=HYPERLINK("x")', 'fail', 0, 1, 'a, "b"\nc')] };
    expect(renderSummaryCsv(tricky, new Map()).split('\r\n')[1]).toBe(
      `"'=HYPERLINK(""x"")",0,1,fail,"a, ""b""\nc",,0,0,`,
    );
  });

  it('writes a line break in a name as `\\n`, in the CSV and the JSON alike: a name never starts a row', () => {
    const broken = { ...CLASS, submissions: [submission('grace\nhopper\r\nx', 'pass', 1, 0)] };
    expect(renderSummaryCsv(broken, new Map()).split('\r\n')[1]).toBe('grace\\nhopper\\nx,1,0,pass,,,0,0,');
    expect(JSON.parse(renderSummaryJson(broken, new Map())).submissions[0].name).toBe('grace\\nhopper\\nx');
  });
});

describe('the summary schema', () => {
  it('holds every summary the grader writes: a class, one without variants, hostile text', () => {
    const { variants: _, ...withoutVariants } = CLASS;
    const hostileClass = {
      ...CLASS,
      submissions: [submission('\u001b[2J<b>', 'fail', 0, 1, undefined, report('register-tools', [hostile]))],
    };
    for (const run of [CLASS, withoutVariants, hostileClass]) {
      const value = JSON.parse(renderSummaryJson(run, FILES));
      expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
    }
  });

  it('refuses what the grader never writes: a missing key, an unknown verdict, a malformed mistake id', () => {
    const good = JSON.parse(renderSummaryJson(CLASS, FILES));
    const { mistakes: _, ...noMistakes } = good;
    const badVerdict = { ...good, submissions: [{ ...good.submissions[0], verdict: 'passed' }] };
    const badId = { ...good, submissions: [{ ...good.submissions[0], mistakes: ['Read not wired'] }] };
    for (const value of [noMistakes, badVerdict, badId]) expect(validate(value)).toBe(false);
  });

  it('is shipped in the package', () => {
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
    expect(pkg.files).toContain('schemas');
  });
});
