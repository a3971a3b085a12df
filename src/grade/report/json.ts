import { weightOf, type Visibility } from '../../course/case-weight.ts';
import { STAGES } from '../../course/stages.ts';
import type { CaseResult, RunReport, VariantSummary } from '../types.ts';
import { caseStatus, type CaseStatus } from './case-status.ts';
import { cut, plainText } from './plain-text.ts';
import { renderLoadFailure } from './render-group.ts';
import { scoreOf } from './score.ts';
import { type SourceFileOf, sourcePlace } from './source-file.ts';
import { visibleText } from './visible-text.ts';

// Exercism's test-runner results.json, version 3 (exercism/docs building/tooling/test-runners/interface.md: version 2's
// per-test results, each with the `task_id` of its task, here the stage's place in the course), plus the stage, the
// counts and the score, each stage's own counts in `stages`, and each case's score, points and visibility (each test's
// `score` is what GitHub Classroom's grading reporter adds up). One shape whatever the flags: with earlier stages
// graded too (--previous) the counts and score are over every stage and `stages` has one entry each. Keys are written
// in this order, always present (null when empty). schemas/json-report.schema.json is this shape as a JSON Schema.
type JsonReport = {
  version: typeof JSON_REPORT_VERSION;
  status: CaseStatus;
  message: string | null;
  stage: string;
  passed: number;
  failed: number;
  // The run's variants (null when it ran none): the seed, how many cases' variants were judged, and the cases that
  // had none, with why.
  variants: VariantSummary | null;
  // The points of the passing cases, and of all (src/grade/report/score.ts).
  score: number;
  max_score: number;
  stages: JsonStage[];
  tests: JsonTest[];
};

// The report's format version: Exercism's, whose version 3 has per-test task ids.
export const JSON_REPORT_VERSION = 3;

// One stage of a --previous run.
type JsonStage = { stage: string; task_id: number; passed: number; failed: number };

// One case in results.json.
type JsonTest = {
  name: string;
  task_id: number;
  status: CaseStatus;
  message: string | null;
  output: string | null;
  // The line of the student's file a stack trace in the failure names, else 0: GitHub Classroom's grading reporter
  // prints `line <line_no>` beside every test whose line_no is not 0.
  line_no: number;
  // What the case scored (its points when it passed, else 0), what it is worth, and who sees its expected result
  // (src/course/case-weight.ts).
  score: number;
  points: number;
  visibility: Visibility;
};

// Each case's message when the program did not start.
export const NOT_STARTED = 'your program did not start, so this case did not run: see the message at the top';

// Exercism's per-test output limit, and the notice its spec suggests when output is cut.
export const OUTPUT_LIMIT = 500;
// Exercism's suggested wording, kept verbatim so tooling that knows it recognises it.
export const OUTPUT_NOTICE = 'Output was truncated. Please limit to 500 chars';

// The most the report may weigh, in UTF-8 bytes. GitHub Classroom's grading reporter takes it base64-encoded in one
// environment variable, and Linux refuses to start a process with one environment string over 128 KiB
// (MAX_ARG_STRLEN): base64 makes 64 KiB 87 KiB, which leaves room for the variable's name and a second runner.
export const REPORT_LIMIT = 64 * 1024;
// The longest a test's message may be in any report; a report over REPORT_LIMIT cuts them (and outputs) shorter.
// Below half the cut notice's length, a message keeps its start and a shorter notice (a class-sized suite printing
// much in every case reaches those).
const MESSAGE_CAPS = [4000, 2000, 1000, 500, 250, 120, 60, 24, 0];
// What a cut message ends with.
export const CUT_NOTICE = '… (cut to keep this report small: the whole diagnosis is in the terminal report)';
const SHORT_CUT_NOTICE = '… (cut: see the terminal report)';

type Context = { diagnose: (c: CaseResult) => string; fileOf?: SourceFileOf };

// The report as results.json: two-space indent, trailing newline, at most REPORT_LIMIT bytes whatever the program
// printed: each message and output is cut to the longest length at which the whole fits.
export function render(report: RunReport, ctx: Context): string {
  const whole = toJsonReport(report, ctx);
  let text = '';
  for (const cap of MESSAGE_CAPS) {
    text = `${JSON.stringify(capped(whole, cap), null, 2)}\n`;
    if (Buffer.byteLength(text) <= REPORT_LIMIT) break;
  }
  return text;
}

