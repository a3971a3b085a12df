// Grades a course directory against a stage: select the cases, start the program processes, validate the cases
// and read the snapshots while they start, judge each result against its snapshot as it streams, and check
// that failures are the program's own and not a neighbour's. With variants, each case also runs as its variant,
// judged against the reference's results for it.
import { packageRoot, requireStage, stageOf } from '../course/stages.ts';
import type { Judging } from './case-plan.ts';
import type { CaseData } from '../course/types.ts';
import { checkCourseDir } from '../course/check-course-dir.ts';
import { jobsForWork } from './run/default-jobs.ts';
import { chooseSandbox } from './run/isolation/choose-sandbox.ts';
import { stageForRun } from './run/isolation/stage-submission.ts';
import { openTsxCache } from './run/isolation/tsx-cache.ts';
import { judgeCase, noSnapshot, notRunAfter } from './judge/judge-case.ts';
import type { Misplaced } from './judge/load-failure.ts';
import { misplacedFile } from '../course/misplaced-file.ts';
import { OUT_OF_CPU_CASES, TIMED_OUT_CASES } from './run/isolation/program-limits.ts';
import { judgeOf, type ModeJudge } from './judge/mode-judges.ts';
import { programNote } from './program-note.ts';
import { providedNotes } from './provided-note.ts';
import { startRecheck } from './judge/recheck-alone.ts';
import { DEFAULT_CASE_TIMEOUT_MS } from './run/case-timeout.ts';
import { runBatches, type BatchCase, type CaseRun } from './run/run-batches.ts';
import { driveMachine } from './run/drive-machine.ts';
import {
  type CourseEffect,
  type CourseEvent,
  type CoursePlan,
  type CourseState,
  startCourse,
  step,
} from './course-machine.ts';
import type { ReferenceResult } from './run-reference.ts';
import { planStage, type StagePlan } from './stage-plan.ts';
import type { RunOptions } from './run-options.ts';
import { visibleLine } from './report/visible-text.ts';
import type { CaseResult, RunReport } from './types.ts';
import { judgeVariant, pairVerdicts } from './variants/judge-variant.ts';
import { caseOfRun } from './variants/plan-variants.ts';

// Grades `options.dir`. Misuse (unknown stage, no program.ts, bad case file, a sandbox required but missing) is a
// HarnessError; everything the program under test does is a verdict in the report. Rejects with the abort reason
// when options.signal fires. Settles only once every program process it started is dead and its temp dir gone.
export async function runStage(options: RunOptions): Promise<RunReport> {
  const root = packageRoot();
  await requireStage(root, options.stage);
  await checkCourseDir(options.dir);
  const env = options.env ?? process.env;
  // The CLI decides (and warns) once per command; a caller that did not is given the default mode's decision.
  const choice = options.sandbox === undefined ? await chooseSandbox(undefined, env) : { sandbox: options.sandbox };
  const plan = await planStage({
    root,
    stage: options.stage,
    cases: options.cases ?? [],
    ...(options.shard === undefined ? {} : { shard: options.shard }),
    ...(options.variants === undefined ? {} : { variants: { ...options.variants, env, sandbox: choice.sandbox } }),
  });
  let report: RunReport;
  let removed: string[] = [];
  try {
    report = await gradeCourse(plan, { ...options, sandbox: choice.sandbox });
  } finally {
    removed = await plan.close();
  }
  // The sandbox's warning first, as the run's first news.
  const first = choice.warning === undefined ? [] : [choice.warning];
  return withWarnings({ ...report, warnings: [...first, ...(report.warnings ?? [])] }, removed);
}

