// Each recorded loop case's snapshot from the reference loop (this package's src/agent-loop.ts, through program.ts's
// loop mode and the grader's runner, sandboxed as for `snapshot`), after the course's own loader validated the case
// against its schema in a staging directory. A case the reference cannot run to its end is refused with why.
import { formatSnapshot } from '../../../course/snapshot-file.ts';
import { runStaged, type StagedRun } from '../../../record/write/write-cases.ts';
import type { LoopCaseDraft } from './loop-cases.ts';

export async function snapshotLoopCases(
  cases: LoopCaseDraft[],
  o: StagedRun,
): Promise<{ snapshots: Map<string, string>; failed: Map<string, string>; warnings: string[] }> {
  const snapshots = new Map<string, string>();
  const failed = new Map<string, string>();
  const { results, warnings } = await runStaged(cases, o);
  for (const c of cases) {
    const run = results.get(c.name);
    if (run?.ok === true) snapshots.set(c.name, formatSnapshot({ results: run.results }));
    else failed.set(c.name, `the reference loop failed on the case: ${run?.ok === false ? run.why : 'not run'}`);
  }
  return { snapshots, failed, warnings };
}
