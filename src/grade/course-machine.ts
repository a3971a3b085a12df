// The top of a run of one course directory (run-stage.ts's gradeCourse) as a pure state machine: case runs stream
// in from the batches while the cases are still being validated and the snapshots read, variant runs arrive before
// the reference has run their variants, failures may be judged again alone, --bail stops the batches at the first
// failure, so do a few cases out of CPU time or past their deadline (the rest then fail unrun), and the run may be
// aborted at any point. Which run is judged when, where each verdict goes, and when
// the run is over are decided here; run-stage.ts only starts the batches and the reference, judges a run when told
// (judging is pure, but needs the cases and snapshots the adapter holds) and builds the report.
//
// Phases: `running` (runs arriving), `finishing` (every run is in and judged: the re-checks finish and the report
// is made; only once), `done`.
import type { CaseRun } from './run/run-batches.ts';
import type { CaseResult } from './types.ts';

// What the run is: whether --bail stops it at the first failure, whether variants run (their runs wait for the
// reference's results), and after how many runs out of CPU time, or past their deadline, the batches stop
// (program-limits.ts).
export type CoursePlan = { bail: boolean; variants: boolean; cpuCases: number; timeoutCases: number };

export type CourseState = {
  phase: 'running' | 'finishing' | 'done';
  plan: CoursePlan;
  // The cases validated and their snapshots read; the reference's results in (always, without variants); every
  // batch over.
  judging: boolean;
  expected: boolean;
  batchesDone: boolean;
  // Runs that arrived before the judging could start, and variant runs before the reference's results.
  early: Held[];
  waiting: Held[];
  // The batches told to stop (--bail, an abort, too many runs out of CPU time); the run aborted.
  stopped: boolean;
  aborted: boolean;
  // Runs out of CPU time so far; reaching the plan's cpuCases stopped the batches (the cases not run then fail).
  outOfCpu: number;
  cpuStopped: boolean;
  // The same for runs past their deadline and the plan's timeoutCases, which stop the batches only while no run has
  // ended otherwise (`answered`): a program that hangs on every call, not one that hangs on some.
  timedOut: number;
  timeStopped: boolean;
  answered: number;
};

// A run held until it can be judged, with the case it is a variant of.
type Held = { run: CaseRun; variantOf: string | undefined };

// `variantOf`: the case a variant's run is of (undefined for a case's own run).
export type CourseEvent =
  | { type: 'run'; run: CaseRun; variantOf: string | undefined }
  | { type: 'judging-ready' }
  | { type: 'reference-ready' }
  | { type: 'batches-done' }
  | { type: 'judged'; run: CaseRun; variantOf: string | undefined; verdict: CaseResult | undefined }
  | { type: 'abort' };

// What run-stage.ts does, in order. `judge` is answered with a `judged` event. `emit`: a verdict is final;
// `suspect`: a failure to judge again alone; `unjudged`: a variant the reference gave no result for; `time`: a
// case's own time, for the next run's scheduling; `no-snapshots`: the verdicts of the cases that have none;
// `stop`: end the batches; `cancel`: end the re-runs alone too; `finish`: every run is judged, finish and report.
export type CourseEffect =
  | { type: 'judge'; run: CaseRun; variantOf: string | undefined }
  | { type: 'emit'; verdict: CaseResult; variantOf: string | undefined }
  | { type: 'suspect'; verdict: CaseResult }
  | { type: 'unjudged'; name: string; variantOf: string | undefined }
  | { type: 'time'; name: string; ms: number }
  | { type: 'no-snapshots' }
  | { type: 'stop' }
  | { type: 'cancel' }
  | { type: 'finish' };

type Step = [CourseState, CourseEffect[]];

// The state of a run just started: without variants, no reference to wait for.
export function startCourse(plan: CoursePlan): Step {
  return [
    {
      phase: 'running',
      plan,
      judging: false,
      expected: !plan.variants,
      batchesDone: false,
      early: [],
      waiting: [],
      stopped: false,
      aborted: false,
      outOfCpu: 0,
      cpuStopped: false,
      timedOut: 0,
      timeStopped: false,
      answered: 0,
    },
    [],
  ];
}

