// Whether a run earns the "what comes next" lines, and which: every case of the stage was graded (no --case,
// --failed or --shard picked a few) and passed, with every earlier stage graded, and the course directory has not
// added the next stage yet. Synchronous (a few stat calls): watch mode's screen is drawn in one step.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { nextStageOf, nextStepLines } from '../course/next-stage.ts';
import { reachedEarlierStagesSync } from '../course/reached-stages.ts';
import { casesDir, earlierStages } from '../course/stages.ts';
import { allPassed } from '../grade/run-course.ts';
import type { RunReport } from '../grade/types.ts';

// The lines to print after the report (none when the run does not earn them).
export function nextStep(report: RunReport, root: string): string[] {
  if (!allPassed(report) || (report.skipped ?? 0) > 0) return [];
  if (report.cases.length < caseCount(root, report.stage)) return [];
  const next = nextStageOf(report.stage);
  if (next?.writes.every((f) => existsSync(join(report.dir, f))) === true) return [];
  const graded = new Set((report.previous ?? []).map((r) => r.stage));
  const everyStage = earlierStages(report.stage).every((s) => graded.has(s.slug));
  const reached = reachedEarlierStagesSync(report.dir, report.stage).map((s) => s.slug);
  return nextStepLines(report.stage, reached, everyStage);
}

function caseCount(root: string, stage: string): number {
  try {
    return readdirSync(casesDir(root, stage)).filter((f) => f.endsWith('.json')).length;
  } catch {
    return 0;
  }
}
