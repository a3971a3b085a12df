// Gradescope's autograder results.json (gradescope-autograders.readthedocs.io, "Autograder Specifications"): the
// score out of the points, and one test per case with its score, status, visibility and output. Every text is
// declared plain (`output_format`, `test_output_format`, `test_name_format`: "text"), so nothing a student's
// program prints is rendered as HTML or Markdown. A hidden case's output never shows its input or expected
// result: only that it passed or which of its calls failed. With earlier stages graded too (--previous), every
// stage's cases are tests (named `<stage>: <case>`), the score and counts are over all of them, and the output
// and `extra_data.stages` say how each stage did.
import { weightOf } from '../../course/case-weight.ts';
import { STAGES } from '../../course/stages.ts';
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
  extra_data: {
    stage: string;
    passed: number;
    failed: number;
    seed: number | null;
    // With --previous: each stage's own counts, the graded one first (as the json reporter's `stages`).
    stages?: { stage: string; task_id: number; passed: number; failed: number }[];
  };
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
  const stages = [report, ...(report.previous ?? [])];
  const several = stages.length > 1;
  const tests = stages.flatMap((r) =>
    r.cases.map((c) => test(c, ctx.diagnose, several ? `${r.stage}: ${c.name}` : c.name)),
  );
  const lines = [
    ...stages.map(stageLine),
    ...(report.variants === undefined ? [] : [variantsLine(report.variants, report.stage)]),
    ...stages.flatMap((r) => r.warnings ?? []).map((w) => `warning: ${w}`),
    // A stage whose program never started (every case failed before running): what stopped it is the one thing
    // to read.
    ...stages.flatMap((r) => {
      const first = r.cases[0];
      const notStarted = first !== undefined && r.cases.every((c) => c.failure?.beforeAnyCase === true);
      return notStarted ? ['', ctx.diagnose(first)] : [];
    }),
  ];
  const count = (key: 'passed' | 'failed') => sum(stages.map((r) => r[key]));
  return {
    score: sum(tests.map((t) => t.score)),
    max_score: sum(tests.map((t) => t.max_score)),
    execution_time: Math.round(sum(stages.map((r) => r.durationMs))) / 1000,
    output: plainText(visibleText(lines.join('\n'))),
    output_format: 'text',
    test_output_format: 'text',
    test_name_format: 'text',
    stdout_visibility: 'hidden',
    extra_data: {
      stage: report.stage,
      passed: count('passed'),
      failed: count('failed'),
      seed: report.variants?.seed ?? null,
      ...(several
        ? {
            stages: stages.map((r) => ({
              stage: r.stage,
              task_id: STAGES.findIndex((s) => s.slug === r.stage) + 1,
              passed: r.passed,
              failed: r.failed,
            })),
          }
        : {}),
    },
    tests,
  };
}

// `<stage>: N of M cases passed`.
function stageLine(report: RunReport): string {
  const total = report.cases.length;
  return `${report.stage}: ${report.passed} of ${total} case${total === 1 ? '' : 's'} passed`;
}

function test(c: CaseResult, diagnose: (c: CaseResult) => string, name: string): GradescopeTest {
  const { points, visibility } = weightOf(c);
  const passed = c.status === 'pass';
  const output = passed ? c.description : visibility === 'hidden' ? hiddenFailure(c) : diagnose(c);
  return {
    name: plainText(visibleText(name)),
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
  const variant = f?.variant === undefined ? '' : " in the case's variant";
  const where =
    f?.steps === 'requests' && f.kind === 'mismatch'
      ? `${f.callIndex === undefined ? 'the conversation runLoop returned' : `request ${f.callIndex + 1}`} differed${variant}`
      : f?.callIndex !== undefined
        ? `call ${f.callIndex + 1} returned a different result${variant}`
        : HIDDEN_WORDS[f?.kind ?? 'crash'];
  const steps = f?.steps === 'requests' ? 'turns' : 'calls';
  return `${c.description}\nfailed: ${where} (a hidden case: its ${steps} and expected results are not shown)`;
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
