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

// What `--previous` leaves out, as the run's warning: each earlier stage `dir` has not reached, with the files of it
// that are missing; undefined when every earlier stage is there. A stage left out is said, never skipped silently:
// a student who started at a later stage reads why, and staff see a submission whose earlier files are gone.
export async function notReachedWarning(dir: string, slug: string): Promise<string | undefined> {
  const missing = await Promise.all(
    earlierStages(slug).map(async (stage) => {
      const files = await Promise.all(stage.writes.map((f) => stat(join(dir, f)).catch(() => undefined)));
      const absent = stage.writes.filter((_, i) => files[i]?.isFile() !== true);
      return absent.length === 0 ? undefined : `${stage.slug} (${absent.join(', ')})`;
    }),
  );
  const left = missing.filter((m) => m !== undefined).reverse();
  if (left.length === 0) return undefined;
  const named = left.length === 1 ? left[0] : `${left.slice(0, -1).join(', ')} and ${left.at(-1)}`;
  const [stages, files] = left.length === 1 ? ['stage', 'its file'] : ['stages', 'their files'];
  return `--previous did not grade the earlier ${stages} ${named}: the course directory does not have ${files}`;
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
