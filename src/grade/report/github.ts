import type { CaseResult, RunReport } from '../types.ts';
import { failureMessage } from './case-status.ts';
import { groupFailures } from './group-failures.ts';
import { cut, oneLine, plainText } from './plain-text.ts';
import { scoreOf } from './score.ts';
import { type SourceFileOf, type SourcePlace, sourcePlace } from './source-file.ts';
import { variantsLine } from './variants-line.ts';
import { quarantine, workflowCommand } from './workflow-command.ts';

type Context = { diagnose: (c: CaseResult) => string; rerunCommand?: string; fileOf?: SourceFileOf };

// GitHub keeps 10 error annotations per step (actions/toolkit docs/problem-matchers.md: 10 of each kind per
// step, 50 per job), cuts an annotation message at 4,096 characters (actions/runner ExecutionContext
// `_maxIssueMessageLength`), and the Checks API caps a title at 255.
export const ANNOTATIONS_PER_STEP = 10;
// Characters of an annotation message the runner keeps.
export const MESSAGE_LIMIT = 4096;
// Characters of an annotation title.
const TITLE_LIMIT = 255;

// For a GitHub Actions step: an `::error` annotation per failing case on the stage's student file (`file=`, and
// `line=` when a stack trace names one; otherwise GitHub shows it on the file's first line) up to the bound, then one notice
// saying how many were left out), the summary, each failure's full diagnosis in a collapsed `::group::`, and
// last the plain line `N passed, N failed`. Text from the student's program only ever appears quarantined
// (see workflow-command.ts) or escaped as command data, so it cannot issue a workflow command.
// With earlier stages graded too (--previous), every stage's failures share the step's annotations, each named
// `<stage>: <case>`, and the summary has a part per stage.
export function render(report: RunReport, ctx: Context): string {
  const stages = [report, ...(report.previous ?? [])];
  const names = new Map<CaseResult, string>();
  const stageOfCase = new Map<CaseResult, string>();
  for (const r of stages) {
    for (const c of r.cases) {
      names.set(c, stages.length > 1 ? `${r.stage}: ${c.name}` : c.name);
      stageOfCase.set(c, r.stage);
    }
  }
  const name = (c: CaseResult): string => names.get(c) ?? c.name;
  const failed = stages.flatMap((r) => r.cases.filter((c) => c.status === 'fail'));
  const { annotated, eligible } = toAnnotate(failed);
  const lines = annotated.map((c) => annotation(c, name(c), sourcePlace(c, stageOfCase.get(c) ?? '', ctx.fileOf)));
  const left = eligible - annotated.length;
  if (left > 0) {
    const note =
      `${left} more failing ${left === 1 ? 'case has' : 'cases have'} no annotation: GitHub keeps ` +
      `${ANNOTATIONS_PER_STEP} error annotations per step. Every diagnosis is in the step log.`;
    lines.push(workflowCommand('notice', { title: 'theinference' }, note));
  }
  const parts = stages.map((r) =>
    summary(
      r,
      r.cases.filter((c) => c.status === 'fail'),
      undefined,
    ),
  );
  const rerun =
    ctx.rerunCommand === undefined
      ? []
      : ctx.rerunCommand.split('\n').map((l) => `Re-run just the failures: ${oneLine(l)}`);
  lines.push(...quarantine([...parts, ...rerun].join('\n')));
  for (const c of failed) {
    lines.push(workflowCommand('group', {}, `FAIL ${oneLine(name(c))}`), ...quarantine(ctx.diagnose(c)));
    lines.push(workflowCommand('endgroup', {}, ''));
  }
  const sum = (key: 'passed' | 'failed') => stages.reduce((n, r) => n + r[key], 0);
  lines.push(`${sum('passed')} passed, ${sum('failed')} failed`, '');
  return lines.join('\n');
}

// The failures that get one of the step's annotations, in report order: the first case of each cause before any
// second one, so one mistake that fails 33 cases takes one annotation and leaves the others for other mistakes. A
// program that did not start fails every case before any ran, the same way: its one annotation says it all, so its
// other cases are no candidates (`eligible` counts the candidates).
function toAnnotate(failed: CaseResult[]): { annotated: CaseResult[]; eligible: number } {
  const firsts = groupFailures(failed).map((g) => g.results[0]!);
  const seconds = failed.filter((c) => !firsts.includes(c) && c.failure?.beforeAnyCase !== true);
  const chosen = new Set([...firsts, ...seconds].slice(0, ANNOTATIONS_PER_STEP));
  return { annotated: failed.filter((c) => chosen.has(c)), eligible: firsts.length + seconds.length };
}

