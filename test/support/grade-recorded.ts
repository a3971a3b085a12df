// The grader's own verdict on every case a recording wrote into a course directory: the reference course (the
// stage's: the dispatcher, or the loop) graded
// on them, each case judged against the snapshot beside it, as a student's run would judge it.
import { loadCases } from '../../src/course/load-cases.ts';
import { readSnapshot, snapshotPath } from '../../src/course/snapshot-file.ts';
import { judgeCase } from '../../src/grade/judge/judge-case.ts';
import { runBatches, type CaseRun } from '../../src/grade/run/run-batches.ts';
import { stageOf } from '../../src/course/stages.ts';
import { makeCourse, makeLoopCourse, type Scratch } from '../grade/course-fixture.ts';
import { CONFINEMENT } from './isolation.ts';

// `<case>: pass` or `<case>: fail (<why>)` for every case of `stage` in `dir`, in name order.
export async function gradeRecorded(scratch: Scratch, dir: string, stage: string): Promise<string[]> {
  const mode = stageOf(stage)?.mode ?? 'dispatch';
  const course = await (mode === 'loop' ? makeLoopCourse(scratch) : makeCourse(scratch));
  const cases = await loadCases(dir, stage);
  const runs = new Map<string, CaseRun>();
  const all = cases.map((c) => ({ name: c.name, file: c.file }));
  await runBatches({
    dir: course,
    stage,
    cases: all,
    jobs: 2,
    timeoutMs: 30_000,
    env: process.env,
    confinement: CONFINEMENT,
    onCase: (r) => runs.set(r.name, r),
  });
  const verdicts: string[] = [];
  for (const c of cases) {
    const run = runs.get(c.name);
    if (run === undefined) throw new Error(`the grader did not run ${c.name}`);
    const verdict = judgeCase(c, await readSnapshot(snapshotPath(dir, stage, c.name)), run);
    verdicts.push(
      verdict.status === 'pass' ? `${c.name}: pass` : `${c.name}: fail (${verdict.failure?.message ?? ''})`,
    );
  }
  return verdicts;
}
