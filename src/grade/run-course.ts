// Grades a course directory at its stage and, with --previous, the earlier stages it has reached after it, as
// CodeCrafters' --previous does: a stage is complete only when the ones before it still pass. Each stage is one
// runStage; the report is the current stage's, the others' in `previous`.
import { notReachedWarning, reachedEarlierStages } from '../course/reached-stages.ts';
import { runStage } from './run-stage.ts';
import type { RunOptions } from './run-options.ts';
import type { RunReport } from './types.ts';

// The stage, then each earlier one reached (all their cases: --case, --failed and the timings are the stage's
// own), nearest first. --bail stops at the first failure in any of them.
export async function runCourse(options: RunOptions): Promise<RunReport> {
  const { previous, ...one } = options;
  const earlier = previous === true ? await reachedEarlierStages(options.dir, options.stage) : [];
  const [ran, left] = await Promise.all([
    runStage(one),
    previous === true ? notReachedWarning(options.dir, options.stage) : undefined,
  ]);
  const report = left === undefined ? ran : { ...ran, warnings: [...(ran.warnings ?? []), left] };
  if (earlier.length === 0) return report;
  const reports: RunReport[] = [];
  for (const stage of earlier) {
    if (options.bail === true && [report, ...reports].some((r) => r.failed > 0)) break;
    const { cases: _, timings: __, ...rest } = one;
    reports.push(await runStage({ ...rest, stage: stage.slug }));
  }
  return { ...report, previous: reports };
}

// The report and the earlier stages' reports, the current one first.
export function stageReports(report: RunReport): RunReport[] {
  return [report, ...(report.previous ?? [])];
}

// Every stage's cases passed.
export function allPassed(report: RunReport): boolean {
  return stageReports(report).every((r) => r.failed === 0);
}

// The run's counts over every stage graded: what every reporter and the summary show as its totals.
export function stageTotals(report: RunReport): { passed: number; failed: number } {
  const stages = stageReports(report);
  return {
    passed: stages.reduce((n, r) => n + r.passed, 0),
    failed: stages.reduce((n, r) => n + r.failed, 0),
  };
}
