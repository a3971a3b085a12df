// Gradescope's autograder results.json (gradescope-autograders.readthedocs.io, "Autograder Specifications"): the
// score out of the points, and one test per case with its score, status, visibility and output. Every text is
// declared plain (`output_format`, `test_output_format`, `test_name_format`: "text"), so nothing a student's
// program prints is rendered as HTML or Markdown. A hidden case's output never shows its input or expected
// result: only that it passed or which of its calls failed.
import { weightOf } from '../../course/case-weight.ts';
import type { CaseResult, FailureKind, RunReport } from '../types.ts';
import { plainText } from './plain-text.ts';
import { variantsLine } from './variants-line.ts';
import { visibleText } from './visible-text.ts';

// results.json, keys in this order.
type GradescopeResults = {
  score: number;
  max_score: number;
  execution_time: number;
  output: string;
  output_format: 'text';
  test_output_format: 'text';
  test_name_format: 'text';
  stdout_visibility: 'hidden';
  extra_data: { stage: string; passed: number; failed: number; seed: number | null };
  tests: GradescopeTest[];
};

// One case as a Gradescope test.
type GradescopeTest = {
  name: string;
  score: number;
  max_score: number;
  status: 'passed' | 'failed';
  visibility: string;
  output: string;
};

// The report as results.json: two-space indent, trailing newline.
export function render(report: RunReport, ctx: { diagnose: (c: CaseResult) => string }): string {
  return `${JSON.stringify(toGradescope(report, ctx), null, 2)}\n`;
}

function toGradescope(report: RunReport, ctx: { diagnose: (c: CaseResult) => string }): GradescopeResults {
  const tests = report.cases.map((c) => test(c, ctx.diagnose));
  const total = report.cases.length;
  const notStarted = report.cases.length > 0 && report.cases.every((c) => c.failure?.beforeAnyCase === true);
  const first = report.cases[0];
  const lines = [
    `${report.stage}: ${report.passed} of ${total} case${total === 1 ? '' : 's'} passed`,
    ...(report.variants === undefined ? [] : [variantsLine(report.variants)]),
    ...(report.warnings ?? []).map((w) => `warning: ${w}`),
    // Every case failed before running: what stopped the program is the one thing to read.
    ...(notStarted && first !== undefined ? ['', ctx.diagnose(first)] : []),
  ];
  return {
    score: sum(tests.map((t) => t.score)),
    max_score: sum(tests.map((t) => t.max_score)),
    execution_time: Math.round(report.durationMs) / 1000,
    output: plainText(visibleText(lines.join('\n'))),
    output_format: 'text',
    test_output_format: 'text',
    test_name_format: 'text',
    stdout_visibility: 'hidden',
    extra_data: {
      stage: report.stage,
      passed: report.passed,
      failed: report.failed,
      seed: report.variants?.seed ?? null,
    },
    tests,
  };
}

function test(c: CaseResult, diagnose: (c: CaseResult) => string): GradescopeTest {
  const { points, visibility } = weightOf(c);
  const passed = c.status === 'pass';
  const output = passed ? c.description : visibility === 'hidden' ? hiddenFailure(c) : diagnose(c);
  return {
    name: plainText(visibleText(c.name)),
    score: passed ? points : 0,
    max_score: points,
    status: passed ? 'passed' : 'failed',
    visibility,
    output: plainText(visibleText(output)),
  };
}

// What a failed hidden case says: its description and where it failed, never a call's input or a result.
function hiddenFailure(c: CaseResult): string {
  const f = c.failure;
  const where =
    f?.callIndex !== undefined
      ? `call ${f.callIndex + 1} returned a different result${f.variant === undefined ? '' : " in the case's variant"}`
      : HIDDEN_WORDS[f?.kind ?? 'crash'];
  return `${c.description}\nfailed: ${where} (a hidden case: its calls and expected results are not shown)`;
}

// How a hidden case failed, in words that name no call.
const HIDDEN_WORDS: Record<FailureKind, string> = {
  mismatch: 'a call returned a different result',
  'result-count': 'the program printed another number of results than the case has calls',
  crash: 'the program exited or crashed',
  timeout: 'the program did not finish in time',
  'no-output': 'the program printed no result',
  'bad-output': 'the program printed something that is not a result',
  'no-snapshot': 'the case has no snapshot (a course author runs `theinference snapshot`)',
};

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
