import type { CaseResult, RunReport } from '../types.ts';
import { caseStatus, failureMessage } from './case-status.ts';
import { oneLine } from './plain-text.ts';
import { variantsLine } from './variants-line.ts';
import { yamlLiteral, yamlString, yamlValue } from './yaml-text.ts';

// TAP version 14 (testanything.org/tap-version-14-specification): the plan first, one test point per case,
// and under each failing one a YAML diagnostic block indented two spaces. The run ends with the comment
// `# N passed, N failed`: a bare line there would be non-TAP data, which strict consumers reject.
export function render(report: RunReport, ctx: { diagnose: (c: CaseResult) => string }): string {
  if (report.previous !== undefined && report.previous.length > 0) return renderStages(report, ctx);
  const lines = [
    'TAP version 14',
    report.cases.length === 0 ? '1..0 # SKIP no cases selected' : `1..${report.cases.length}`,
  ];
  report.cases.forEach((c, i) => {
    const status = caseStatus(c);
    lines.push(`${status === 'pass' ? 'ok' : 'not ok'} ${i + 1} - ${tapDescription(c.name)}`);
    if (status !== 'pass') lines.push('  ---', ...diagnostic(c, status, ctx.diagnose(c)), '  ...');
  });
  if (report.variants !== undefined) lines.push(`# ${variantsLine(report.variants, report.stage)}`);
  lines.push(`# ${report.passed} passed, ${report.failed} failed`, '');
  return lines.join('\n');
}

// A test point description on one line, with `\` and `#` escaped as the spec requires (a bare `#` would start
// a directive such as `# SKIP`).
export function tapDescription(name: string): string {
  return oneLine(name).trim().replace(/\\/g, '\\\\').replace(/#/g, '\\#');
}

// The YAML diagnostic's lines (two-space indented), in a fixed key order: what failed, where, both sides,
// the hint, then the full diagnosis as a block scalar. `callIndex` is 0-based like the report's.
function diagnostic(c: CaseResult, status: 'fail' | 'error', diagnosis: string): string[] {
  const f = c.failure;
  const lines = [`  message: ${yamlString(failureMessage(c))}`, `  severity: ${status}`];
  if (f !== undefined) lines.push(`  kind: ${yamlString(f.kind)}`);
  if (f?.callIndex !== undefined) lines.push(`  callIndex: ${f.callIndex}`);
  if (f?.call !== undefined) lines.push(`  tool: ${yamlValue(f.call.tool)}`, `  input: ${yamlValue(f.call.input)}`);
  if (f?.expected !== undefined) lines.push(`  expected: ${yamlValue(f.expected)}`);
  if (f?.received !== undefined) lines.push(`  received: ${yamlValue(f.received)}`);
  if (f?.hint !== undefined) lines.push(`  hint: ${yamlString(f.hint)}`);
  lines.push(`  duration_ms: ${Math.max(0, Math.round(c.durationMs))}`);
  return [...lines, ...yamlLiteral('diagnosis', diagnosis, '  ')];
}

// With earlier stages graded too (--previous): a subtest per stage (TAP 14), the current one first, each the stage's
// own stream indented four spaces under `# Subtest: <stage>`, then its test point; the run's counts last.
function renderStages(report: RunReport, ctx: { diagnose: (c: CaseResult) => string }): string {
  const stages = [report, ...(report.previous ?? [])];
  const lines = ['TAP version 14', `1..${stages.length}`];
  stages.forEach((r, i) => {
    const child = render({ ...r, previous: [] }, ctx)
      .split('\n')
      .slice(1, -1);
    lines.push(`# Subtest: ${tapDescription(r.stage)}`, ...child.map((l) => (l === '' ? l : `    ${l}`)));
    lines.push(`${r.failed === 0 ? 'ok' : 'not ok'} ${i + 1} - ${tapDescription(r.stage)}`);
  });
  const sum = (key: 'passed' | 'failed') => stages.reduce((n, r) => n + r[key], 0);
  lines.push(`# ${sum('passed')} passed, ${sum('failed')} failed`, '');
  return lines.join('\n');
}