// Grades `options.dir` on a planned stage (checked to be a course directory already; `options.sandbox` decided):
// the part of a run each submission of a class has of its own.
export async function gradeCourse(plan: StagePlan, options: RunOptions & { sandbox: boolean }): Promise<RunReport> {
  const started = performance.now();
  const { selected, variants } = plan;
  const { timed, toRun, common } = runSettings(plan, options);
  const warnings = new Set<string>();
  const { stage, cache } = await prepareFiles(options, plan.root, common.env, warnings);
  const run = {
    ...common,
    confinement: { sandbox: options.sandbox, tsxCache: cache.dir },
    onWarning: (w: string) => void warnings.add(w),
    ...(options.standbys === undefined ? {} : { standbys: options.standbys }),
  };

  // `stop` ends the batches (--bail, a bad case file, the caller's signal); `cancel` also ends the re-runs alone.
  const stop = new AbortController();
  const cancel = new AbortController();

  const { results, pairs, emit } = collectVerdicts(variants, options.onCaseResult);
  // The cases and snapshots, once read; the reference's results for the variants, once it has run them all.
  const known: Known = {};
  const unjudged: { name: string; why: string }[] = [];
  const judge = judgeRun(variants, known, await misplacedOf(options.dir, plan.stage));
  const recheck = recheckAlone(plan, { run, timed, judge, signal: cancel.signal });

  // When each run is judged and where its verdict goes is the course machine's to decide (course-machine.ts);
  // this carries out its effects. `finished` settles once it says every run is in and judged.
  let finish: () => void = () => {};
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const perform = performer({
    dispatch: (event) => machine.dispatch(event),
    judge,
    emit,
    recheck,
    seen: options.onFailureSeen,
    known,
    pairs,
    unjudged,
    selected,
    timings: options.timings,
    stop,
    cancel,
    finish: () => finish(),
  });
  const machine = driveMachine(startCourse(coursePlan(options, variants !== undefined)), step, perform);
  const onAbort = (): void => machine.dispatch({ type: 'abort' });
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted === true) onAbort();

  // Programs first: they need only the case files, and take far longer to start than the rest takes to load.
  const probe = judgeOf({ stage: options.stage }).probe;
  const batches = startBatches(run, {
    toRun,
    probe,
    timings: options.timings,
    signal: stop.signal,
    dispatch: (event) => machine.dispatch(event),
  });
  const reference = awaitReference(variants, known, (event) => machine.dispatch(event));
  let report: RunReport;
  try {
    known.judging = await plan.judging();
    machine.dispatch({ type: 'judging-ready' });
    await batches.done;
    await reference;
    await finished;
    options.signal?.throwIfAborted();
    const checked = await recheck.finish();
    for (const result of checked.results) emit(result);
    pairs.flush();
    const judged = selected.flatMap((c) => results.get(c.name) ?? notRun(machine.state(), known, c.name));
    const caseOf = (name: string) => known.judging?.cases.get(name)?.data;
    const observed = batches.observed();
    const cases = observed === undefined ? judged : explained(probe, judged, observed, caseOf);
    if (checked.warning !== undefined) warnings.add(checked.warning);
    const note = await programNote(options.dir, plan.root);
    if (note !== undefined) warnings.add(note);
    const stage = stageOf(plan.stage);
    for (const provided of stage === undefined ? [] : await providedNotes(options.dir, plan.root, stage))
      warnings.add(provided);
    report = reportOf(plan, options, { cases, started, pairs, unjudged });
  } finally {
    // On any way out (a bad case file, an abort), nothing is left running.
    machine.dispatch({ type: 'abort' });
    await batches.done;
    await reference?.catch(() => {});
    await recheck.settled();
    options.signal?.removeEventListener('abort', onAbort);
    const removed = await cache.close();
    if (removed !== undefined) warnings.add(removed);
    await stage.release();
  }
  return withWarnings(report, [...warnings]);
}

// The final verdicts as they come, by case: a case's verdict waits for its variant's (pairVerdicts) and is then
// told to the caller as it is kept.
function collectVerdicts(variants: StagePlan['variants'], onCaseResult: RunOptions['onCaseResult']) {
  const results = new Map<string, CaseResult>();
  const pairs = pairVerdicts(
    (name) => variants?.cases.has(name) === true,
    (result) => {
      results.set(result.name, result);
      onCaseResult?.(result);
    },
  );
  const emit = (result: CaseResult): void => pairs.add(result, caseOfRun(result.name));
  return { results, pairs, emit };
}

