// The terminal report of a run that graded earlier stages too (--previous): each stage apart under its name (its
// failures, warnings and counts), then the run's counts over every stage, the plain `N passed, N failed` line,
// and the commands that re-run each stage's failures.
import { stageOf } from '../../course/stages.ts';
import type { RunReport } from '../types.ts';
import { painter } from './paint.ts';
import { renderPretty } from './pretty.ts';

export function renderStages(report: RunReport, options: { color: boolean; rerunCommand?: string }): string {
  const c = painter(options.color);
  const stages = [report, ...(report.previous ?? [])];
  const parts = stages.map((r, i) => {
    const title = stageOf(r.stage)?.title;
    const place = i === 0 ? 'this stage' : 'an earlier stage';
    const heading = c.bold(`═══ ${r.stage}${title === undefined ? '' : ` "${title}"`} (${place}) ═══`);
    return `\n${heading}\n${renderPretty(r, { color: options.color, ofStages: true })}`;
  });
  const passed = stages.reduce((n, r) => n + r.passed, 0);
  const failed = stages.reduce((n, r) => n + r.failed, 0);
  const verdicts = stages.map((r) => (r.failed > 0 ? c.red(`${r.stage} ✗`) : c.green(`${r.stage} ✓`)));
  const summary = [` ${c.dim('Stages')} ${verdicts.join(c.dim(' | '))}`, '', `${passed} passed, ${failed} failed`];
  if (options.rerunCommand !== undefined && failed > 0) {
    summary.push('', 'Re-run just the failures:', options.rerunCommand);
  }
  return `${parts.join('')}\n${summary.join('\n')}\n`;
}
