// Runs the reference (this package's own program.ts, src/execute.ts and src/tools/) on case files through the
// grader's process pool and returns, per case, the results a snapshot holds or why there are none. The one way
// a snapshot's content is produced: `theinference snapshot` and `theinference record` both come here.
import { stageOf } from '../course/stages.ts';
import type { Case } from '../course/types.ts';
import { noResultsWords } from './judge/judge-case.ts';
import { judgeOf } from './judge/mode-judges.ts';
import { renderOutput } from './report/render-failure.ts';
import { DEFAULT_CASE_TIMEOUT_MS } from './run/case-timeout.ts';
import { jobsForWork } from './run/default-jobs.ts';
import { openTsxCache } from './run/isolation/tsx-cache.ts';
import { runBatches, type CaseRun } from './run/run-batches.ts';

// One case's results from the reference, or the grader's own words for why it gave none.
export type ReferenceResult = { ok: true; results: unknown[] } | { ok: false; why: string };

// What to run: the package root holding the reference, its cases (on disk), the environment, and whether its
// processes are sandboxed (the command's --isolation decision: src/grade/run/isolation/choose-sandbox.ts).
type ReferenceRun = {
  root: string;
  cases: Case[];
  env: NodeJS.ProcessEnv;
  sandbox: boolean;
  signal?: AbortSignal;
  // Called as each case finishes: how many are done of how many (a command's progress line).
  onProgress?: (done: number, of: number) => void;
};

// Each case's results by name (a case the pool never reported, in an aborted run, is absent), and what the user
// should know about the run (a temp dir that could not be removed).
export type ReferenceRuns = { results: Map<string, ReferenceResult>; warnings: string[] };

// Every case's reference results. The reference compiles in its sandbox's own tmpfs, or, outside the sandbox,
// through a tsx cache made for this call and removed after it: never one a student's program has written.
export async function runReference(run: ReferenceRun): Promise<ReferenceRuns> {
  const runs = new Map<string, CaseRun>();
  const warnings: string[] = [];
  const cache = await openTsxCache(run.env, run.sandbox);
  const stage = stageOf(run.cases[0]?.stage ?? '');
  try {
    await runBatches({
      dir: run.root,
      // The cases are one stage's, run in its mode on its module: the package's own copy, the reference.
      ...(stage === undefined ? {} : { stage: stage.slug }),
      cases: run.cases.map((c) => ({ name: c.name, file: c.file })),
      jobs: jobsForWork(
        run.cases.map((c) => c.name),
        { typicalMs: stage?.typicalCaseMs ?? 0 },
      ),
      timeoutMs: DEFAULT_CASE_TIMEOUT_MS,
      env: run.env,
      confinement: { sandbox: run.sandbox, tsxCache: cache.dir },
      ...(run.signal === undefined ? {} : { signal: run.signal }),
      onCase: (caseRun) => {
        runs.set(caseRun.name, caseRun);
        run.onProgress?.(runs.size, run.cases.length);
      },
      onWarning: (warning) => warnings.push(warning),
    });
  } finally {
    const removed = await cache.close();
    if (removed !== undefined) warnings.push(removed);
  }
  const results = new Map<string, ReferenceResult>();
  for (const c of run.cases) {
    const caseRun = runs.get(c.name);
    if (caseRun !== undefined) results.set(c.name, referenceResult(c, caseRun));
  }
  return { results, warnings };
}

// A run's results when they fit the case (one per call, say); else the grader's wording for a crash, a timeout, a
// bad line, or what does not fit.
function referenceResult(c: Case, run: CaseRun): ReferenceResult {
  const results = run.outcome.kind === 'results' ? run.outcome.results : undefined;
  const unfit = results === undefined ? undefined : judgeOf(c).unsnapshottable(c, results);
  if (results !== undefined && unfit === undefined) return { ok: true, results };
  const why = results === undefined ? noResultsWords(c, run) : (unfit as string);
  const output = renderOutput(run.output);
  return { ok: false, why: `${why}${output === '' ? '' : `\n${output}`}` };
}
