import type { CaseResult, RunReport } from '../types.ts';
import { caseStatus, failureMessage } from './case-status.ts';
import { oneLine } from './plain-text.ts';
import { scoreOf } from './score.ts';
import { type SourceFileOf, sourcePlace, stageFile } from './source-file.ts';
import { stageOf } from '../../course/stages.ts';
import { nameText, visibleText } from './visible-text.ts';
import { xmlAttribute, xmlCdata } from './xml-escape.ts';

// JUnit XML as the Jenkins xunit plugin's schema (junit-10.xsd) allows it: <testsuites> around one <testsuite> per
// stage (the current one first with --previous), one <testcase> per case (classname = stage, name = case). A wrong
// answer is a <failure>, a program that gave no answer (crash, timeout, no or bad output) an <error>; the body is the
// plain diagnosis, ending in a stack-style frame `at <entry> (<file>:<line>:1)` that names the student's file (what
// dorny/test-reporter reads). The suite's `file` is the stage's student file (what mikepenz/action-junit-report
// reads); the schema has no `file` on a testcase, nor `skipped` on <testsuites>, nor <properties> in a testcase.
// Times are each case's own: a suite's is the sum of its cases', the whole's the sum of the suites'. Every shard of
// a run writes the same suite name, so merged files show one stage whose cases are the union of the shards' and whose
// `score` properties (one block per shard) add up to the whole's (docs/reporters.md).
// In a class (`submission` given), each suite is named for the submission and each classname is
// `<submission>.<stage>`: the class's files merged hold one suite per submission, and no two students' cases share a
// classname and name (GitLab keys a test by them, and keeps one of each key).
export function render(
  report: RunReport,
  ctx: { diagnose: (c: CaseResult) => string; fileOf?: SourceFileOf; submission?: string },
): string {
  const stages = [report, ...(report.previous ?? [])];
  const all = stages.flatMap((r) => r.cases);
  const fileOf = ctx.fileOf ?? stageFile;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="theinference" ${counts(all)}>`,
    ...stages.flatMap((r) => suite(r, ctx.diagnose, fileOf, ctx.submission)),
    '</testsuites>',
    '',
  ].join('\n');
}

function suite(
  report: RunReport,
  diagnose: (c: CaseResult) => string,
  fileOf: SourceFileOf,
  submission: string | undefined,
): string[] {
  const file = fileOf(report.stage);
  const where = file === undefined ? '' : ` file=${xmlAttribute(file)}`;
  const name = submission === undefined ? undefined : oneLine(nameText(submission));
  const classname = name === undefined ? report.stage : `${name}.${report.stage}`;
  return [
    `  <testsuite name=${xmlAttribute(name ?? report.stage)} ${counts(report.cases)} skipped="0"${where}>`,
    ...suiteProperties(report),
    ...report.cases.flatMap((c) => testcase(c, report.stage, classname, diagnose, fileOf)),
    '  </testsuite>',
  ];
}

// The counts and the time (the cases' summed) that both <testsuites> and <testsuite> carry.
function counts(cases: CaseResult[]): string {
  const statuses = cases.map(caseStatus);
  return [
    `tests="${cases.length}"`,
    `failures="${statuses.filter((s) => s === 'fail').length}"`,
    `errors="${statuses.filter((s) => s === 'error').length}"`,
    `time="${seconds(cases.reduce((ms, c) => ms + safe(c.durationMs), 0))}"`,
  ].join(' ');
}

function testcase(
  c: CaseResult,
  stage: string,
  classname: string,
  diagnose: (c: CaseResult) => string,
  fileOf: SourceFileOf,
): string[] {
  const open = `    <testcase classname=${xmlAttribute(classname)} name=${xmlAttribute(c.name)} time="${seconds(c.durationMs)}"`;
  const status = caseStatus(c);
  const body: string[] = [];
  if (status !== 'pass') {
    const element = status === 'error' ? 'error' : 'failure';
    const type = xmlAttribute(c.failure?.kind ?? 'failure');
    const message = xmlAttribute(oneLine(failureMessage(c)));
    const text = [diagnose(c), frame(c, stage, fileOf)].filter((t) => t !== '').join('\n');
    body.push(`      <${element} type=${type} message=${message}>${xmlCdata(text)}</${element}>`);
  }
  if (c.output !== '') body.push(`      <system-out>${xmlCdata(prefixed(c.output))}</system-out>`);
  return body.length === 0 ? [`${open}/>`] : [`${open}>`, ...body, '    </testcase>'];
}

// What the program printed, every line `[your_program] `-prefixed as the terminal shows it: a report on stdout is a
// CI log, whose reader takes a line of the program's own (`::add-mask::`, `::error::`, a fake `143 passed, 0 failed`)
// for the grader's.
function prefixed(output: string): string {
  return visibleText(output)
    .replace(/\n$/, '')
    .split('\n')
    .map((line) => `[your_program] ${line}`)
    .join('\n');
}

// `    at makeExecute (src/execute.ts:12:1)`: the student's file and line (1 when no trace names one) in the one shape
// stack-reading consumers parse.
function frame(c: CaseResult, stage: string, fileOf: SourceFileOf): string {
  const place = sourcePlace(c, stage, fileOf);
  if (place === undefined) return '';
  return `    at ${stageOf(stage)?.entry ?? stage} (${place.file}:${place.line ?? 1}:1)`;
}

// The run's variants and its score, where JUnit keeps a suite's facts. The score is there even when no case is
// weighted: a shard cannot know whether another shard's cases are, and merged shards' scores must add up. Each case's
// points are in the json and gradescope reports: the schema has no place for them in a testcase.
function suiteProperties(report: RunReport): string[] {
  const { score, maxScore } = scoreOf(report);
  const v = report.variants;
  const values: [string, number | undefined][] = [
    ['variants.seed', v?.seed],
    ['variants.judged', v?.judged],
    ['variants.none', v?.none.length],
    ['score', score],
    ['max_score', maxScore],
  ];
  const set = values.filter((p): p is [string, number] => p[1] !== undefined);
  return [
    '    <properties>',
    ...set.map(([name, value]) => `      <property name=${xmlAttribute(name)} value=${xmlAttribute(String(value))}/>`),
    '    </properties>',
  ];
}

function safe(ms: number): number {
  return Math.max(0, Number.isFinite(ms) ? ms : 0);
}

// JUnit times are seconds; six decimals keep the microseconds a dispatch case is measured in (the schema's time
// pattern takes any number of decimals).
function seconds(ms: number): string {
  return (safe(ms) / 1000).toFixed(6);
}
