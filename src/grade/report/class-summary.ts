// A class's summary: one row per submission (name, passed, failed, verdict), as a table on the terminal and as
// JSON or CSV for a gradebook. Names come from directory names, which a course may take from students: shown,
// never obeyed (control characters made visible), and never a formula in a spreadsheet.
import type { ClassReport, SubmissionResult } from '../types.ts';
import { painter } from './paint.ts';
import { oneLine, plainText } from './plain-text.ts';
import { variantsSeedLine } from './variants-line.ts';
import { visibleText } from './visible-text.ts';

// The formats --summary writes, by file extension.
export const SUMMARY_FORMATS = ['json', 'csv'] as const;
export type SummaryFormat = (typeof SUMMARY_FORMATS)[number];

// Where each submission's report went, by name (absent when none was written).
export type ReportFiles = ReadonlyMap<string, string>;

// The terminal's table, then why each submission that could not be graded or did not start failed, then the
// count of submissions that passed.
export function renderSummaryTable(report: ClassReport, options: { color: boolean }): string {
  const c = painter(options.color);
  const rows = report.submissions.map((s) => [shown(s.name), String(s.passed), String(s.failed), s.verdict]);
  const header = ['submission', 'passed', 'failed', 'verdict'];
  const widths = header.map((h, k) => Math.max(h.length, ...rows.map((r) => (r[k] as string).length)));
  const line = (cells: string[]): string =>
    ` ${cells.map((cell, k) => (k === 1 || k === 2 ? cell.padStart(widths[k]!) : cell.padEnd(widths[k]!))).join('  ')}`.trimEnd();
  const paintVerdict = (row: string, verdict: string): string =>
    verdict === 'pass' ? row.replace(/pass$/, c.green('pass')) : row.replace(new RegExp(`${verdict}$`), c.red(verdict));
  const notes = report.submissions
    .filter((s) => s.message !== undefined)
    .map((s) => `  ${shown(s.name)}: ${firstSentence(shown(s.message!))}`);
  const passed = report.submissions.filter((s) => s.verdict === 'pass').length;
  return [
    c.dim(line(header)),
    ...rows.map((r) => paintVerdict(line(r), r[3] as string)),
    ...(notes.length === 0 ? [] : ['', ...notes]),
    '',
    ...(report.variants === undefined ? [] : [variantsSeedLine(report.variants.seed)]),
    `${passed} of ${report.submissions.length} submission${report.submissions.length === 1 ? '' : 's'} passed (${(report.durationMs / 1000).toFixed(2)} s)`,
    '',
  ].join('\n');
}

// The summary as JSON: the stage, the variants' seed (null without), and per submission its name, directory,
// counts, verdict, why (null when it was graded) and its report's file (null when none was written).
export function renderSummaryJson(report: ClassReport, files: ReportFiles): string {
  const value = {
    stage: report.stage,
    seed: report.variants?.seed ?? null,
    submissions: report.submissions.map((s) => ({
      name: plainText(visibleText(s.name)),
      dir: plainText(visibleText(s.dir)),
      passed: s.passed,
      failed: s.failed,
      verdict: s.verdict,
      message: s.message === undefined ? null : plainText(visibleText(s.message)),
      report: files.get(s.name) ?? null,
    })),
  };
  return `${JSON.stringify(value, null, 2)}\n`;
}

// The summary as CSV (RFC 4180: a header row, CRLF line ends, fields quoted when they hold a comma, a quote or a
// line break). A field that a spreadsheet would read as a formula (= + - @ first) starts with a `'`.
export function renderSummaryCsv(report: ClassReport, files: ReportFiles): string {
  const rows = [
    ['submission', 'passed', 'failed', 'verdict', 'message', 'report'],
    ...report.submissions.map((s: SubmissionResult) => [
      s.name,
      String(s.passed),
      String(s.failed),
      s.verdict,
      s.message ?? '',
      files.get(s.name) ?? '',
    ]),
  ];
  return `${rows.map((r) => r.map(csvField).join(',')).join('\r\n')}\r\n`;
}

// What a long message opens with (its advice is in the submission's report): up to its first full stop.
export function firstSentence(text: string): string {
  const end = text.search(/\.(\s|$)/);
  return end === -1 ? text : text.slice(0, end + 1);
}

// A name or message on one line of the terminal, its controls visible.
function shown(text: string): string {
  return oneLine(visibleText(text));
}

function csvField(value: string): string {
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  const plain = plainText(visibleText(text));
  return /[",\r\n]/.test(plain) ? `"${plain.replace(/"/g, '""')}"` : plain;
}
