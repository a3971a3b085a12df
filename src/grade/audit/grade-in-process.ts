// Grades an implementation in this process, as a run grades it in a program process: every case through
// the driver of its stage's mode (its folder's audit.ts; results through JSON, as the grader receives them),
// judged against its snapshot, then the stage's probe through the driver and each failure put under the finding
// that explains it. For the catalogues of wrong implementations, whose code is the
// course's own: nothing here is sandboxed.
import { loadCases } from '../../course/load-cases.ts';
import { readSnapshot, snapshotPath } from '../../course/snapshot-file.ts';
import { modeOf } from '../../course/stages.ts';
import type { Case, CaseData, Snapshot } from '../../course/types.ts';
import { HarnessError } from '../../errors.ts';
import { courseUrl } from '../../modes/kit.ts';
import { aspectExport, aspectUrl, hasAspect } from '../../modes/mode-table.ts';
import { judgeCase } from '../judge/judge-case.ts';
import { judgeOf } from '../judge/mode-judges.ts';
import type { CaseOutcome } from '../run/case-outcome.ts';
import type { CaseResult } from '../types.ts';
import { hearRejections } from './hear-rejections.ts';

// What a student writes for a stage: a dispatcher factory (src/execute.ts's makeExecute) or a loop (runLoop).
export type Implementation = (...args: any[]) => unknown;

// Before each step of a case: its number (from 1), how many, and what it is.
type BeforeStep = (step: number, of: number, what: string) => Promise<void>;

// What a mode gives for this (src/modes/<mode>/audit.ts, exported as `audit`): one case's data run through the
// driver with the implementation given (never the course's), its probe the same way, how many implementations the
// audit grades at once, and whether a rejection left unheard is the case's crash (a loop's, heard one grading at a
// time; a dispatcher's cases are graded side by side, and its methods' promises are awaited by the driver).
export type ModeAudit = {
  atOnce: number;
  hears: boolean;
  run: (data: CaseData, impl: Implementation, before: BeforeStep, course: URL) => Promise<unknown[]>;
  probe: (request: unknown, impl: Implementation, course: URL) => Promise<unknown>;
};

// The audit aspect of a stage's mode, reached by its name through the table of modes (src/modes/mode-table.ts).
export async function auditOf(stage: string): Promise<ModeAudit> {
  const mode = modeOf(stage);
  if (!hasAspect(mode, 'audit')) {
    throw new HarnessError(
      'NO_CATALOGUE',
      `the stage ${stage} runs in the mode ${mode}, which has no audit (src/modes/${mode}/audit.ts)`,
    );
  }
  return aspectExport<ModeAudit>(await import(aspectUrl(mode, 'audit').href), mode, 'audit', 'audit');
}

// A case with its snapshot.
export type GradedCase = { case: Case; snapshot: Snapshot };

// Every case of the stage with its snapshot, sorted by name; a case without a snapshot is left out.
export async function loadGradedCases(root: string, stage: string): Promise<GradedCase[]> {
  const cases = await loadCases(root, stage);
  const snapshots = await Promise.all(cases.map((c) => readSnapshot(snapshotPath(root, stage, c.name))));
  return cases.flatMap((c, k) => (snapshots[k] ? [{ case: c, snapshot: snapshots[k] }] : []));
}

// Every case's verdict, failures explained by the probe's findings. A loop's case during which a rejection went
// unheard is judged as the crash it would have been (hear-rejections.ts): grade one loop at a time. (The loop
// probe hears its own: the driver's observeLoops.)
// The course's modules (the Tools a wrong dispatcher is given) load from `course` (the working directory's).
export async function gradeInProcess(
  cases: GradedCase[],
  impl: Implementation,
  course: URL = courseUrl(),
): Promise<CaseResult[]> {
  const first = cases[0]?.case;
  if (first === undefined) return [];
  const mode = await auditOf(first.stage);
  const results: CaseResult[] = [];
  for (const { case: c, snapshot } of cases) {
    let step = 0;
    const before: BeforeStep = async (k) => void (step = k);
    const ran = () => mode.run(c.data, impl, before, course);
    const { value, unheard } = mode.hears ? await hearRejections(ran) : { value: await ran(), unheard: undefined };
    const outcome: CaseOutcome =
      unheard === undefined
        ? { kind: 'results', results: JSON.parse(JSON.stringify(value)) as unknown[] }
        : { kind: 'exited', code: 1, signal: null, ...(step === 0 ? {} : { calling: { call: step, ms: 0 } }) };
    results.push(
      judgeCase(c, snapshot, { name: c.name, outcome, output: unheard ?? '', durationMs: 0, afterProbe: false }),
    );
  }
  // The probe's loops leave the same rejections unheard as their cases do, and the grader's own listeners (bin's
  // crash handler) must not hear them either: in a program process the probe only watches.
  const probe = judgeOf(first).probe;
  if (probe === undefined) return results;
  const probed = () => mode.probe(probe.request(), impl, course);
  const observed: unknown = JSON.parse(
    JSON.stringify(mode.hears ? (await hearRejections(probed)).value : await probed()),
  );
  const data = new Map(cases.map(({ case: c }) => [c.name, c.data]));
  return probe.explain(results, observed, (name) => data.get(name));
}
