// Grades a course directory against a stage: select the cases, start the program processes, validate the cases
// and read the snapshots while they start, judge each result against its snapshot as it streams, and check
// that failures are the program's own and not a neighbour's. With variants, each case also runs as its variant,
// judged against the reference's results for it.
import { modeOf, packageRoot, requireStage, stageOf } from '../course/stages.ts';
import type { Judging } from './case-plan.ts';
import { checkCourseDir } from '../course/check-course-dir.ts';
import { jobsForWork } from './run/default-jobs.ts';
import { chooseSandbox } from './run/isolation/choose-sandbox.ts';
import { stageForRun } from './run/isolation/stage-submission.ts';
import { openTsxCache } from './run/isolation/tsx-cache.ts';
import { judgeCase, noSnapshot } from './judge/judge-case.ts';
import { judgeOf } from './judge/mode-judges.ts';
import { programNote } from './program-note.ts';
import { startRecheck } from './judge/recheck-alone.ts';
import { DEFAULT_CASE_TIMEOUT_MS } from './run/case-timeout.ts';
import { runBatches, type BatchCase, type CaseRun } from './run/run-batches.ts';
import { driveMachine } from './run/drive-machine.ts';
import { startCourse, step, type CourseEffect } from './course-machine.ts';
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
  // How the driver runs the stage's cases.
  const mode = modeOf(options.stage);
  const typicalMs = stageOf(options.stage)?.typicalCaseMs ?? 0;
  // Each case with what it is expected to take: its last time, or the stage's typical one (a variant, its case's).
  const timed = (c: BatchCase): BatchCase => ({
    name: c.name,
    file: c.file,
    expectedMs: options.timings?.get(caseOfRun(c.name) ?? c.name) ?? typicalMs,
  });
  const toRun = interleave(
    selected.filter((c) => c.snapshotted),
    variants?.runs ?? [],
  ).map(timed);
  const jobs =
    options.jobs ??
    jobsForWork(
      toRun.map((c) => c.name),
      { expectedMs: options.timings, typicalMs },
    );
  const timeoutMs = options.timeoutMs ?? DEFAULT_CASE_TIMEOUT_MS;
  const env = options.env ?? process.env;
  const warnings = new Set<string>();
  // A sandboxed program sees the grader's copy of the submission, made now: its processes all grade these files.
  const stage = await stageForRun(options.dir, options.sandbox, plan.root);
  for (const warning of stage.warnings) warnings.add(warning);
  const cache = await openTsxCache(env, options.sandbox).catch(async (error: unknown) => {
    await stage.release();
    throw error;
  });
  const confinement = { sandbox: options.sandbox, tsxCache: cache.dir };
  const common = {
    dir: options.dir,
    mode,
    driver: options.driver,
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

  const results = new Map<string, CaseResult>();
  const pairs = pairVerdicts(
    (name) => variants?.cases.has(name) === true,
    (result) => {
      results.set(result.name, result);
      options.onCaseResult?.(result);
    },
  );
  const emit = (result: CaseResult): void => pairs.add(result, caseOfRun(result.name));
  let judging: Judging | undefined;
  // The reference's results for the variants, once it has run them all.
  let expected: Map<string, ReferenceResult> | undefined;
  const unjudged: { name: string; why: string }[] = [];
  const judge = (run: CaseRun): CaseResult | undefined => {
    const variantOf = caseOfRun(run.name);
    if (variantOf !== undefined) {
      const verdict = judgeVariant(variants!.cases.get(variantOf)!, expected?.get(variantOf), run, variants!.seed);
      return verdict === undefined ? undefined : { ...verdict, name: run.name };
    }
    const c = judging!.cases.get(run.name)!;
    const snapshot = judging!.snapshots.get(run.name) ?? null;
    return snapshot === null ? noSnapshot(c) : judgeCase(c, snapshot, run);
  };
  const files = new Map<string, string>([
    ...selected.map((c) => [c.name, c.file] as const),
    ...(variants?.runs ?? []).map((c) => [c.name, c.file] as const),
  ]);
  const recheck = startRecheck({
    runAlone: async (names) => {
      const alone: CaseResult[] = [];
      await runBatches({
        ...common,
        ...standbys,
        cases: names.map((name) => timed({ name, file: files.get(name)! })),
        alone: true,
        signal: cancel.signal,
        onCase: (run) => {
          const verdict = judge(run);
          if (verdict !== undefined) alone.push(verdict);
        },
      });
      cancel.signal.throwIfAborted();
      return alone;
    },
  });

  // When each run is judged and where its verdict goes is the course machine's to decide (course-machine.ts);
  // this carries out its effects. `finished` settles once it says every run is in and judged.
  let finish: () => void = () => {};
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const perform = (effect: CourseEffect): void => {
    switch (effect.type) {
      case 'judge':
        return machine.dispatch({
          type: 'judged',
          run: effect.run,
          variantOf: effect.variantOf,
          verdict: judge(effect.run),
        });
      case 'emit':
        return emit(effect.verdict);
      case 'suspect':
        return recheck.suspect(effect.verdict);
      case 'unjudged': {
        const why = expected?.get(effect.variantOf ?? '');
        unjudged.push({
          name: effect.name,
          why: `the reference gave no result for its variant: ${why?.ok === false ? why.why : 'it did not run'}`,
        });
        return pairs.without(effect.name);
      }
      case 'time':
        return void options.timings?.set(effect.name, effect.ms);
      case 'no-snapshots':
        for (const c of selected.filter((c) => judging!.snapshots.get(c.name) === null))
          emit(noSnapshot(judging!.cases.get(c.name)!));
        return;
      case 'stop':
        return stop.abort();
      case 'cancel':
        return cancel.abort();
      case 'finish':
        return finish();
    }
  };
  const machine = driveMachine(
    startCourse({ bail: options.bail === true, variants: variants !== undefined }),
    step,
    perform,
  );
  const onAbort = (): void => machine.dispatch({ type: 'abort' });
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted === true) onAbort();

  // Programs first: they need only the case files, and take far longer to start than the rest takes to load.
  // Each process runs the probe after its cases (the stage's mode's, when it has one); the first
  // observation is kept.
  const probe = judgeOf({ stage: options.stage }).probe;
  let observed: unknown;
  const batches = runBatches({
    ...common,
    ...standbys,
    ...(options.timings === undefined ? {} : { expectedMs: options.timings }),
    ...(probe === undefined ? {} : { observe: probe.request() }),
    onObserved: (o: unknown) => {
      observed ??= o;
    },
    cases: toRun,
    signal: stop.signal,
    onCase: (run) => machine.dispatch({ type: 'run', run, variantOf: caseOfRun(run.name) }),
  }).then(() => machine.dispatch({ type: 'batches-done' }));
  // A reference that could not run at all judges no variant: never a failure of the program's.
  const reference = variants?.expected
    .catch(() => new Map<string, ReferenceResult>())
    .then((e) => {
      expected = e;
      machine.dispatch({ type: 'reference-ready' });
    });
  let report: RunReport;
  try {
    judging = await plan.judging();
    machine.dispatch({ type: 'judging-ready' });
    await batches;
    await reference;
    await finished;
    options.signal?.throwIfAborted();
    const checked = await recheck.finish();
    for (const result of checked.results) emit(result);
    pairs.flush();
    const judged = selected.flatMap((c) => results.get(c.name) ?? []);
    const caseOf = (name: string) => judging?.cases.get(name)?.data;
    const cases = observed === undefined ? judged : (probe?.explain(judged, observed, caseOf) ?? judged);
    const failed = cases.filter((c) => c.status === 'fail').length;
    if (checked.warning !== undefined) warnings.add(checked.warning);
    const note = await programNote(options.dir, plan.root);
    if (note !== undefined) warnings.add(note);
    report = {
      stage: options.stage,
      dir: options.dir,
      cases,
      passed: cases.length - failed,
      failed,
      durationMs: Math.round(performance.now() - started),
      ...(cases.length < selected.length ? { skipped: selected.length - cases.length } : {}),
      ...(variants === undefined
        ? {}
        : { variants: { seed: variants.seed, judged: pairs.judged(), none: [...variants.none, ...unjudged] } }),
    };
  } finally {
    // On any way out (a bad case file, an abort), nothing is left running.
    machine.dispatch({ type: 'abort' });
    await batches;
    await reference?.catch(() => {});
    await recheck.settled();
    options.signal?.removeEventListener('abort', onAbort);
    const removed = await cache.close();
    if (removed !== undefined) warnings.add(removed);
    await stage.release();
  }
  return withWarnings(report, [...warnings]);
}

// Each case followed by its variant's run, so that a batch runs both.
function interleave(cases: BatchCase[], variantRuns: BatchCase[]): BatchCase[] {
  const runs = new Map(variantRuns.map((v) => [caseOfRun(v.name), v]));
  return cases.flatMap((c) => [{ name: c.name, file: c.file }, ...(runs.has(c.name) ? [runs.get(c.name)!] : [])]);
}

// A warning may quote the submission (a file's name, a link's target, its directory's name): each is one line of
// visible text, so that no name a submission chooses can write to the terminal or start a line of a CI log
// (a `::error` annotation, an `::add-mask::`) wherever the warning is shown.
function withWarnings(report: RunReport, more: string[]): RunReport {
  const { warnings, ...rest } = report;
  const all = [...new Set([...(warnings ?? []), ...more].map(visibleLine))];
  return all.length === 0 ? rest : { ...rest, warnings: all };
}