// The reference's results for the variants, told to the course machine once in. A reference that could not run
// at all judges no variant: never a failure of the program's.
function awaitReference(
  variants: StagePlan['variants'],
  known: Known,
  dispatch: (event: CourseEvent) => void,
): Promise<void> | undefined {
  return variants?.expected
    .catch(() => new Map<string, ReferenceResult>())
    .then((e) => {
      known.expected = e;
      dispatch({ type: 'reference-ready' });
    });
}

// Failures judged again, each re-run alone in a fresh process (the leaked-state rule, recheck-alone.ts); `signal`
// ends the re-runs.
function recheckAlone(
  plan: StagePlan,
  how: {
    run: Omit<Parameters<typeof runBatches>[0], 'cases' | 'signal' | 'onCase'>;
    timed: (c: BatchCase) => BatchCase;
    judge: (run: CaseRun) => CaseResult | undefined;
    signal: AbortSignal;
  },
) {
  const files = new Map<string, string>([
    ...plan.selected.map((c) => [c.name, c.file] as const),
    ...(plan.variants?.runs ?? []).map((c) => [c.name, c.file] as const),
  ]);
  return startRecheck({
    entry: stageOf(plan.stage)?.entry ?? 'your code',
    runAlone: async (names) => {
      const alone: CaseResult[] = [];
      await runBatches({
        ...how.run,
        cases: names.map((name) => how.timed({ name, file: files.get(name)! })),
        alone: true,
        signal: how.signal,
        onCase: (r) => {
          const verdict = how.judge(r);
          if (verdict !== undefined) alone.push(verdict);
        },
      });
      how.signal.throwIfAborted();
      return alone;
    },
  });
}

// The batches started, each run told to the course machine as it comes. Each process runs the probe after its
// cases (the stage's mode's, when it has one); the first observation is kept.
function startBatches(
  run: Omit<Parameters<typeof runBatches>[0], 'cases' | 'signal' | 'onCase'>,
  how: {
    toRun: BatchCase[];
    probe: ReturnType<typeof judgeOf>['probe'];
    timings: RunOptions['timings'];
    signal: AbortSignal;
    dispatch: (event: CourseEvent) => void;
  },
): { done: Promise<void>; observed: () => unknown } {
  let observed: unknown;
  const done = runBatches({
    ...run,
    ...(how.timings === undefined ? {} : { expectedMs: how.timings }),
    ...(how.probe === undefined ? {} : { observe: how.probe.request() }),
    onObserved: (o: unknown) => {
      observed ??= o;
    },
    cases: how.toRun,
    signal: how.signal,
    onCase: (r) => how.dispatch({ type: 'run', run: r, variantOf: caseOfRun(r.name) }),
  }).then(() => how.dispatch({ type: 'batches-done' }));
  return { done, observed: () => observed };
}

// What the batches run and how: each case with what it is expected to take (its last time, or the stage's typical
// one; a variant, its case's), the variants' runs beside their cases, the jobs, the timeout and the stage (the
// driver runs it in its mode, on the module its row names).
function runSettings(plan: StagePlan, options: RunOptions & { sandbox: boolean }) {
  const typicalMs = stageOf(options.stage)?.typicalCaseMs ?? 0;
  const timed = (c: BatchCase): BatchCase => ({
    name: c.name,
    file: c.file,
    expectedMs: options.timings?.get(caseOfRun(c.name) ?? c.name) ?? typicalMs,
  });
  const toRun = runFirst(
    interleave(
      plan.selected.filter((c) => c.snapshotted),
      plan.variants?.runs ?? [],
    ),
    options.runFirst,
  ).map(timed);
  const jobs =
    options.jobs ??
    jobsForWork(
      toRun.map((c) => c.name),
      { expectedMs: options.timings, typicalMs },
    );
  const timeoutMs = options.timeoutMs ?? DEFAULT_CASE_TIMEOUT_MS;
  const env = options.env ?? process.env;
  const common = { dir: options.dir, stage: options.stage, driver: options.driver, jobs, timeoutMs, env };
  return { timed, toRun, common };
}

