// Grades a course directory against a stage: select the cases, start the program processes, validate the cases
// and read the snapshots while they start, judge each result against its snapshot as it streams, and check
// that failures are the program's own and not a neighbour's.
import { packageRoot, requireStage } from '../course/stages.ts';
import { loadJudging, planCases, type Judging } from './case-plan.ts';
import { checkCourseDir } from './run/check-course-dir.ts';
import { defaultJobs } from './run/default-jobs.ts';
import { chooseSandbox } from './run/isolation/choose-sandbox.ts';
import { defaultIsolationMode } from './run/isolation/isolation-mode.ts';
import { stageForRun } from './run/isolation/stage-submission.ts';
import { openTsxCache } from './run/isolation/tsx-cache.ts';
import { judgeCase, noSnapshot } from './judge/judge-case.ts';
import { programEdited } from './judge/program-edited.ts';
import { startRecheck } from './judge/recheck-alone.ts';
import { runBatches, type CaseRun } from './run/run-batches.ts';
import type { CaseResult, RunOptions, RunReport } from './types.ts';

// Per case, when --timeout is not given: generous for the slowest case on a busy 2-core machine.
export const DEFAULT_TIMEOUT_MS = 10_000;

// Grades `options.dir`. Misuse (unknown stage, no program.ts, bad case file, a sandbox required but missing) is a
// HarnessError; everything the program under test does is a verdict in the report. Rejects with the abort reason
// when options.signal fires. Settles only once every program process it started is dead and its temp dir gone.
export async function runStage(options: RunOptions): Promise<RunReport> {
  const started = performance.now();
  const root = packageRoot();
  const { mode } = await requireStage(root, options.stage);
  await checkCourseDir(options.dir);
  const selected = await planCases(root, options.stage, options.cases ?? [], options.shard);
  const jobs = options.jobs ?? defaultJobs();
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const env = options.env ?? process.env;
  // The CLI decides (and warns) once per command; a caller that did not is given the default mode's decision.
  const choice =
    options.sandbox === undefined ? await chooseSandbox(defaultIsolationMode(env), env) : { sandbox: options.sandbox };
  const warnings = new Set<string>(choice.warning === undefined ? [] : [choice.warning]);
  // A sandboxed program sees the grader's copy of the submission, made now: its processes all grade these files.
  const stage = await stageForRun(options.dir, choice.sandbox, root);
  for (const warning of stage.warnings) warnings.add(warning);
  const cache = await openTsxCache(env).catch(async (error: unknown) => {
    await stage.release();
    throw error;
  });
  const confinement = { sandbox: choice.sandbox, tsxCache: cache.dir };
  const common = {
    dir: options.dir,
    mode,
    jobs,
    timeoutMs,
    env,
    confinement,
    onWarning: (w: string) => void warnings.add(w),
  };
  const standbys = options.standbys === undefined ? {} : { standbys: options.standbys };

  // `stop` ends the batches (--bail, a bad case file, the caller's signal); `cancel` also ends the re-runs alone.
  const stop = new AbortController();
  const cancel = new AbortController();
  const onAbort = (): void => {
    stop.abort();
    cancel.abort();
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted === true) onAbort();

  const results = new Map<string, CaseResult>();
  const emit = (result: CaseResult): void => {
    results.set(result.name, result);
    options.onCaseResult?.(result);
  };
  let judging: Judging | undefined;
  const judge = (run: CaseRun): CaseResult => {
    const c = judging!.cases.get(run.name)!;
    const snapshot = judging!.snapshots.get(run.name) ?? null;
    return snapshot === null ? noSnapshot(c) : judgeCase(c, snapshot, run);
  };
  const recheck = startRecheck({
    runAlone: async (names) => {
      const alone: CaseResult[] = [];
      const cases = names.map((name) => ({ name, file: judging!.cases.get(name)!.file }));
      await runBatches({
        ...common,
        ...standbys,
        cases,
        alone: true,
        signal: cancel.signal,
        onCase: (run) => alone.push(judge(run)),
      });
      cancel.signal.throwIfAborted();
      return alone;
    },
  });
  // A failure that ran after something else in its process may have been caused by it: judged again alone,
  // starting now. Not a timeout: re-running a hang costs a whole timeout again, and is rarely a neighbour's doing.
  const onRun = (run: CaseRun): void => {
    // Only a case that ran after the probe has a time of its own: alone, it would include the process's start.
    if (run.shared) options.timings?.set(run.name, run.durationMs);
    const verdict = judge(run);
    if (verdict.status === 'fail' && run.shared && verdict.failure?.kind !== 'timeout') recheck.suspect(verdict);
    else emit(verdict);
    if (verdict.status === 'fail' && options.bail === true) stop.abort();
  };

  // Programs first: they need only the case files, and take far longer to start than the rest takes to load.
  const early: CaseRun[] = [];
  const batches = runBatches({
    ...common,
    ...standbys,
    ...(options.timings === undefined ? {} : { expectedMs: options.timings }),
    cases: selected.filter((c) => c.snapshotted).map((c) => ({ name: c.name, file: c.file })),
    signal: stop.signal,
    onCase: (run) => (judging === undefined ? early.push(run) : onRun(run)),
  });
  let report: RunReport;
  try {
    judging = await loadJudging(root, options.stage, selected);
    for (const c of selected.filter((c) => judging!.snapshots.get(c.name) === null))
      emit(noSnapshot(judging.cases.get(c.name)!));
    for (const run of early.splice(0)) onRun(run);
    await batches;
    options.signal?.throwIfAborted();
    const checked = await recheck.finish();
    for (const result of checked.results) emit(result);
    const cases = selected.flatMap((c) => results.get(c.name) ?? []);
    const failed = cases.filter((c) => c.status === 'fail').length;
    if (checked.warning !== undefined) warnings.add(checked.warning);
    const edited = failed > 0 ? await programEdited(options.dir, root) : undefined;
    if (edited !== undefined) warnings.add(edited);
    report = {
      stage: options.stage,
      dir: options.dir,
      cases,
      passed: cases.length - failed,
      failed,
      durationMs: Math.round(performance.now() - started),
      ...(cases.length < selected.length ? { skipped: selected.length - cases.length } : {}),
    };
  } finally {
    // On any way out (a bad case file, an abort), nothing is left running.
    onAbort();
    await batches;
    await recheck.settled();
    options.signal?.removeEventListener('abort', onAbort);
    const removed = await cache.close();
    if (removed !== undefined) warnings.add(removed);
    await stage.release();
  }
  return warnings.size === 0 ? report : { ...report, warnings: [...warnings] };
}
