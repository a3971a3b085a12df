// A class's summary: the terminal table, JSON and CSV, with names a course may take from students made harmless.
import { describe, expect, it } from 'vitest';
import { renderSummaryCsv, renderSummaryJson, renderSummaryTable } from '../../../src/grade/report/class-summary.ts';
import type { ClassReport, SubmissionResult } from '../../../src/grade/types.ts';
import { report } from './reports.ts';

const submission = (
  name: string,
  verdict: SubmissionResult['verdict'],
  passed: number,
  failed: number,
  message?: string,
): SubmissionResult => ({
  name,
  dir: `/class/${name}`,
  verdict,
  passed,
  failed,
  ...(message === undefined ? {} : { message }),
  report: report('register-tools', []),
});

const CLASS: ClassReport = {
  stage: 'register-tools',
  durationMs: 12_340,
  variants: { seed: 41730 },
  submissions: [
    submission('alice', 'pass', 115, 0),
    submission('bob', 'fail', 13, 102),
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
    expect(text).toContain('␛[2J ::error::x');
  });
});

describe('renderSummaryJson', () => {
  it('gives the stage, the seed, and each submission with its counts, verdict, why and report file', () => {
    expect(JSON.parse(renderSummaryJson(CLASS, FILES))).toEqual({
      stage: 'register-tools',
      seed: 41730,
      submissions: [
        {
          name: 'alice',
          dir: '/class/alice',
          passed: 115,
          failed: 0,
          verdict: 'pass',
          message: null,
          report: '/reports/alice.xml',
        },
        {
          name: 'bob',
          dir: '/class/bob',
          passed: 13,
          failed: 102,
          verdict: 'fail',
          message: null,
          report: '/reports/bob.xml',
        },
        {
          name: 'carol',
          dir: '/class/carol',
          passed: 0,
          failed: 115,
          verdict: 'did not start',
          message: 'the program exited with code 1 before running any case. See its output.',
          report: null,
        },
        {
          name: 'dave',
          dir: '/class/dave',
          passed: 0,
          failed: 115,
          verdict: 'misuse',
          message: '/class/dave has no program.ts. Restore it.',
          report: null,
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
      'submission,passed,failed,verdict,message,report',
      'alice,115,0,pass,,/reports/alice.xml',
      'bob,13,102,fail,,/reports/bob.xml',
      'carol,0,115,did not start,the program exited with code 1 before running any case. See its output.,',
      'dave,0,115,misuse,/class/dave has no program.ts. Restore it.,',
      '',
    ]);
  });

  it('never hands a spreadsheet a formula, and quotes commas, quotes and line breaks', () => {
    const tricky = { ...CLASS, submissions: [submission('=HYPERLINK("x")', 'fail', 0, 1, 'a, "b"\nc')] };
    expect(renderSummaryCsv(tricky, new Map()).split('\r\n')[1]).toBe(`"'=HYPERLINK(""x"")",0,1,fail,"a, ""b""\nc",`);
  });
});
