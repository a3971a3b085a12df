// A class's summary: one row per submission (name, passed, failed, verdict), as a table on the terminal and as
// JSON or CSV for a gradebook, which also carry each submission's score and the ids of the mistakes it made. Names come from directory names, which a course may take from students: shown,
// never obeyed (control characters made visible), and never a formula in a spreadsheet.
import type { ClassReport, SubmissionResult } from '../types.ts';
import { classMistakes, mistakesOf, submissionScore } from './class-mistakes.ts';
import { painter } from './paint.ts';
import { oneLine, plainText } from './plain-text.ts';
import { variantsSeedLine } from './variants-line.ts';
import { nameText, visibleText } from './visible-text.ts';

// The formats --summary writes, by file extension.
export const SUMMARY_FORMATS = ['json', 'csv'] as const;
export type SummaryFormat = (typeof SUMMARY_FORMATS)[number];

// Where each submission's report went, by name (absent when none was written).
export type ReportFiles = ReadonlyMap<string, string>;

// The terminal's table, then why each submission that could not be graded or did not start failed, then the
// count of submissions that passed.
export function renderSummaryTable(report: ClassReport, options: { color: boolean }): string {
  const c = painter(options.color);
  const rows = report.submissions.map((s) => [shownName(s.name), String(s.passed), String(s.failed), s.verdict]);
  const header = ['submission', 'passed', 'failed', 'verdict'];
  const widths = header.map((h, k) => Math.max(h.length, ...rows.map((r) => (r[k] as string).length)));
  const line = (cells: string[]): string =>
    ` ${cells.map((cell, k) => (k === 1 || k === 2 ? cell.padStart(widths[k]!) : cell.padEnd(widths[k]!))).join('  ')}`.trimEnd();
  const paintVerdict = (row: string, verdict: string): string =>
    verdict === 'pass' ? row.replace(/pass$/, c.green('pass')) : row.replace(new RegExp(`${verdict}$`), c.red(verdict));
  const notes = report.submissions
    .filter((s) => s.message !== undefined)
    .map((s) => `  ${shownName(s.name)}: ${firstSentence(shown(s.message!))}`);
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

// The summary as JSON (its schema: schemas/summary.schema.json): the stage, the variants' seed (null without), the
// mistakes the class made (class-mistakes.ts: id, hint, how many submissions made it; most first), and per
// submission its name, directory, counts, score and maximum over every stage graded, verdict, why (null when it was
// graded), its report's file (null when none was written) and the ids of the mistakes it made.
export function renderSummaryJson(report: ClassReport, files: ReportFiles): string {
  const value = {
    stage: report.stage,
    seed: report.variants?.seed ?? null,
    mistakes: classMistakes(report).map((m) => ({
      id: m.id,
      hint: plainText(visibleText(m.hint)),
      submissions: m.submissions.length,
    })),
    submissions: report.submissions.map((s) => {
      const { score, maxScore } = submissionScore(s.report);
      return {
        name: plainText(nameText(s.name)),
        dir: plainText(visibleText(s.dir)),
        passed: s.passed,
        failed: s.failed,
        score,
        max_score: maxScore,
        verdict: s.verdict,
        message: s.message === undefined ? null : plainText(visibleText(s.message)),
        report: files.get(s.name) ?? null,
        mistakes: mistakesOf(s.report).map((m) => m.id),
      };
    }),
  };
  return `${JSON.stringify(value, null, 2)}\n`;
}

// The summary as CSV (RFC 4180: a header row, CRLF line ends, fields quoted when they hold a comma, a quote or a
// line break). A field that a spreadsheet would read as a formula (= + - @ first) starts with a `'`. The columns
// added since the first six come after them (a script that reads columns by place keeps working): the score, its
// maximum, and the ids of the mistakes made, space-separated.
export function renderSummaryCsv(report: ClassReport, files: ReportFiles): string {
  const rows = [
    ['submission', 'passed', 'failed', 'verdict', 'message', 'report', 'score', 'max_score', 'mistakes'],
    ...report.submissions.map((s: SubmissionResult) => {
      const { score, maxScore } = submissionScore(s.report);
      return [
        nameText(s.name),
        String(s.passed),
        String(s.failed),
        s.verdict,
        s.message ?? '',
        files.get(s.name) ?? '',
        String(score),
        String(maxScore),
        mistakesOf(s.report)
          .map((m) => m.id)
          .join(' '),
      ];
    }),
  ];
  return `${rows.map((r) => r.map(csvField).join(',')).join('\r\n')}\r\n`;
}

// What a long message opens with (its advice is in the submission's report): up to its first full stop.
export function firstSentence(text: string): string {
  const end = text.search(/\.(\s|$)/);
  return end === -1 ? text : text.slice(0, end + 1);
}

// A message on one line of the terminal, its controls visible.
function shown(text: string): string {
  return oneLine(visibleText(text));
}

// A submission's name on the terminal: as every report writes it (nameText), on one line.
export function shownName(name: string): string {
  return oneLine(nameText(name));
}

function csvField(value: string): string {
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  const plain = plainText(visibleText(text));
  return /[",\r\n]/.test(plain) ? `"${plain.replace(/"/g, '""')}"` : plain;
}
