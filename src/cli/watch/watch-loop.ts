// The watch loop as a pure state machine: events in (a start, a burst of saved files, a key, a run that
// settled), the next state and the effects to carry out. It decides everything watch mode does; index.ts only
// performs the effects. Runs are never overlapped: a new request while a run is in flight cancels it first and
// starts once the cancelled run has settled (its processes killed, its temp dirs gone).
import type { RunReport } from '../../grade/types.ts';
import type { Outcome } from '../commands/io.ts';
import { filterOf, filterOfCases, type CaseFilter } from './case-filter.ts';
import type { KeyAction } from './keys.ts';
import { compareVerdicts, verdictOf, type Comparison, type RunVerdict } from './verdict.ts';

// Why a run started; its header says so.
export type RunReason =
  | { kind: 'start' }
  | { kind: 'files'; paths: string[] }
  | { kind: 'run-all' }
  | { kind: 'run-failed'; count: number }
  | { kind: 'filter'; filter: string | undefined };

// One run to start: the case selection (`RunOptions.cases`; undefined = every case) and why.
export type RunRequest = { cases: string[] | undefined; reason: RunReason };

// Everything the loop remembers between events.
export type WatchState = {
  phase: 'idle' | 'running' | 'cancelling' | 'quitting' | 'done';
  // The filter set with `p` (or `--case`); saves re-run within it until it is cleared (empty filter, or `a`).
  filter: CaseFilter | undefined;
  // The filter being typed while the prompt is open.
  draft: string | undefined;
  current: RunRequest | undefined;
  // What to start once the run being cancelled has settled.
  pending: RunRequest | undefined;
  // The failing cases of the last finished run, for `f`; undefined before any run finished.
  lastFailed: string[] | undefined;
  // The last verdict per case selection, so "same verdict" compares like with like.
  verdicts: Record<string, RunVerdict>;
  // What quitting returns: the last settled run's outcome ('fail' before any), or 'interrupted' once Ctrl-C asked
  // to quit. src/cli/main.ts alone turns it into an exit code.
  outcome: Outcome;
};

// What happens to the loop: the watcher, the keys and the grader report these.
export type WatchEvent =
  | { type: 'start' }
  | { type: 'files-changed'; paths: string[] }
  | { type: 'key'; action: KeyAction }
  | { type: 'run-finished'; report: RunReport }
  | { type: 'run-cancelled' }
  | { type: 'run-errored'; message: string; fatal: boolean }
  // The type check started after a run finished has something to say (its note, rendered).
  | { type: 'type-checked'; note: string };

// What the loop asks index.ts to do, in order.
export type Effect =
  | { type: 'start-run'; request: RunRequest }
  | { type: 'cancel-run' }
  | { type: 'show-report'; report: RunReport; comparison: Comparison }
  // Type-check the course now that the cases' verdict is on screen (off their critical path); a run started
  // meanwhile stops it.
  | { type: 'type-check' }
  | { type: 'show-type-check'; note: string }
  | { type: 'show-error'; message: string }
  | { type: 'show-notice'; message: string }
  // `afterFailed`: the run just shown was `f`'s, which ran the last failures whatever the filter.
  | { type: 'show-menu'; filter: string | undefined; afterFailed?: true }
  | { type: 'show-prompt'; draft: string }
  | { type: 'exit'; outcome: Outcome }
  // Stop watching and hand the run's error to the CLI edge: misuse no save can fix (an unknown stage).
  | { type: 'fail'; message: string };

// The state before the first run, optionally filtered by the `--case` patterns watch mode was started with.
export function initialState(cases?: string[]): WatchState {
  return {
    phase: 'idle',
    filter: filterOfCases(cases),
    draft: undefined,
    current: undefined,
    pending: undefined,
    lastFailed: undefined,
    verdicts: {},
    outcome: 'fail',
  };
}

// The next state and what to do, for one event.
export function step(state: WatchState, event: WatchEvent): [WatchState, Effect[]] {
  if (state.phase === 'done') return [state, []];
  switch (event.type) {
    case 'start':
      return request(state, { cases: state.filter?.cases, reason: { kind: 'start' } });
    case 'files-changed':
      return request(state, { cases: state.filter?.cases, reason: { kind: 'files', paths: event.paths } });
    case 'key':
      return onKey(state, event.action);
    case 'run-finished':
      return state.phase === 'running' ? finished(state, event.report) : settledByCancel(state);
    case 'run-cancelled':
      return settledByCancel(state);
    case 'run-errored':
      if (state.phase !== 'running') return settledByCancel(state);
      if (event.fatal) {
        const done: WatchState = { ...state, phase: 'done', current: undefined, outcome: 'misuse' };
        return [done, [{ type: 'fail', message: event.message }]];
      }
      return [
        { ...state, phase: 'idle', current: undefined, outcome: 'misuse' },
        [{ type: 'show-error', message: event.message }, ...idleScreen(state)],
      ];
    case 'type-checked':
      // Said only between runs: a run under way has cleared the screen for its own verdict.
      if (state.phase !== 'idle') return [state, []];
      return [state, [{ type: 'show-type-check', note: event.note }, ...idleScreen(state)]];
  }
}

