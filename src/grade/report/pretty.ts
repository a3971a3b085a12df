// The terminal reporter: a progress line per case as verdicts stream in, then each failure's full diagnosis (once
// per cause: failures that share one are grouped), then the summary (counts and time, the plain
// `N passed, N failed` line, the command that re-runs the failures).
import { firstOfCause, groupFailures } from './group-failures.ts';
import { painter } from './paint.ts';
import { renderGroup } from './render-group.ts';
import type { CaseResult, RunReport } from '../types.ts';
import { visibleLine } from './visible-text.ts';
import { renderStages } from './pretty-stages.ts';

// One line for a case whose verdict just arrived.
export function renderProgressLine(result: CaseResult, options: { color: boolean }): string {
  const c = painter(options.color);
  if (result.status === 'pass') return ` ${c.green('✓')} ${result.name} ${c.dim(`${result.durationMs} ms`)}`;
  const name = result.failure?.beforeAnyCase === true ? 'your program did not start' : result.name;
  return ` ${c.red('✗')} ${name} ${c.dim(`— ${visibleLine(result.failure?.message ?? 'failed')}`)}`;
}

// The progress lines of one run, as verdicts stream in: every pass, and a failure only the first time its cause
// shows (the report then says how many more cases failed the same way); undefined for a line not to print.
export function progressLines(options: { color: boolean }): (result: CaseResult) => string | undefined {
  const isFirst = firstOfCause();
  return (result) => (result.status === 'pass' || isFirst(result) ? renderProgressLine(result, options) : undefined);
}

// The end of a run: failures in full, warnings, and the summary. With earlier stages graded too (--previous), each
// stage's part, then the whole run's counts (pretty-stages.ts). `ofStages`: this is one stage's part of that.
export function renderPretty(
  report: RunReport,
  options: { color: boolean; rerunCommand?: string; ofStages?: boolean },
): string {
  if (report.previous !== undefined && report.previous.length > 0 && options.ofStages !== true) {
    return renderStages(report, options);
  }
  const c = painter(options.color);
  const failures = report.cases.filter((r) => r.status === 'fail');
  const blocks: string[] = [];
  if (failures.length > 0) {
    const rule = c.red(`─── ${failures.length} failed ${'─'.repeat(40)}`);
    const groups = groupFailures(failures).map((g) =>
      renderGroup(g, { color: options.color, total: report.cases.length }),
    );
    blocks.push([rule, ...groups].join('\n\n'));
  }
  for (const warning of report.warnings ?? []) blocks.push(`${c.yellow('warning:')} ${warning}`);
  const total = report.cases.length + (report.skipped ?? 0);
  const counts = [
    report.failed > 0 ? c.red(`${report.failed} failed`) : undefined,
    c.green(`${report.passed} passed`),
    report.skipped === undefined ? undefined : c.yellow(`${report.skipped} not run (--bail)`),
  ].filter((s) => s !== undefined);
  const summary = [
    ` ${c.dim('Stage')}  ${report.stage}`,
    ` ${c.dim('Cases')}  ${counts.join(c.dim(' | '))} ${c.dim(`(${total})`)}`,
    ` ${c.dim('Time')}   ${(report.durationMs / 1000).toFixed(2)} s`,
  ];
  // The whole run's counts end it, once: a stage's part has none of its own.
  if (options.ofStages === true) return `\n${[...blocks, summary.join('\n')].join('\n\n')}\n`;
  summary.push(
    '',
    // Alone on its line and never coloured, for scripts and for people skimming a log.
    `${report.passed} passed, ${report.failed} failed`,
  );
  if (total === 0) summary.push('No case was selected (an empty shard?).');
  if (options.rerunCommand !== undefined && report.failed > 0) {
    summary.push('', 'Re-run just the failures:', options.rerunCommand);
  }
  blocks.push(summary.join('\n'));
  return `\n${blocks.join('\n\n')}\n`;
}
