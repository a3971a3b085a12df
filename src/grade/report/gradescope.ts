// Gradescope's autograder results.json (gradescope-autograders.readthedocs.io, "Autograder Specifications"): the
// score out of the points, and one test per case with its score, status, visibility and output. Every text is
// declared plain (`output_format`, `test_output_format`, `test_name_format`: "text"), so nothing a student's
// program prints is rendered as HTML or Markdown. A hidden case's output never shows its input or expected
// result: only that it passed or which of its calls failed.
// Visibility: this course's `hidden` means "the verdict shown, the expected result withheld", which is Gradescope's
// `visible` with that output; Gradescope's own `hidden` never shows the test, and one such test hides the student's
// total score too (the spec's note on `hidden`). `after_due_date` and `after_published` keep Gradescope's meaning.
// A stage whose program never started is one test (its points, score 0) that says why once, not a test per case
// each repeating it. With earlier stages graded too (--previous), every
// stage's cases are tests (named `<stage>: <case>`), the score and counts are over all of them, and the output
// and `extra_data.stages` say how each stage did.
import { type Visibility, weightOf, withholdsExpected } from '../../course/case-weight.ts';
import { STAGES } from '../../course/stages.ts';
import type { CaseResult, FailureKind, RunReport } from '../types.ts';
import { plainText } from './plain-text.ts';
import { renderLoadFailure } from './render-group.ts';
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
  visibility: GradescopeVisibility;
  output: string;
};

// Gradescope's test visibilities (its spec): `hidden` never shows the test, and hides the total score with it.
type GradescopeVisibility = 'visible' | 'hidden' | 'after_due_date' | 'after_published';

// What Gradescope shows for a case of each of this course's visibilities (see the header).
const GRADESCOPE_VISIBILITY: Record<Visibility, GradescopeVisibility> = {
  visible: 'visible',
  hidden: 'visible',
  after_due_date: 'after_due_date',
  after_published: 'after_published',
};

// The report as results.json: two-space indent, trailing newline.
export function render(report: RunReport, ctx: { diagnose: (c: CaseResult) => string }): string {
  return `${JSON.stringify(toGradescope(report, ctx), null, 2)}\n`;
}

function toGradescope(report: RunReport, ctx: { diagnose: (c: CaseResult) => string }): GradescopeResults {
  const stages = [report, ...(report.previous ?? [])];
  const several = stages.length > 1;
  const tests = stages.flatMap((r) =>
    notStarted(r)
      ? [notStartedTest(r, several)]
      : r.cases.map((c) => test(c, ctx.diagnose, several ? `${r.stage}: ${c.name}` : c.name)),
  );
  const lines = [
    ...stages.map(stageLine),
    ...(report.variants === undefined ? [] : [variantsLine(report.variants, report.stage)]),
    ...stages.flatMap((r) => r.warnings ?? []).map((w) => `warning: ${w}`),
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
  const output = passed ? c.description : withholdsExpected(visibility) ? hiddenFailure(c) : diagnose(c);
  return {
    name: plainText(visibleText(name)),
    score: passed ? points : 0,
    max_score: points,
    status: passed ? 'passed' : 'failed',
    visibility: GRADESCOPE_VISIBILITY[visibility],
    output: plainText(visibleText(output)),
  };
}

// Every case of the stage failed before running: its program never started.
function notStarted(r: RunReport): boolean {
  return r.cases.length > 0 && r.cases.every((c) => c.failure?.beforeAnyCase === true);
}

// The one test of a stage whose program never started: worth all its cases' points, what stopped it said once (its
// stack trimmed as in the terminal). Visible: it says nothing of any case.
function notStartedTest(r: RunReport, several: boolean): GradescopeTest {
  const total = r.cases.length;
  const name = 'your program did not start';
  return {
    name: several ? `${r.stage}: ${name}` : name,
    score: 0,
    max_score: sum(r.cases.map((c) => weightOf(c).points)),
    status: 'failed',
    visibility: 'visible',
    output: plainText(visibleText(renderLoadFailure(r.cases[0]!, total, { color: false, total }))),
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
