// Which stages a course directory has reached: those whose every student file is there. `test --previous` grades
// them after the current one, and `init --stage` in a course directory keeps grading them.
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { earlierStages, type Stage } from './stages.ts';

// The stages before `slug` that `dir` has reached, nearest first.
export async function reachedEarlierStages(dir: string, slug: string): Promise<Stage[]> {
  const reached = await Promise.all(earlierStages(slug).map((stage) => hasStage(dir, stage)));
  return earlierStages(slug).filter((_, i) => reached[i]);
}

async function hasStage(dir: string, stage: Stage): Promise<boolean> {
  const files = await Promise.all(stage.writes.map((f) => stat(join(dir, f)).catch(() => undefined)));
  return files.every((f) => f?.isFile() === true);
}
