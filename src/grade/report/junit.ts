import type { CaseResult, RunReport } from '../types.ts';
import { caseStatus, failureMessage } from './case-status.ts';
import { oneLine } from './plain-text.ts';
import { scoreOf } from './score.ts';
import { visibleText } from './visible-text.ts';
import { xmlAttribute, xmlCdata } from './xml-escape.ts';

// JUnit XML: <testsuites> around one <testsuite> named for the stage (one per stage with --previous), one
// <testcase> per case
// (classname = stage, name = case). A wrong answer is a <failure>, a program that gave no answer (crash,
// timeout, no or bad output) an <error>; the body is the plain diagnosis. Every shard of a run writes the
// same suite name, so merged files show one stage whose cases are the union of the shards' (docs/reporters.md).
export function render(report: RunReport, ctx: { diagnose: (c: CaseResult) => string }): string {
  // With earlier stages graded too (--previous), one <testsuite> per stage, the current one first.
  const stages = [report, ...(report.previous ?? [])];
  const all = stages.flatMap((r) => r.cases);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="theinference" ${counts(all, report.durationMs + sumOf(report.previous))}>`,
    ...stages.flatMap((r) => suite(r, ctx.diagnose)),
    '</testsuites>',
    '',
  ].join('\n');
}

function suite(report: RunReport, diagnose: (c: CaseResult) => string): string[] {
  const stage = xmlAttribute(report.stage);
  return [
    `  <testsuite name=${stage} ${counts(report.cases, report.durationMs)}>`,
    ...suiteProperties(report),
    ...report.cases.flatMap((c) => testcase(c, stage, diagnose)),
    '  </testsuite>',
  ];
}

function counts(cases: CaseResult[], durationMs: number): string {
  const statuses = cases.map(caseStatus);
  return [
    `tests="${cases.length}"`,
    `failures="${statuses.filter((s) => s === 'fail').length}"`,
    `errors="${statuses.filter((s) => s === 'error').length}"`,
    `skipped="0"`,
    `time="${seconds(durationMs)}"`,
  ].join(' ');
}

function sumOf(reports: RunReport[] | undefined): number {
  return (reports ?? []).reduce((ms, r) => ms + r.durationMs, 0);
}

function testcase(c: CaseResult, stage: string, diagnose: (c: CaseResult) => string): string[] {
  const open = `    <testcase classname=${stage} name=${xmlAttribute(c.name)} time="${seconds(c.durationMs)}"`;
  const status = caseStatus(c);
  const body: string[] = properties(
    [
      ['points', c.points],
      ['visibility', c.visibility],
    ],
    '      ',
  );
  if (status !== 'pass') {
    const element = status === 'error' ? 'error' : 'failure';
    const type = xmlAttribute(c.failure?.kind ?? 'failure');
    const message = xmlAttribute(oneLine(failureMessage(c)));
    body.push(`      <${element} type=${type} message=${message}>${xmlCdata(diagnose(c))}</${element}>`);
  }
  if (c.output !== '') body.push(`      <system-out>${xmlCdata(visibleText(c.output))}</system-out>`);
  return body.length === 0 ? [`${open}/>`] : [`${open}>`, ...body, '    </testcase>'];
}

// The run's variants and a weighted run's score, where JUnit keeps a suite's facts (the score only when some case
// sets its points: the counts say the rest).
function suiteProperties(report: RunReport): string[] {
  const { score, maxScore, weighted } = scoreOf(report);
  const v = report.variants;
  return properties(
    [
      ['variants.seed', v?.seed],
      ['variants.judged', v?.judged],
      ['variants.none', v?.none.length],
      ['score', weighted ? score : undefined],
      ['max_score', weighted ? maxScore : undefined],
    ],
    '    ',
  );
}

// `<properties>` with a `<property>` per value that is set (pytest's record_property layout: the first child of
// its element); nothing when none is.
function properties(values: [string, string | number | undefined][], indent: string): string[] {
  const set = values.filter((v): v is [string, string | number] => v[1] !== undefined);
  if (set.length === 0) return [];
  return [
    `${indent}<properties>`,
    ...set.map(
      ([name, value]) => `${indent}  <property name=${xmlAttribute(name)} value=${xmlAttribute(String(value))}/>`,
    ),
    `${indent}</properties>`,
  ];
}

// JUnit times are seconds; three decimals keep milliseconds.
function seconds(ms: number): string {
  return (Math.max(0, Number.isFinite(ms) ? ms : 0) / 1000).toFixed(3);
}