// `cases` with those named in `first` (a case or its variant) moved to the front, each group in its own order: a batch
// keeps the order it is dealt (deal-batches.ts), so a case that failed last time runs first in its process.
function runFirst<T extends { name: string }>(cases: T[], first: readonly string[] | undefined): T[] {
  if (first === undefined || first.length === 0) return cases;
  const wanted = new Set(first);
  const leads = (c: T): boolean => wanted.has(caseOfRun(c.name) ?? c.name);
  return [...cases.filter(leads), ...cases.filter((c) => !leads(c))];
}

// A sandboxed program sees the grader's copy of the submission, made now: its processes all grade these files.
// The tsx cache beside it; the copy is released if the cache cannot be opened.
async function prepareFiles(
  options: RunOptions & { sandbox: boolean },
  root: string,
  env: NodeJS.ProcessEnv,
  warnings: Set<string>,
) {
  const stage = await stageForRun(options.dir, options.sandbox, root);
  for (const warning of stage.warnings) warnings.add(warning);
  const cache = await openTsxCache(env, options.sandbox).catch(async (error: unknown) => {
    await stage.release();
    throw error;
  });
  return { stage, cache };
}

// What the judging needs that arrives while the runs do: the cases and snapshots, and the reference's results.
type Known = { judging?: Judging; expected?: Map<string, ReferenceResult> };

// One run's verdict: a variant's against the reference's result for it (none while that is missing), a case's
// against its snapshot.
// The stage's student file, when the course directory has it somewhere else than where the driver looks.
async function misplacedOf(dir: string, slug: string): Promise<Misplaced> {
  const file = stageOf(slug)?.writes[0];
  const found = file === undefined ? undefined : await misplacedFile(dir, file);
  return file === undefined || found === undefined ? {} : { [file]: found };
}

function judgeRun(
  variants: StagePlan['variants'],
  known: Known,
  misplaced: Misplaced,
): (run: CaseRun) => CaseResult | undefined {
  return (run) => {
    const variantOf = caseOfRun(run.name);
    if (variantOf !== undefined) {
      const verdict = judgeVariant(
        variants!.cases.get(variantOf)!,
        known.expected?.get(variantOf),
        run,
        variants!.seed,
      );
      return verdict === undefined ? undefined : { ...verdict, name: run.name };
    }
    const c = known.judging!.cases.get(run.name)!;
    const snapshot = known.judging!.snapshots.get(run.name) ?? null;
    return snapshot === null ? noSnapshot(c) : judgeCase(c, snapshot, run, misplaced);
  };
}

// Carries out one of the course machine's effects (course-machine.ts says which, and when).
function performer(on: {
  dispatch: (event: CourseEvent) => void;
  judge: (run: CaseRun) => CaseResult | undefined;
  emit: (result: CaseResult) => void;
  recheck: ReturnType<typeof startRecheck>;
  seen: RunOptions['onFailureSeen'];
  known: Known;
  pairs: ReturnType<typeof pairVerdicts>;
  unjudged: { name: string; why: string }[];
  selected: StagePlan['selected'];
  timings: RunOptions['timings'];
  stop: AbortController;
  cancel: AbortController;
  finish: () => void;
}): (effect: CourseEffect) => void {
  return (effect) => {
    switch (effect.type) {
      case 'judge':
        return on.dispatch({
          type: 'judged',
          run: effect.run,
          variantOf: effect.variantOf,
          verdict: on.judge(effect.run),
        });
      case 'emit':
        return on.emit(effect.verdict);
      case 'suspect':
        // A variant's failure is told with its case's, once both are in (pairVerdicts).
        if (caseOfRun(effect.verdict.name) === undefined) on.seen?.(effect.verdict);
        return on.recheck.suspect(effect.verdict);
      case 'unjudged': {
        const why = on.known.expected?.get(effect.variantOf ?? '');
        on.unjudged.push({
          name: effect.name,
          why: `the reference gave no result for its variant: ${why?.ok === false ? why.why : 'it did not run'}`,
        });
        return on.pairs.without(effect.name);
      }
      case 'time':
        return void on.timings?.set(effect.name, effect.ms);
      case 'no-snapshots':
        for (const c of on.selected.filter((c) => on.known.judging!.snapshots.get(c.name) === null))
          on.emit(noSnapshot(on.known.judging!.cases.get(c.name)!));
        return;
      case 'stop':
        return on.stop.abort();
      case 'cancel':
        return on.cancel.abort();
      case 'finish':
        return on.finish();
    }
  };
}