function annotation(c: CaseResult, title: string, place: SourcePlace | undefined): string {
  const hint = c.failure?.hint;
  const text = [failureMessage(c), hint === undefined ? '' : `Hint: ${hint}`, `Case: ${c.description}`]
    .filter((part) => part !== '')
    .join('\n');
  const where: Record<string, string> =
    place === undefined ? {} : { file: place.file, ...(place.line === undefined ? {} : { line: String(place.line) }) };
  return workflowCommand(
    'error',
    { ...where, title: bounded(oneLine(title), TITLE_LIMIT) },
    bounded(plainText(text), MESSAGE_LIMIT),
  );
}

// Text cut to `max` characters with an ellipsis, so a cut is visible rather than silent.
function bounded(text: string, max: number): string {
  return text.length <= max ? text : `${cut(text, max - 1)}…`;
}

function summary(report: RunReport, failed: CaseResult[], rerunCommand: string | undefined): string {
  const time = `${(report.durationMs / 1000).toFixed(2)} s`;
  const total = report.cases.length;
  const variants = report.variants === undefined ? [] : [variantsLine(report.variants, report.stage)];
  if (failed.length === 0) return [`${report.stage}: all ${total} cases passed (${time})`, ...variants].join('\n');
  return [
    `${report.stage}: ${failed.length} of ${total} cases failed (${time})`,
    ...variants,
    ...failed.map((c) => `FAIL ${oneLine(c.name)}: ${oneLine(failureMessage(c))}`),
    ...(rerunCommand === undefined ? [] : [`Re-run just the failures: ${oneLine(rerunCommand)}`]),
  ].join('\n');
}

// Failures listed in the job summary at most; the rest are counted (every diagnosis is in the step log).
const SUMMARY_ROWS = 50;

// The job summary (`$GITHUB_STEP_SUMMARY`, GitHub-flavoured Markdown): per stage, the counts, the score and a table of
// the failing cases with their one-line messages and hints. A message may quote the program, so every cell is escaped
// (escapeMarkdown): nothing it holds becomes a link, an image, HTML or a table cell of its own.
export function renderStepSummary(report: RunReport, ctx: Pick<Context, 'rerunCommand'>): string {
  const stages = [report, ...(report.previous ?? [])];
  const sum = (key: 'passed' | 'failed') => stages.reduce((n, r) => n + r[key], 0);
  const lines = [`## theinference: ${sum('passed')} passed, ${sum('failed')} failed`, ''];
  for (const r of stages) {
    const { score, maxScore } = scoreOf(r);
    const failed = r.cases.filter((c) => c.status === 'fail');
    const mark = failed.length === 0 ? '✅' : '❌';
    lines.push(
      `### ${mark} ${escapeMarkdown(r.stage)}: ${r.passed} of ${r.cases.length} cases passed, ${score} of ${maxScore} points`,
      '',
    );
    if (r.variants !== undefined) lines.push(escapeMarkdown(variantsLine(r.variants, r.stage)), '');
    if (failed.length === 0) continue;
    lines.push('| case | what went wrong | hint |', '| --- | --- | --- |');
    for (const c of failed.slice(0, SUMMARY_ROWS)) {
      const hint = c.failure?.hint ?? '';
      lines.push(`| ${cell(c.name)} | ${cell(failureMessage(c))} | ${cell(hint)} |`);
    }
    if (failed.length > SUMMARY_ROWS)
      lines.push('', `…and ${failed.length - SUMMARY_ROWS} more: every diagnosis is in the step log.`);
    lines.push('');
  }
  if (ctx.rerunCommand !== undefined) {
    lines.push('Re-run just the failures:', '', ...ctx.rerunCommand.split('\n').map((l) => `    ${oneLine(l)}`), '');
  }
  return `${lines.join('\n')}\n`;
}

// One table cell: one line, cut to a readable length, escaped.
function cell(text: string): string {
  return escapeMarkdown(bounded(oneLine(plainText(text)), 300));
}

// Text that GitHub's Markdown shows as written: `&`, `<` and `>` as entities (no HTML), and a backslash before every
// other ASCII punctuation character Markdown gives a meaning to (CommonMark lets any of them be escaped so).
export function escapeMarkdown(text: string): string {
  return text
    .replace(/[\\`*_{}[\]()#+\-.!|~:"'$%^=]/g, (c) => `\\${c}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}
