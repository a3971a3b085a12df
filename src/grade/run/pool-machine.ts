// The process pool as a pure state machine: batches are started `jobs` at a time, and what each batch says (it
// loaded, a case's run, the probe's observation, how it ended, its lingering process gone) and the run's abort
// come in as events; which batch to start, which case to report, which batch to stop and when the pool is done
// come out. run-batches.ts only connects it to run-batch.ts and owns the batches' abort controllers.
//
// Phases: `running` (batches start while fewer than `jobs` run and any is queued), `aborted` (the run's signal:
// nothing more starts, every batch is stopped), `cannot-start` (a batch failed before its first case while no
// process had loaded the program: every case not yet reported got that verdict, the batches still loading were
// stopped, nothing more starts and nothing more is reported), `done` (no batch runs or lingers: said once).
import type { BatchCase, CaseRun } from './batch-machine.ts';
import type { CaseOutcome } from './case-outcome.ts';

// What the pool is given: the cases in their order, the batches as dealt from them, how many run at once, whether each case runs alone (no probe),
// whether one batch at a time carries the dispatcher probe's request, and how many may linger at once.
export type PoolPlan = {
  cases: BatchCase[];
  batches: BatchCase[][];
  jobs: number;
  alone: boolean;
  observe: boolean;
  maxLingering: number;
};

// A batch the pool started and has not heard the end of.
type Running = { id: number; cases: BatchCase[]; loaded: boolean };

export type PoolState = {
  phase: 'running' | 'aborted' | 'cannot-start' | 'done';
  plan: PoolPlan;
  // Batches still to start: rests handed back first (the latest first, as they are the cases in the middle of
  // the suite's order), then the dealt ones from `dealt` on.
  rests: BatchCase[][];
  dealt: number;
  nextId: number;
  running: Running[];
  // Batches whose rest went back while their process finishes one slow case.
  lingering: number[];
  // Whether some process of this run has loaded the program: from then on a failure before a batch's first case
  // is that batch's alone.
  loaded: boolean;
  // The cases reported while no process had loaded the program (only a case run without a probe can be): once
  // one has, no run can fail as a whole, so no more are kept.
  early: string[];
  // The batch carrying the probe's request, and whether its observation arrived.
  observing: number | undefined;
  observed: boolean;
};

// How a batch ended, as the pool hears it: its process is gone, or it handed its rest back (its process lingers
// until `lingered`), or nothing of it ran.
export type PoolBatchEnd =
  | { kind: 'ran'; rest: BatchCase[] }
  | { kind: 'released'; rest: BatchCase[] }
  | { kind: 'not-started'; outcome: CaseOutcome; output: string };

export type PoolEvent =
  | { type: 'loaded'; batch: number }
  | { type: 'case'; run: CaseRun }
  | { type: 'observed'; observed: unknown }
  | { type: 'ended'; batch: number; end: PoolBatchEnd }
  | { type: 'lingered'; batch: number }
  | { type: 'abort' };

// What run-batches.ts does, in order. `start`: run these cases in a process (`probe`: the startup probe first;
// `observe`: it carries the probe's request).
export type PoolEffect =
  | { type: 'start'; batch: number; cases: BatchCase[]; probe: boolean; observe: boolean }
  | { type: 'report'; run: CaseRun }
  | { type: 'observed'; observed: unknown }
  | { type: 'stop'; batch: number }
  | { type: 'done' };

type Step = [PoolState, PoolEffect[]];

// The pool's first state, and the batches it starts at once.
export function startPool(plan: PoolPlan): Step {
  const state: PoolState = {
    phase: 'running',
    plan,
    rests: [],
    dealt: 0,
    nextId: 0,
    running: [],
    lingering: [],
    loaded: false,
    early: [],
    observing: undefined,
    observed: false,
  };
  return settle(state, []);
}

