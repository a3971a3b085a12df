// Grades an implementation in this process, as a run grades it in a program process: every case through
// the driver's mode for its stage (`dispatch`, or `runLoopCase`; results through JSON, as the grader receives them),
// judged against its snapshot, then the stage's probe through the driver (`observe`, or `observeLoops`) and each
// failure put under the finding that explains it. For the catalogues of wrong implementations, whose code is the
// course's own: nothing here is sandboxed.
import { loadCases } from '../../course/load-cases.ts';
import { readSnapshot, snapshotPath } from '../../course/snapshot-file.ts';
import { type DriverMode, stageOf } from '../../course/stages.ts';
import type { Case, CaseData, CaseFile, LoopCaseFile, Snapshot } from '../../course/types.ts';
import { judgeCase } from '../judge/judge-case.ts';
import { judgeOf } from '../judge/mode-judges.ts';
import type { CaseOutcome } from '../run/case-outcome.ts';
import type { CaseResult } from '../types.ts';
import { hearRejections } from './hear-rejections.ts';

// What a student writes for a stage: a dispatcher factory (src/execute.ts's makeExecute) or a loop (runLoop).
export type Implementation = (...args: any[]) => unknown;

// Before each step of a case: its number (from 1), how many, and what it is.
type BeforeStep = (step: number, of: number, what: string) => Promise<void>;

// What the driver's modes (src/modes/) give for this: each mode's one case, and its probe.
export type Driver = {
  dispatch: (
    testCase: Pick<CaseFile, 'files' | 'calls'>,
    make: Implementation,
    before?: BeforeStep,
  ) => Promise<unknown[]>;
  observe: (request: unknown, make: Implementation) => Promise<unknown>;
  runLoopCase: (testCase: LoopCaseFile, runLoop: Implementation, before?: BeforeStep) => Promise<unknown[]>;
  observeLoops: (request: unknown, runLoop: Implementation) => Promise<unknown>;
};

// How each mode runs one case's data, and its probe, through the driver.
const MODES: Record<
  DriverMode,
  {
    run: (driver: Driver, data: CaseData, impl: Implementation, before: BeforeStep) => Promise<unknown[]>;
    probe: (driver: Driver, request: unknown, impl: Implementation) => Promise<unknown>;
    // Whether a rejection left unheard is the case's crash (a loop's), heard one grading at a time; a dispatcher's
    // cases are graded side by side, and its methods' promises are awaited by the driver.
    hears: boolean;
  }
> = {
  dispatch: {
    run: (driver, data, impl, before) => {
      const { files = {}, calls } = data as CaseFile;
      return driver.dispatch({ files, calls }, impl, before);
    },
    probe: (driver, request, impl) => driver.observe(request, impl),
    hears: false,
  },
  loop: {
    run: (driver, data, impl, before) => {
      const loop = data as LoopCaseFile;
      return driver.runLoopCase({ ...loop, outputs: loop.outputs ?? {} }, impl, before);
    },
    probe: (driver, request, impl) => driver.observeLoops(request, impl),
    hears: true,
  },
};

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
export async function gradeInProcess(cases: GradedCase[], impl: Implementation, driver: Driver): Promise<CaseResult[]> {
  const first = cases[0]?.case;
  if (first === undefined) return [];
  const mode = MODES[stageOf(first.stage)?.mode ?? 'dispatch'];
  const results: CaseResult[] = [];
  for (const { case: c, snapshot } of cases) {
    let step = 0;
    const before: BeforeStep = async (k) => void (step = k);
    const ran = () => mode.run(driver, c.data, impl, before);
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
  const probed = () => mode.probe(driver, judgeOf(first).probe.request(), impl);
  const observed: unknown = JSON.parse(
    JSON.stringify(mode.hears ? (await hearRejections(probed)).value : await probed()),
  );
  const data = new Map(cases.map(({ case: c }) => [c.name, c.data]));
  return judgeOf(first).probe.explain(results, observed, (name) => data.get(name));
}