// The report with every message cut to `cap` characters and every output to at most that.
function capped(report: JsonReport, cap: number): JsonReport {
  return {
    ...report,
    message: capText(report.message, cap),
    tests: report.tests.map((t) => ({
      ...t,
      message: capText(t.message, cap),
      output: t.output === null ? null : capOutput(t.output, Math.min(OUTPUT_LIMIT, cap)),
    })),
  };
}

function capText(text: string | null, cap: number): string | null {
  if (text === null || text.length <= cap) return text;
  if (cap < CUT_NOTICE.length / 2) return `${cut(text, cap)}${SHORT_CUT_NOTICE}`;
  return `${cut(text, Math.max(0, cap - CUT_NOTICE.length))}${CUT_NOTICE}`;
}

// The report as a results.json value. `error` (Exercism: "the tests did not run correctly") only when every
// case errored, e.g. a program that does not compile; its message is then the first case's diagnosis.
function toJsonReport(report: RunReport, ctx: Context): JsonReport {
  const first = report.cases[0];
  const stages = [report, ...(report.previous ?? [])];
  const several = stages.length > 1;
  const stageList = stages.map((r) => ({
    stage: r.stage,
    task_id: taskId(r.stage),
    passed: r.passed,
    failed: r.failed,
  }));
  // A program that did not start is one diagnosis, said once at the top (its stack trimmed as in the terminal);
  // each case only points there. With earlier stages graded too, each stage's tests say their own.
  if (!several && first !== undefined && report.cases.every((c) => c.failure?.beforeAnyCase === true)) {
    const total = report.cases.length;
    return {
      version: JSON_REPORT_VERSION,
      status: 'error',
      message: plainText(renderLoadFailure(first, total, { color: false, total })),
      stage: report.stage,
      passed: report.passed,
      failed: report.failed,
      variants: report.variants ?? null,
      score: 0,
      max_score: scoreOf(report).maxScore,
      stages: stageList,
      tests: report.cases.map((c) => ({
        name: plainText(c.name),
        task_id: taskId(report.stage),
        status: 'error',
        message: NOT_STARTED,
        output: null,
        line_no: 0,
        score: 0,
        ...weightOf(c),
      })),
    };
  }
  const tests = stages.flatMap((r) =>
    r.cases.map((c): JsonTest => {
      const status = caseStatus(c);
      const { points, visibility } = weightOf(c);
      return {
        // Two stages may have cases of one name; a report of several says whose each is, as every format does.
        name: plainText(several ? `${r.stage}: ${c.name}` : c.name),
        task_id: taskId(r.stage),
        status,
        message: status === 'pass' ? null : plainText(ctx.diagnose(c)),
        output: c.output === '' ? null : capOutput(plainText(visibleText(c.output)), OUTPUT_LIMIT),
        line_no: status === 'pass' ? 0 : (sourcePlace(c, r.stage, ctx.fileOf)?.line ?? 0),
        score: status === 'pass' ? points : 0,
        points,
        visibility,
      };
    }),
  );
  const scores = stages.map(scoreOf);
  const sum = (n: number[]) => n.reduce((a, b) => a + b, 0);
  const allErrored = first !== undefined && tests.every((t) => t.status === 'error');
  const status: CaseStatus = allErrored ? 'error' : tests.every((t) => t.status === 'pass') ? 'pass' : 'fail';
  return {
    version: JSON_REPORT_VERSION,
    status,
    message: allErrored ? plainText(ctx.diagnose(first)) : null,
    stage: report.stage,
    passed: sum(stages.map((r) => r.passed)),
    failed: sum(stages.map((r) => r.failed)),
    variants: report.variants ?? null,
    score: Math.round(sum(scores.map((s) => s.score)) * 100) / 100,
    max_score: Math.round(sum(scores.map((s) => s.maxScore)) * 100) / 100,
    stages: stageList,
    tests,
  };
}

// A stage's place in the course, from 1: Exercism's task id.
function taskId(stage: string): number {
  return STAGES.findIndex((s) => s.slug === stage) + 1;
}

// At most `limit` characters in all, the notice included: the head of the output, then Exercism's notice (or the
// notice alone where there is no room for both).
function capOutput(output: string, limit: number): string {
  if (output.length <= limit) return output;
  if (limit <= OUTPUT_NOTICE.length + 1) return cut(OUTPUT_NOTICE, limit);
  return `${cut(output, limit - OUTPUT_NOTICE.length - 1)}\n${OUTPUT_NOTICE}`;
}
