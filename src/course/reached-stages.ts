// Which stages a course directory has reached: those whose every student file is there. `test --previous` grades
// them after the current one, and `init --stage` in a course directory keeps grading them.
import { statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { earlierStages, STAGES, type Stage } from './stages.ts';

// The stages before `slug` that `dir` has reached, nearest first.
export async function reachedEarlierStages(dir: string, slug: string): Promise<Stage[]> {
  const reached = await Promise.all(earlierStages(slug).map((stage) => hasStage(dir, stage)));
  return earlierStages(slug).filter((_, i) => reached[i]);
}

// The same, synchronously (a few stat calls), for a screen drawn in one step.
export function reachedEarlierStagesSync(dir: string, slug: string): Stage[] {
  return earlierStages(slug).filter((stage) =>
    stage.writes.every((f) => statSync(join(dir, f), { throwIfNoEntry: false })?.isFile() === true),
  );
}

async function hasStage(dir: string, stage: Stage): Promise<boolean> {
  const files = await Promise.all(stage.writes.map((f) => stat(join(dir, f)).catch(() => undefined)));
  return files.every((f) => f?.isFile() === true);
}

// How a course directory's scripts grade once `added` is in it: the latest stage it has reached (in course order,
// `added` counted as reached), and the others it has reached, nearest first (`--previous`). Adding an earlier stage
// to a course that has a later one keeps grading the later one: a stage the student wrote is never dropped.
export async function gradedAfterAdding(dir: string, added: Stage): Promise<{ stage: Stage; earlier: Stage[] }> {
  const has = await Promise.all(STAGES.map((s) => (s.slug === added.slug ? true : hasStage(dir, s))));
  const reached = STAGES.filter((_, i) => has[i]);
  const stage = reached.at(-1) ?? added;
  return { stage, earlier: reached.slice(0, -1).reverse() };
}