function onKey(state: WatchState, action: KeyAction): [WatchState, Effect[]] {
  switch (action.type) {
    case 'run-all':
      // As in jest, "run all" means all: it clears a filter.
      return request({ ...state, filter: undefined }, { cases: undefined, reason: { kind: 'run-all' } });
    case 'run-failed': {
      if (state.lastFailed === undefined) {
        return notice(state, 'No run has finished yet: f re-runs the failed cases of the last run.');
      }
      if (state.lastFailed.length === 0) {
        return notice(state, 'No case failed in the last run: nothing to re-run (a runs all).');
      }
      const count = state.lastFailed.length;
      return request(state, { cases: [...state.lastFailed], reason: { kind: 'run-failed', count } });
    }
    case 'open-filter':
      return [{ ...state, draft: '' }, [{ type: 'show-prompt', draft: '' }]];
    case 'edit-filter':
      if (state.draft === undefined) return [state, []];
      return [{ ...state, draft: action.text }, [{ type: 'show-prompt', draft: action.text }]];
    case 'apply-filter': {
      const filter = filterOf(action.text);
      const reason: RunReason = { kind: 'filter', filter: filter?.label };
      return request({ ...state, draft: undefined, filter }, { cases: filter?.cases, reason });
    }
    case 'cancel-filter':
      return [{ ...state, draft: undefined }, [{ type: 'show-menu', filter: state.filter?.label }]];
    case 'quit':
      return quit(state);
    case 'interrupt':
      return quit({ ...state, outcome: 'interrupted' });
    case 'unknown':
      return notice(state, `Unknown key ${JSON.stringify(action.input)}: press a, f, p or q (Enter runs all).`);
    case 'none':
      return [state, []];
  }
}

function notice(state: WatchState, message: string): [WatchState, Effect[]] {
  return [state, [{ type: 'show-notice', message }]];
}

function request(state: WatchState, next: RunRequest): [WatchState, Effect[]] {
  switch (state.phase) {
    case 'idle':
      return [{ ...state, phase: 'running', current: next }, [{ type: 'start-run', request: next }]];
    case 'running':
      return [{ ...state, phase: 'cancelling', pending: next }, [{ type: 'cancel-run' }]];
    case 'cancelling':
      return [{ ...state, pending: merge(state.pending, next) }, []];
    default:
      return [state, []];
  }
}

// Two bursts of saves while one run is being cancelled are one re-run naming every file; any other request
// replaces what was pending, since it is what the student asked for last.
function merge(pending: RunRequest | undefined, next: RunRequest): RunRequest {
  if (pending?.reason.kind === 'files' && next.reason.kind === 'files') {
    const paths = [...new Set([...pending.reason.paths, ...next.reason.paths])];
    return { ...next, reason: { kind: 'files', paths } };
  }
  return next;
}

function quit(state: WatchState): [WatchState, Effect[]] {
  switch (state.phase) {
    case 'running':
      return [{ ...state, phase: 'quitting', pending: undefined }, [{ type: 'cancel-run' }]];
    case 'cancelling':
      return [{ ...state, phase: 'quitting', pending: undefined }, []];
    case 'quitting':
      return [state, []];
    default:
      return [{ ...state, phase: 'done' }, [{ type: 'exit', outcome: state.outcome }]];
  }
}

function finished(state: WatchState, report: RunReport): [WatchState, Effect[]] {
  const key = scopeKey(state.current?.cases);
  const verdict = verdictOf(report);
  const comparison: Comparison = compareVerdicts(state.verdicts[key], verdict);
  const next: WatchState = {
    ...state,
    phase: 'idle',
    current: undefined,
    lastFailed: verdict.failedNames,
    verdicts: { ...state.verdicts, [key]: verdict },
    outcome: verdict.failed > 0 ? 'fail' : 'pass',
  };
  const afterFailed = state.current?.reason.kind === 'run-failed' && next.filter !== undefined;
  return [
    next,
    [{ type: 'show-report', report, comparison }, ...idleScreen(next, afterFailed), { type: 'type-check' }],
  ];
}

// A run that settled after being cancelled: start what was asked meanwhile, or finish quitting.
function settledByCancel(state: WatchState): [WatchState, Effect[]] {
  if (state.phase === 'quitting') {
    return [{ ...state, phase: 'done', current: undefined }, [{ type: 'exit', outcome: state.outcome }]];
  }
  if (state.phase !== 'cancelling') return [state, []];
  const idle: WatchState = { ...state, phase: 'idle', current: undefined, pending: undefined };
  if (state.pending === undefined) return [idle, idleScreen(idle)];
  return request(idle, state.pending);
}

function idleScreen(state: WatchState, afterFailed = false): Effect[] {
  const effects: Effect[] = [
    { type: 'show-menu', filter: state.filter?.label, ...(afterFailed ? { afterFailed: true as const } : {}) },
  ];
  if (state.draft !== undefined) effects.push({ type: 'show-prompt', draft: state.draft });
  return effects;
}

function scopeKey(cases: string[] | undefined): string {
  return cases === undefined ? '*' : JSON.stringify([...cases].sort());
}
