// One batch of cases in one program process as a pure state machine: the process's result lines, the release
// timer, the run's abort and the process's end come in as events; the cases' outcomes, what to hand back to the
// pool and how the batch ended come out. run-batch.ts only connects it to run-program.ts and keeps the timer.
//
// Phases: `loading` (the startup probe runs first: until its result line, a failure is the program's, not any
// case's), `running` (case `current` in flight; the cases after it are still this process's), `lingering` (the
// rest was handed back: case `current` goes on alone until its line or its timeout), `ending` (nothing left to
// report but the process's end: the last case's line is in, held for the output printed after it, or a bad line
// stopped the process), `done`. A case still running after its release delay (releaseMs: RELEASE_AFTER_MS, or
// RELEASE_FACTOR times what the case is expected to take when that is longer, at most half the timeout) hands the
// cases after it back, when the pool allows (it bounds the processes left finishing one case); the
// case in flight when the process crashes, hangs or floods gets that outcome, and the cases after it go back.
import type { CaseOutcome } from './case-outcome.ts';
import { parseResultLine } from './parse-result-line.ts';
import type { ProgramLine, ProgramResult } from './program-machine.ts';

// A case as the pool knows it: a name to report and the case file whose object program.ts is given; what it is
// expected to take (its last measured time, or its stage's typical one), when known.
export type BatchCase = { name: string; file: string; expectedMs?: number };

// One case's outcome, its share of the output, and whether it ran after the startup probe in the same process
// (a failure there may be another case's doing; one that ran alone is its own).
export type CaseRun = { name: string; outcome: CaseOutcome; output: string; durationMs: number; afterProbe: boolean };

// How a batch ended: its process is gone (`rest`: the cases after one that broke it, to run again); or it handed
// `rest` back while a slow case goes on (`lingering` settles once that case is reported and the process gone);
// or the program failed before its first case and nothing of the batch ran (`outcome` is every case's).
export type BatchEnd =
  | { kind: 'ran'; rest: BatchCase[] }
  | { kind: 'released'; rest: BatchCase[]; lingering: Promise<void> }
  | { kind: 'not-started'; outcome: CaseOutcome; output: string };

// How long a case may run before the rest of its batch is handed back to run in another process, and how many
// times its expected time a slower case may: a new process costs about 0.45 s to start (more in the sandbox, which
// compiles cold), so handing back the rest of a case that is merely slow, such as a loop case of a second, costs
// more than it saves; only a case far past its usual time is likely to hang.
export const RELEASE_AFTER_MS = 500;
export const RELEASE_FACTOR = 4;

// What the machine is told at the start: the cases, whether the startup probe runs first, the per-case timeout.
export type BatchPlan = { cases: BatchCase[]; probe: boolean; timeoutMs: number };

export type BatchState = {
  phase: 'loading' | 'running' | 'lingering' | 'ending' | 'done';
  plan: BatchPlan;
  // The case in flight (an index into plan.cases).
  current: number;
  // The last case this process may report: lowered to the case in flight when the rest is handed back.
  last: number;
  // Whether a line has shown that the program loads (the probe's, or any case's results).
  loaded: boolean;
  aborted: boolean;
  // What the program printed while loading (it belongs to the first case), and the probe's bad line, if any.
  startupOutput: string;
  startupFailure: string | undefined;
  // The last case's run, reported once the process has ended: what it prints after its line is that case's too.
  held: CaseRun | undefined;
};

export type BatchEvent =
  | { type: 'line'; line: ProgramLine }
  // The release timer fired; `allowed`: the pool's say on one more process left finishing a case.
  | { type: 'release-due'; allowed: boolean }
  | { type: 'abort' }
  | { type: 'ended'; result: ProgramResult };

// What run-batch.ts does, in order. `stop`: the answer to the line just given is to stop the process.
export type BatchEffect =
  | { type: 'loaded' }
  | { type: 'arm-release'; ms: number }
  | { type: 'disarm-release' }
  | { type: 'report'; run: CaseRun }
  | { type: 'stop' }
  | { type: 'hand-back'; rest: BatchCase[] }
  | { type: 'warn'; warning: string }
  | { type: 'finish'; end: Exclude<BatchEnd, { kind: 'released' }> };

type Step = [BatchState, BatchEffect[]];

// The state of a batch whose process is starting, and its first effects.
export function startBatch(plan: BatchPlan): Step {
  const state: BatchState = {
    phase: plan.probe ? 'loading' : 'running',
    plan,
    current: 0,
    last: plan.cases.length - 1,
    loaded: false,
    aborted: false,
    startupOutput: '',
    startupFailure: undefined,
    held: undefined,
  };
  return [state, plan.probe ? [] : [watch(state, 0)]];
}

// The next state and what to do, for one event.
export function step(state: BatchState, event: BatchEvent): Step {
  if (state.phase === 'done') return [state, []];
  switch (event.type) {
    case 'line':
      if (state.aborted || state.phase === 'ending') return [state, []];
      return state.phase === 'loading' ? onProbeLine(state, event.line) : onCaseLine(state, event.line);
    case 'release-due':
      return onReleaseDue(state, event.allowed);
    case 'abort':
      return [{ ...state, aborted: true }, [{ type: 'disarm-release' }]];
    case 'ended':
      return onEnded(state, event.result);
  }
}