// The next state and what to do, for one event.
export function step(state: PoolState, event: PoolEvent): Step {
  if (state.phase === 'done') return [state, []];
  switch (event.type) {
    case 'loaded': {
      const running = state.running.map((b) => (b.id === event.batch ? { ...b, loaded: true } : b));
      return [{ ...state, running, loaded: true, early: [] }, []];
    }
    case 'case':
      if (state.phase === 'cannot-start') return [state, []];
      return [
        state.loaded ? state : { ...state, early: [...state.early, event.run.name] },
        [{ type: 'report', run: event.run }],
      ];
    case 'observed':
      return [{ ...state, observed: true }, [{ type: 'observed', observed: event.observed }]];
    case 'ended':
      return onEnded(state, event.batch, event.end);
    case 'lingered':
      return settle({ ...state, lingering: state.lingering.filter((id) => id !== event.batch) }, []);
    case 'abort': {
      if (state.phase !== 'running') return [state, []];
      const stops = [...state.running.map((b) => b.id), ...state.lingering].map(stop);
      return settle({ ...state, phase: 'aborted' }, stops);
    }
  }
}

// Whether a batch may hand its rest back now: the processes left finishing one case each are bounded.
export function mayRelease(state: PoolState): boolean {
  return state.lingering.length < state.plan.maxLingering;
}

function onEnded(state: PoolState, id: number, end: PoolBatchEnd): Step {
  const batch = state.running.find((b) => b.id === id);
  if (batch === undefined) return [state, []];
  const ended: PoolState = {
    ...state,
    running: state.running.filter((b) => b.id !== id),
    observing: state.observing === id ? undefined : state.observing,
  };
  if (end.kind === 'not-started') return notStarted(ended, batch, end);
  const queued: PoolState = {
    ...ended,
    rests: end.rest.length > 0 ? [end.rest, ...ended.rests] : ended.rests,
    lingering: end.kind === 'released' ? [...ended.lingering, id] : ended.lingering,
  };
  return settle(queued, []);
}

// A batch that never reached its first case: its own failure once the program is known to load, else the whole
// run's (every case gets it at once, and no other process is started).
function notStarted(state: PoolState, batch: Running, end: Extract<PoolBatchEnd, { kind: 'not-started' }>): Step {
  if (state.phase !== 'running') return settle(state, []);
  const verdict = (c: BatchCase): PoolEffect => ({
    type: 'report',
    run: { name: c.name, outcome: end.outcome, output: end.output, durationMs: 0, afterProbe: false },
  });
  if (state.loaded) return settle(state, batch.cases.map(verdict));
  const early = new Set(state.early);
  const all = state.plan.cases.filter((c) => !early.has(c.name));
  const stops = state.running.filter((b) => !b.loaded).map((b) => stop(b.id));
  return settle({ ...state, phase: 'cannot-start', early: [] }, [...all.map(verdict), ...stops]);
}

// Starts what may start, and says when the pool is done.
function settle(state: PoolState, effects: PoolEffect[]): Step {
  let s = state;
  const out = [...effects];
  while (s.phase === 'running' && s.running.length < s.plan.jobs) {
    const taken = take(s);
    if (taken === undefined) break;
    const [cases, rest] = taken;
    const id = s.nextId;
    const observe = s.plan.observe && !s.plan.alone && !s.observed && s.observing === undefined;
    s = {
      ...rest,
      nextId: id + 1,
      running: [...s.running, { id, cases, loaded: false }],
      observing: observe ? id : s.observing,
    };
    out.push({ type: 'start', batch: id, cases, probe: probes(s.plan) || cases.length > 1, observe });
  }
  if (s.running.length === 0 && s.lingering.length === 0 && (s.phase !== 'running' || take(s) === undefined)) {
    return [{ ...s, phase: 'done' }, [...out, { type: 'done' }]];
  }
  return [s, out];
}

// The next batch to start and the state without it.
function take(state: PoolState): [BatchCase[], PoolState] | undefined {
  const [rest, ...rests] = state.rests;
  if (rest !== undefined) return [rest, { ...state, rests }];
  const dealt = state.plan.batches[state.dealt];
  return dealt === undefined ? undefined : [dealt, { ...state, dealt: state.dealt + 1 }];
}

// A batch of one needs no probe when it is the whole run: its failure is the run's whichever way it fails.
function probes(plan: PoolPlan): boolean {
  return !plan.alone && plan.batches.length > 1;
}

function stop(batch: number): PoolEffect {
  return { type: 'stop', batch };
}
