import { createTwoFilesPatch } from 'diff';
import { stageOf } from '../../course/stages.ts';
import type { CaseResult, RunReport } from '../types.ts';
import { caseStatus, failureMessage } from './case-status.ts';
import { oneLine } from './plain-text.ts';
import { type SourceFileOf, sourcePlace } from './source-file.ts';
import { variantsLine } from './variants-line.ts';
import { escapeJsonText, yamlLiteral, yamlString, yamlValue } from './yaml-text.ts';

// TAP version 14 (testanything.org/tap-version-14-specification): the plan first, one test point per case,
// and under each failing one a YAML diagnostic block indented two spaces. The run ends with the comment
// `# N passed, N failed`: a bare line there would be non-TAP data, which strict consumers reject.
// Each stage's points come after a comment with its stage's counts. With earlier stages graded too (--previous),
// one flat plan of every stage's cases, each named `<stage>: <case>`: TAP→JUnit tools (tap-junit) and reporters count test points, not subtests.
export function render(report: RunReport, ctx: { diagnose: (c: CaseResult) => string; fileOf?: SourceFileOf }): string {
  const stages = [report, ...(report.previous ?? [])];
  const several = stages.length > 1;
  const total = stages.reduce((n, r) => n + r.cases.length, 0);
  const lines = ['TAP version 14', total === 0 ? '1..0 # SKIP no cases selected' : `1..${total}`];
  let point = 0;
  for (const r of stages) {
    // Each stage's points follow a comment naming it, as tape's follow their test's name: tap-spec reads a
    // failure's test from the comment before it, and stops at a failure that has none.
    if (r.cases.length > 0) lines.push(`# ${r.stage}: ${r.passed} passed, ${r.failed} failed`);
    for (const c of r.cases) {
      point += 1;
      const status = caseStatus(c);
      const name = several ? `${r.stage}: ${c.name}` : c.name;
      lines.push(`${status === 'pass' ? 'ok' : 'not ok'} ${point} - ${tapDescription(name)}`);
      if (status !== 'pass') lines.push('  ---', ...diagnostic(c, status, r.stage, ctx), '  ...');
    }
  }
  if (report.variants !== undefined) lines.push(`# ${variantsLine(report.variants, report.stage)}`);
  const sum = (key: 'passed' | 'failed') => stages.reduce((n, r) => n + r[key], 0);
  lines.push(`# ${sum('passed')} passed, ${sum('failed')} failed`, '');
  return lines.join('\n');
}

// A test point description on one line, with `\` and `#` escaped as the spec requires (a bare `#` would start
// a directive such as `# SKIP`).
export function tapDescription(name: string): string {
  return oneLine(name).trim().replace(/\\/g, '\\\\').replace(/#/g, '\\#');
}

// The YAML diagnostic's lines (two-space indented), in a fixed key order: what failed, where, both sides under
// this project's names (`expected`, `received`), node-tap's (`wanted`, `found`, `diff`, `at`) and tape's (`actual`),
// the hint, then the full diagnosis as a block scalar. `callIndex` is 0-based like the report's.
function diagnostic(
  c: CaseResult,
  status: 'fail' | 'error',
  stage: string,
  ctx: { diagnose: (c: CaseResult) => string; fileOf?: SourceFileOf },
): string[] {
  const f = c.failure;
  const lines = [`  message: ${yamlString(failureMessage(c))}`, `  severity: ${status}`];
  if (f !== undefined) lines.push(`  kind: ${yamlString(f.kind)}`);
  if (f?.callIndex !== undefined) lines.push(`  callIndex: ${f.callIndex}`);
  if (f?.call !== undefined) lines.push(`  tool: ${yamlValue(f.call.tool)}`, `  input: ${yamlValue(f.call.input)}`);
  if (f?.expected !== undefined)
    lines.push(`  expected: ${yamlValue(f.expected)}`, `  wanted: ${yamlValue(f.expected)}`);
  if (f?.received !== undefined) {
    lines.push(`  received: ${yamlValue(f.received)}`, `  found: ${yamlValue(f.received)}`);
    lines.push(`  actual: ${yamlValue(f.received)}`);
  }
  // A stack frame, as tape writes `at`: tap-mocha-reporter reads it as a stack string (`at.trim()`), tap-spec's
  // parser (tap-out) splits it at its space and colons, and an object there crashes both.
  const place = sourcePlace(c, stage, ctx.fileOf);
  const frame =
    place === undefined ? undefined : `${stageOf(stage)?.entry ?? stage} (${place.file}:${place.line ?? 1}:1)`;
  if (frame !== undefined) lines.push(`  at: ${yamlString(frame)}`);
  if (f?.hint !== undefined) lines.push(`  hint: ${yamlString(oneLine(f.hint))}`);
  lines.push(`  duration_ms: ${Math.max(0, Math.round(c.durationMs))}`);
  // The block scalars last, after `stack` (node-tap's: frames without `at `): tap-out (tap-spec's parser) reads every
  // line of a block as `key: value` and crashes on one without a colon, except after a `stack:` key, whose lines it
  // takes to the block's end.
  lines.push(...yamlLiteral('stack', frame ?? '', '  '));
  if (f?.expected !== undefined && f.received !== undefined) {
    lines.push(...yamlLiteral('diff', unifiedDiff(f.expected, f.received), '  '));
  }
  return [...lines, ...yamlLiteral('diagnosis', ctx.diagnose(c), '  ')];
}

// The two sides as node-tap writes its `diff`: a unified diff of their pretty JSON, `--- expected` / `+++ actual`.
function unifiedDiff(expected: unknown, received: unknown): string {
  const text = (v: unknown) => `${escapeJsonText(JSON.stringify(v, null, 2) ?? 'undefined')}\n`;
  return createTwoFilesPatch('expected', 'actual', text(expected), text(received), '', '', { context: 3 })
    .split('\n')
    .filter((line) => !line.startsWith('====') && !line.startsWith('\\ No newline'))
    .map((line) => line.replace(/\t$/, ''))
    .join('\n');
}
