// Grades a dispatcher in this process, as a run grades it in a program process: every case through program.ts's
// `dispatch` (results through JSON, as the grader receives them), judged against its snapshot, then the probe
// through program.ts's `observe` and each failure put under the finding that explains it. For the catalogue of
// wrong dispatchers, whose code is the course's own: nothing here is sandboxed.
import { loadCases } from '../../course/load-cases.ts';
import { readSnapshot, snapshotPath } from '../../course/snapshot-file.ts';
import type { Call, Case, CaseFile, Snapshot } from '../../course/types.ts';
import { explainFailures } from '../judge/explain-failures.ts';
import { findMistakes } from '../judge/find-mistakes.ts';
import { judgeCase } from '../judge/judge-case.ts';
import { probeRequest } from '../judge/probe-calls.ts';
import type { CaseResult } from '../types.ts';

// A dispatcher factory, as src/execute.ts exports it.
export type Make = (tools: any) => (name: string, input: any) => unknown;

// What program.ts exports for this: run one case, and run the probe.
export type Driver = {
  dispatch: (testCase: { files?: Record<string, unknown>; calls: Call[] }, make: Make) => Promise<unknown[]>;
  observe: (request: unknown, make: Make) => Promise<unknown>;
};

// A case with its snapshot.
export type GradedCase = { case: Case<CaseFile>; snapshot: Snapshot };

// Every case of the stage with its snapshot, sorted by name; a case without a snapshot is left out.
export async function loadGradedCases(root: string, stage: string): Promise<GradedCase[]> {
  const cases = await loadCases(root, stage);
  const snapshots = await Promise.all(cases.map((c) => readSnapshot(snapshotPath(root, stage, c.name))));
  // The catalogue is the dispatcher's: its stage's cases are dispatcher cases.
  return cases.flatMap((c, k) => (snapshots[k] ? [{ case: c as Case<CaseFile>, snapshot: snapshots[k] }] : []));
}

// Every case's verdict, failures explained by the probe's findings.
export async function gradeInProcess(cases: GradedCase[], make: Make, driver: Driver): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const { case: c, snapshot } of cases) {
    const printed = JSON.parse(
      JSON.stringify(await driver.dispatch({ files: c.data.files ?? {}, calls: c.data.calls }, make)),
    ) as unknown[];
    const run = {
      name: c.name,
      outcome: { kind: 'results' as const, results: printed },
      output: '',
      durationMs: 0,
      afterProbe: false,
    };
    results.push(judgeCase(c, snapshot, run));
  }
  const observed: unknown = JSON.parse(JSON.stringify(await driver.observe(probeRequest(), make)));
  const calls = new Map(cases.map(({ case: c }) => [c.name, c.data.calls]));
  return explainFailures(results, findMistakes(observed), (name) => calls.get(name));
}