// The next state and what to do, for one event.
export function step(state: CourseState, event: CourseEvent): Step {
  if (state.phase === 'done') return [state, []];
  switch (event.type) {
    case 'run':
      return route(state, event.run, event.variantOf);
    case 'judging-ready': {
      if (state.judging) return [state, []];
      const ready: CourseState = { ...state, judging: true, early: [] };
      return thenFinish(routeAll(ready, state.early, [{ type: 'no-snapshots' }]));
    }
    case 'reference-ready': {
      if (state.expected) return [state, []];
      const ready: CourseState = { ...state, expected: true, waiting: [] };
      return thenFinish(routeAll(ready, state.waiting, []));
    }
    case 'batches-done':
      return thenFinish([{ ...state, batchesDone: true }, []]);
    case 'judged':
      return onJudged(state, event.run, event.variantOf, event.verdict);
    case 'abort':
      if (state.aborted) return [state, []];
      return [{ ...state, aborted: true, stopped: true }, [{ type: 'stop' }, { type: 'cancel' }]];
  }
}

// A run is judged once it can be: after the judging is ready, and a variant's after the reference's results.
function route(state: CourseState, run: CaseRun, variantOf: string | undefined): Step {
  if (!state.judging) return [{ ...state, early: [...state.early, { run, variantOf }] }, []];
  if (variantOf !== undefined && !state.expected)
    return [{ ...state, waiting: [...state.waiting, { run, variantOf }] }, []];
  return [state, [{ type: 'judge', run, variantOf }]];
}

function routeAll(state: CourseState, held: Held[], first: CourseEffect[]): Step {
  return held.reduce<Step>(
    ([s, effects], { run, variantOf }) => {
      const [next, more] = route(s, run, variantOf);
      return [next, [...effects, ...more]];
    },
    [state, first],
  );
}

// A verdict's way: a case's own time kept; a failure after another case in its process judged again alone (not a
// timeout, nor a case out of CPU time: re-running either costs the whole limit again); the first failure stops
// the batches under --bail, and so does the run out of CPU time that makes the plan's cpuCases.
function onJudged(before: CourseState, run: CaseRun, variantOf: string | undefined, verdict?: CaseResult): Step {
  // Only a case that ran after the probe has a time of its own: alone, it would include the process's start.
  const time: CourseEffect[] =
    run.afterProbe && variantOf === undefined ? [{ type: 'time', name: run.name, ms: run.durationMs }] : [];
  const [state, stop] = countHung(before, run);
  if (verdict === undefined)
    return [state, [...time, { type: 'unjudged', name: variantOf ?? run.name, variantOf }, ...stop]];
  const failed = verdict.status === 'fail';
  const again = failed && run.afterProbe && verdict.failure?.kind !== 'timeout' && run.outcome.kind !== 'cpu';
  const effects: CourseEffect[] = [
    ...time,
    again ? { type: 'suspect', verdict } : { type: 'emit', verdict, variantOf },
  ];
  if (failed && state.plan.bail && !state.stopped) return [{ ...state, stopped: true }, [...effects, { type: 'stop' }]];
  return [state, [...effects, ...stop]];
}

// A run out of CPU time, or past its deadline, counted; the one that makes the plan's cpuCases stops the batches,
// and so does the one that makes timeoutCases while every run so far hung (unless already stopped).
function countHung(state: CourseState, run: CaseRun): [CourseState, CourseEffect[]] {
  if (run.outcome.kind === 'timeout') {
    const timedOut = state.timedOut + 1;
    if (timedOut < state.plan.timeoutCases || state.answered > 0 || state.timeStopped)
      return [{ ...state, timedOut }, []];
    return stopBatches(state, { timedOut, timeStopped: true });
  }
  if (run.outcome.kind !== 'cpu') return [{ ...state, answered: state.answered + 1 }, []];
  const outOfCpu = state.outOfCpu + 1;
  if (outOfCpu < state.plan.cpuCases || state.cpuStopped) return [{ ...state, outOfCpu }, []];
  return stopBatches(state, { outOfCpu, cpuStopped: true });
}

// The batches stopped, with the counts that stopped them: one `stop` effect, none if already stopped.
function stopBatches(state: CourseState, counts: Partial<CourseState>): [CourseState, CourseEffect[]] {
  return [{ ...state, ...counts, stopped: true }, state.stopped ? [] : [{ type: 'stop' }]];
}

// Finishes once every run is in and none is waiting.
function thenFinish([state, effects]: Step): Step {
  const over = state.judging && state.expected && state.batchesDone && state.early.length + state.waiting.length === 0;
  if (state.phase !== 'running' || !over) return [state, effects];
  return [{ ...state, phase: 'finishing' }, [...effects, { type: 'finish' }]];
}
