// The terminal reporter: a live count while verdicts stream in (on a terminal), then each failure's full
// diagnosis (once per cause: failures that share one are grouped), then the summary (counts and time, the plain
// `N passed, N failed` line, the command that re-runs the failures). A green run is the summary alone.
import { groupFailures } from './group-failures.ts';
import { painter } from './paint.ts';
import { renderGroup } from './render-group.ts';
import { scoreOf } from './score.ts';
import type { RunReport } from '../types.ts';
import { variantsLine } from './variants-line.ts';
import { renderStages } from './pretty-stages.ts';

// Erases the live count's line on a terminal, cursor back at column 0.
export const ERASE_LINE = '\r\u001b[2K';

// The live count of a run on a terminal, redrawn in place as verdicts arrive (a line per case would bury the
// report; failures are told in full, once per mistake, when the run ends).
export function renderLiveCount(count: { done: number; failed: number }, options: { color: boolean }): string {
  const c = painter(options.color);
  const failed = count.failed === 0 ? '' : `, ${c.red(`${count.failed} failed`)}`;
  return `${ERASE_LINE}${c.dim(`grading… ${count.done} done`)}${failed}`;
}

// Why failures did not run: ` (not run: …)` when none did, ` (2 of them not run: …)` when some did.
function notRunNote(notRun: number, failed: number): string {
  if (notRun === 0) return '';
  return ` (${notRun === failed ? '' : `${notRun} of them `}not run: your program did not start)`;
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
  // Cases that did not run fail (the plain line below counts them so, as CI reads it); the count says why, in the
  // same number, so that the summary and the last line agree.
  const notRun = failures.filter((r) => r.failure?.beforeAnyCase === true).length;
  const counts = [
    report.failed > 0 ? c.red(`${report.failed} failed${notRunNote(notRun, report.failed)}`) : undefined,
    c.green(`${report.passed} passed`),
    report.skipped === undefined ? undefined : c.yellow(`${report.skipped} not run (--bail)`),
  ].filter((s) => s !== undefined);
  // Only a course that weighs its cases has a score that says more than the counts.
  const score = scoreOf(report);
  const summary = [
    ` ${c.dim('Stage')}  ${report.stage}`,
    ` ${c.dim('Cases')}  ${counts.join(c.dim(' | '))} ${c.dim(`(${total})`)}`,
    ...(score.weighted ? [` ${c.dim('Points')} ${score.score} of ${score.maxScore}`] : []),
    ...(report.variants === undefined ? [] : [` ${c.dim('Also')}   ${variantsLine(report.variants, report.stage)}`]),
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