function onProbeLine(state: BatchState, line: ProgramLine): Step {
  const parsed = parseResultLine(line.text);
  // Output printed while loading belongs to the first case, as it would without the probe.
  const probed = { ...state, startupOutput: line.output };
  if (!parsed.ok) return [{ ...probed, phase: 'ending', startupFailure: parsed.reason }, [{ type: 'stop' }]];
  const running: BatchState = { ...probed, phase: 'running', current: 0, loaded: true };
  return [running, [{ type: 'loaded' }, watch(running, 0)]];
}

function onCaseLine(state: BatchState, line: ProgramLine): Step {
  const { cases, probe } = state.plan;
  const k = line.index - (probe ? 1 : 0);
  const parsed = parseResultLine(line.text);
  const outcome: CaseOutcome = parsed.ok
    ? { kind: 'results', results: parsed.results }
    : { kind: 'bad-line', reason: parsed.reason };
  const output = (k === 0 ? state.startupOutput : '') + line.output;
  const run: CaseRun = { name: cases[k]!.name, outcome, output, durationMs: line.durationMs, afterProbe: probe };
  const loaded: BatchEffect[] = parsed.ok && !state.loaded ? [{ type: 'loaded' }] : [];
  const seen = { ...state, loaded: state.loaded || parsed.ok };
  if (k === state.last) {
    // The last case waits for the exit. A process that handed its rest back is stopped here; the last of the
    // whole batch exits on its own.
    const stop: BatchEffect[] = !parsed.ok || k < cases.length - 1 ? [{ type: 'stop' }] : [];
    return [{ ...seen, phase: 'ending', held: run }, [...loaded, { type: 'disarm-release' }, ...stop]];
  }
  if (!parsed.ok) {
    // A bad line: its case has its outcome, the rest runs in a fresh process.
    return [
      { ...seen, phase: 'ending' },
      [...loaded, { type: 'disarm-release' }, { type: 'report', run }, { type: 'stop' }],
    ];
  }
  const next: BatchState = { ...seen, current: k + 1 };
  return [next, [...loaded, watch(next, k + 1), { type: 'report', run }]];
}

function onReleaseDue(state: BatchState, allowed: boolean): Step {
  // Only a case with cases after it, still running, hands them back.
  if (state.phase !== 'running' || state.aborted || state.current >= state.last) return [state, []];
  if (!allowed) return [state, [{ type: 'arm-release', ms: releaseMs(state, state.current) / 4 }]];
  const rest = state.plan.cases.slice(state.current + 1);
  return [{ ...state, phase: 'lingering', last: state.current }, [{ type: 'hand-back', rest }]];
}

function onEnded(state: BatchState, result: ProgramResult): Step {
  const done: BatchState = { ...state, phase: 'done' };
  const effects: BatchEffect[] = [{ type: 'disarm-release' }];
  if (result.warning !== undefined) effects.push({ type: 'warn', warning: result.warning });
  const finish = (end: Exclude<BatchEnd, { kind: 'released' }>): Step => [done, [...effects, { type: 'finish', end }]];
  const { cases, probe } = state.plan;
  // The cases from k on that are still this process's, to run again elsewhere.
  const from = (k: number): BatchCase[] => cases.slice(k, state.last + 1);
  if (state.held !== undefined) {
    effects.push({ type: 'report', run: { ...state.held, output: state.held.output + result.output } });
    return finish({ kind: 'ran', rest: [] });
  }
  if (state.aborted) return finish({ kind: 'ran', rest: [] });
  const output = state.startupOutput + result.output;
  if (state.startupFailure !== undefined) {
    const outcome: CaseOutcome = { kind: 'bad-line', reason: state.startupFailure, beforeAnyCase: true };
    return finish({ kind: 'not-started', outcome, output });
  }
  const end = result.end;
  const judged = Math.max(0, result.lines - (probe ? 1 : 0));
  // Stopped by the batch at a bad line: that case has its outcome.
  if (end.kind === 'stopped') return finish({ kind: 'ran', rest: from(judged) });
  if ((probe && result.lines === 0) || end.kind === 'spawn-failed') {
    return finish({ kind: 'not-started', outcome: { ...end, beforeAnyCase: true }, output });
  }
  const inFlight = cases[judged];
  if (inFlight === undefined || judged > state.last) return finish({ kind: 'ran', rest: [] });
  const known: CaseOutcome['calling'] = result.calling ?? (result.reportsCalls ? 'none' : undefined);
  const calling =
    (end.kind === 'exited' || end.kind === 'timeout' || end.kind === 'cpu' || end.kind === 'memory') &&
    known !== undefined
      ? { calling: known }
      : {};
  effects.push({
    type: 'report',
    run: {
      name: inFlight.name,
      outcome: { ...end, ...calling },
      output: (judged === 0 ? state.startupOutput : '') + result.output,
      durationMs: result.durationMs,
      afterProbe: probe,
    },
  });
  return finish({ kind: 'ran', rest: from(judged + 1) });
}

// Case k is in flight from now: if it is still running after the release delay, the cases after it may go back.
function watch(state: BatchState, k: number): BatchEffect {
  return k < state.last ? { type: 'arm-release', ms: releaseMs(state, k) } : { type: 'disarm-release' };
}

// Case k's release delay.
function releaseMs(state: BatchState, k: number): number {
  const expected = state.plan.cases[k]?.expectedMs ?? 0;
  return Math.min(Math.max(RELEASE_AFTER_MS, RELEASE_FACTOR * expected), state.plan.timeoutMs / 2);
}
