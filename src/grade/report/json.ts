import { weightOf, type Visibility } from '../../course/case-weight.ts';
import { STAGES } from '../../course/stages.ts';
import type { CaseResult, RunReport, VariantSummary } from '../types.ts';
import { caseStatus, type CaseStatus } from './case-status.ts';
import { cut, plainText } from './plain-text.ts';
import { renderLoadFailure } from './render-group.ts';
import { scoreOf } from './score.ts';
import { visibleText } from './visible-text.ts';

// Exercism's test-runner results.json, version 2 (exercism/docs building/tooling/test-runners/interface.md),
// plus the stage, the counts and the score, and each case's points and visibility. Keys are written in this order,
// always present (null when empty). With earlier stages graded too (--previous): version 3, each test's `task_id`
// its stage's place in the course (the tasks of Exercism's version 3), the counts and score over every stage, and
// each stage's own in `stages`.
type JsonReport = {
  version: 2 | 3;
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
  stages?: JsonStage[];
  tests: JsonTest[];
};

// One stage of a --previous run.
type JsonStage = { stage: string; task_id: number; passed: number; failed: number };

// One case in results.json.
type JsonTest = {
  name: string;
  task_id?: number;
  status: CaseStatus;
  message: string | null;
  output: string | null;
  // What the case is worth and who sees its expected result (src/course/case-weight.ts).
  points: number;
  visibility: Visibility;
};

// Each case's message when the program did not start.
export const NOT_STARTED = 'your program did not start, so this case did not run: see the message at the top';

// Exercism's per-test output limit, and the notice its spec suggests when output is cut.
export const OUTPUT_LIMIT = 500;
// Exercism's suggested wording, kept verbatim so tooling that knows it recognises it.
export const OUTPUT_NOTICE = 'Output was truncated. Please limit to 500 chars';

// The report as results.json: two-space indent, trailing newline.
export function render(report: RunReport, ctx: { diagnose: (c: CaseResult) => string }): string {
  return `${JSON.stringify(toJsonReport(report, ctx), null, 2)}\n`;
}

// The report as a results.json value. `error` (Exercism: "the tests did not run correctly") only when every
// case errored, e.g. a program that does not compile; its message is then the first case's diagnosis.
function toJsonReport(report: RunReport, ctx: { diagnose: (c: CaseResult) => string }): JsonReport {
  const first = report.cases[0];
  const stages = [report, ...(report.previous ?? [])];
  const several = stages.length > 1;
  // A program that did not start is one diagnosis, said once at the top (its stack trimmed as in the terminal);
  // each case only points there. With earlier stages graded too, each stage's tests say their own.
  if (!several && first !== undefined && report.cases.every((c) => c.failure?.beforeAnyCase === true)) {
    const total = report.cases.length;
    return {
      version: 2,
      status: 'error',
      message: plainText(renderLoadFailure(first, total, { color: false, total })),
      stage: report.stage,
      passed: report.passed,
      failed: report.failed,
      variants: report.variants ?? null,
      score: 0,
      max_score: scoreOf(report).maxScore,
      tests: report.cases.map((c) => ({
        name: plainText(c.name),
        status: 'error',
        message: NOT_STARTED,
        output: null,
        ...weightOf(c),
      })),
    };
  }
  const taskId = (stage: string) => STAGES.findIndex((s) => s.slug === stage) + 1;
  const tests = stages.flatMap((r) =>
    r.cases.map((c): JsonTest => {
      const status = caseStatus(c);
      return {
        name: plainText(c.name),
        ...(several ? { task_id: taskId(r.stage) } : {}),
        status,
        message: status === 'pass' ? null : plainText(ctx.diagnose(c)),
        output: c.output === '' ? null : capOutput(plainText(visibleText(c.output))),
        ...weightOf(c),
      };
    }),
  );
  const scores = stages.map(scoreOf);
  const sum = (n: number[]) => n.reduce((a, b) => a + b, 0);
  const allErrored = first !== undefined && tests.every((t) => t.status === 'error');
  const status: CaseStatus = allErrored ? 'error' : tests.every((t) => t.status === 'pass') ? 'pass' : 'fail';
  return {
    version: several ? 3 : 2,
    status,
    message: allErrored ? plainText(ctx.diagnose(first)) : null,
    stage: report.stage,
    passed: sum(stages.map((r) => r.passed)),
    failed: sum(stages.map((r) => r.failed)),
    variants: report.variants ?? null,
    score: sum(scores.map((s) => s.score)),
    max_score: sum(scores.map((s) => s.maxScore)),
    ...(several
      ? {
          stages: stages.map((r) => ({ stage: r.stage, task_id: taskId(r.stage), passed: r.passed, failed: r.failed })),
        }
      : {}),
    tests,
  };
}

// At most OUTPUT_LIMIT characters in all, the notice included: the head of the output, then the notice.
function capOutput(output: string): string {
  if (output.length <= OUTPUT_LIMIT) return output;
  return `${cut(output, OUTPUT_LIMIT - OUTPUT_NOTICE.length - 1)}\n${OUTPUT_NOTICE}`;
}