// The run's report from its final verdicts.
function reportOf(
  plan: StagePlan,
  options: RunOptions,
  run: {
    cases: CaseResult[];
    started: number;
    pairs: ReturnType<typeof pairVerdicts>;
    unjudged: { name: string; why: string }[];
  },
): RunReport {
  const { cases, pairs, unjudged } = run;
  const { selected, variants } = plan;
  const failed = cases.filter((c) => c.status === 'fail').length;
  return {
    stage: options.stage,
    dir: options.dir,
    cases,
    passed: cases.length - failed,
    failed,
    durationMs: Math.round(performance.now() - run.started),
    ...(cases.length < selected.length ? { skipped: selected.length - cases.length } : {}),
    ...(variants === undefined
      ? {}
      : { variants: { seed: variants.seed, judged: pairs.judged(), none: [...variants.none, ...unjudged] } }),
  };
}

// Each case followed by its variant's run, so that a batch runs both.
function interleave(cases: BatchCase[], variantRuns: BatchCase[]): BatchCase[] {
  const runs = new Map(variantRuns.map((v) => [caseOfRun(v.name), v]));
  return cases.flatMap((c) => [{ name: c.name, file: c.file }, ...(runs.has(c.name) ? [runs.get(c.name)!] : [])]);
}

// What the course machine is told of the run: --bail, whether variants run, and after how many cases out of CPU
// time, or past their deadline, it stops the batches (program-limits.ts).
function coursePlan(options: RunOptions, variants: boolean): CoursePlan {
  return { bail: options.bail === true, variants, cpuCases: OUT_OF_CPU_CASES, timeoutCases: TIMED_OUT_CASES };
}

// A case without a verdict once the run is over: after too many runs out of CPU time, or past their deadline,
// stopped it, a failure saying so; else (--bail) none, and the report counts it as not run.
function notRun(state: CourseState, known: Known, name: string): CaseResult[] {
  const c = known.judging?.cases.get(name);
  if (c === undefined) return [];
  if (state.cpuStopped) return [notRunAfter(c, 'cpu', state.outOfCpu)];
  return state.timeStopped ? [notRunAfter(c, 'deadline', state.timedOut)] : [];
}

// A warning may quote the submission (a file's name, a link's target, its directory's name): each is one line of
// visible text, so that no name a submission chooses can write to the terminal or start a line of a CI log
// (a `::error` annotation, an `::add-mask::`) wherever the warning is shown.
function withWarnings(report: RunReport, more: string[]): RunReport {
  const { warnings, ...rest } = report;
  const all = [...new Set([...(warnings ?? []), ...more].map(visibleLine))];
  return all.length === 0 ? rest : { ...rest, warnings: all };
}

// The verdicts with the probe's findings, or as they are when working those out fails: what the probe observed is
// the program's word (it can choose hints, never verdicts), so no observation, however built, stops the run.
function explained(
  probe: ModeJudge['probe'],
  judged: CaseResult[],
  observed: unknown,
  caseOf: (name: string) => CaseData | undefined,
): CaseResult[] {
  try {
    return probe?.explain(judged, observed, caseOf) ?? judged;
  } catch {
    return judged;
  }
}
