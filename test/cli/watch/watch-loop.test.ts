import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../../src/grade/types.ts';
import {
  initialState,
  step,
  type Effect,
  type WatchEvent,
  type WatchState,
} from '../../../src/cli/watch/watch-loop.ts';

// A report with `passed` passing cases and the named failing ones.
function report(passed: number, failed: string[] = []): RunReport {
  const pass = Array.from({ length: passed }, (_, i) => ({
    name: `ok-${i}`,
    description: 'd',
    status: 'pass' as const,
    durationMs: 1,
    output: '',
  }));
  const fail = failed.map((name) => ({ name, description: 'd', status: 'fail' as const, durationMs: 1, output: '' }));
  return {
    stage: 'register-tools',
    dir: '/course',
    cases: [...pass, ...fail],
    passed,
    failed: failed.length,
    durationMs: 5,
  };
}

function run(events: WatchEvent[], cases?: string[]): { state: WatchState; effects: Effect[][] } {
  let state = initialState(cases);
  const effects: Effect[][] = [];
  for (const event of events) {
    const [next, out] = step(state, event);
    state = next;
    effects.push(out);
  }
  return { state, effects };
}

const key = (
  type: 'run-all' | 'run-failed' | 'open-filter' | 'cancel-filter' | 'quit' | 'interrupt' | 'none',
): WatchEvent => ({ type: 'key', action: { type } });
const start: WatchEvent = { type: 'start' };
const saved = (...paths: string[]): WatchEvent => ({ type: 'files-changed', paths });
const finished = (r: RunReport): WatchEvent => ({ type: 'run-finished', report: r });
const cancelled: WatchEvent = { type: 'run-cancelled' };
const menu: Effect = { type: 'show-menu', filter: undefined };
// Once a verdict is on screen, the course is type-checked off the cases' path.
const typeCheck: Effect = { type: 'type-check' };

type Row = { name: string; events: WatchEvent[]; last: Effect[]; phase?: WatchState['phase']; cases?: string[] };

const rows: Row[] = [
  {
    name: 'start runs every case',
    events: [start],
    last: [{ type: 'start-run', request: { cases: undefined, reason: { kind: 'start' } } }],
    phase: 'running',
  },
  {
    name: 'a first verdict is shown without comparison, then the menu',
    events: [start, finished(report(2, ['b']))],
    last: [{ type: 'show-report', report: report(2, ['b']), comparison: { kind: 'first' } }, menu, typeCheck],
    phase: 'idle',
  },
  {
    name: 'a save when idle re-runs, naming the file',
    events: [start, finished(report(3)), saved('src/execute.ts')],
    last: [{ type: 'start-run', request: { cases: undefined, reason: { kind: 'files', paths: ['src/execute.ts'] } } }],
  },
  {
    name: 'the same verdict twice says so',
    events: [start, finished(report(2, ['b', 'a'])), saved('src/execute.ts'), finished(report(2, ['a', 'b']))],
    last: [
      {
        type: 'show-report',
        report: report(2, ['a', 'b']),
        comparison: {
          kind: 'same',
          verdict: { passed: 2, failed: 2, failedNames: ['a', 'b'], failedKinds: ['failed', 'failed'] },
        },
      },
      menu,
      typeCheck,
    ],
  },
  {
    name: 'a different verdict says what it was',
    events: [start, finished(report(2, ['a'])), saved('src/execute.ts'), finished(report(3))],
    last: [
      {
        type: 'show-report',
        report: report(3),
        comparison: {
          kind: 'changed',
          before: { passed: 2, failed: 1, failedNames: ['a'], failedKinds: ['failed'] },
          after: { passed: 3, failed: 0, failedNames: [], failedKinds: [] },
        },
      },
      menu,
      typeCheck,
    ],
  },
  {
    name: "a type check's note between runs is shown, then the menu again",
    events: [start, finished(report(2)), { type: 'type-checked', note: 'N' }],
    last: [{ type: 'show-type-check', note: 'N' }, menu],
    phase: 'idle',
  },
  {
    name: "a type check's note while a run is under way is dropped: that run's verdict owns the screen",
    events: [start, finished(report(2)), saved('src/a.ts'), { type: 'type-checked', note: 'N' }],
    last: [],
    phase: 'running',
  },
  {
    name: 'a save during a run cancels it',
    events: [start, saved('src/execute.ts')],
    last: [{ type: 'cancel-run' }],
    phase: 'cancelling',
  },
  {
    name: 'saves while cancelling merge into one re-run, started once the cancelled run settles',
    events: [start, saved('src/a.ts'), saved('src/b.ts', 'src/a.ts'), cancelled],
    last: [
      { type: 'start-run', request: { cases: undefined, reason: { kind: 'files', paths: ['src/a.ts', 'src/b.ts'] } } },
    ],
    phase: 'running',
  },
  {
    name: 'a run that finishes after it was cancelled is stale: the pending run starts instead',
    events: [start, saved('src/a.ts'), finished(report(1))],
    last: [{ type: 'start-run', request: { cases: undefined, reason: { kind: 'files', paths: ['src/a.ts'] } } }],
  },
  {
    name: 'f re-runs only the last failures',
    events: [start, finished(report(1, ['x', 'y'])), key('run-failed')],
    last: [{ type: 'start-run', request: { cases: ['x', 'y'], reason: { kind: 'run-failed', count: 2 } } }],
  },
  {
    name: 'f with no failures says there is nothing to re-run',
    events: [start, finished(report(4)), key('run-failed')],
    last: [{ type: 'show-notice', message: 'No case failed in the last run: nothing to re-run (a runs all).' }],
    phase: 'idle',
  },
  {
    name: 'f before any verdict explains itself',
    events: [start, key('run-failed')],
    last: [{ type: 'show-notice', message: 'No run has finished yet: f re-runs the failed cases of the last run.' }],
    phase: 'running',
  },
  {
    name: 'a verdict over a subset is compared with the last run over the same subset only',
    events: [start, finished(report(1, ['x'])), key('run-failed'), finished(report(0, ['x']))],
    last: [{ type: 'show-report', report: report(0, ['x']), comparison: { kind: 'first' } }, menu, typeCheck],
  },
  {
    name: 'a filter is applied as a substring glob and kept for later saves',
    events: [
      start,
      finished(report(1)),
      key('open-filter'),
      { type: 'key', action: { type: 'apply-filter', text: ' read ' } },
      finished(report(1)),
      saved('src/execute.ts'),
    ],
    last: [{ type: 'start-run', request: { cases: ['*read*'], reason: { kind: 'files', paths: ['src/execute.ts'] } } }],
  },
  {
    name: 'the menu names the filter in force',
    events: [
      start,
      finished(report(1)),
      { type: 'key', action: { type: 'apply-filter', text: 'read' } },
      finished(report(1)),
    ],
    last: [
      { type: 'show-report', report: report(1), comparison: { kind: 'first' } },
      { type: 'show-menu', filter: 'read' },
      typeCheck,
    ],
  },
  {
    name: "after f, the menu says the filter in force is the saves' (f ran the last failures)",
    events: [
      start,
      finished(report(1)),
      { type: 'key', action: { type: 'apply-filter', text: 'read' } },
      finished(report(0, ['x'])),
      key('run-failed'),
      finished(report(1)),
    ],
    last: [
      { type: 'show-report', report: report(1), comparison: { kind: 'first' } },
      { type: 'show-menu', filter: 'read', afterFailed: true },
      typeCheck,
    ],
  },
  {
    name: 'an empty filter clears it',
    events: [
      start,
      finished(report(1)),
      { type: 'key', action: { type: 'apply-filter', text: 'read' } },
      finished(report(1)),
      { type: 'key', action: { type: 'apply-filter', text: '' } },
    ],
    last: [{ type: 'start-run', request: { cases: undefined, reason: { kind: 'filter', filter: undefined } } }],
  },
  {
    name: 'a clears the filter and runs everything',
    events: [
      start,
      finished(report(1)),
      { type: 'key', action: { type: 'apply-filter', text: 'read' } },
      finished(report(1)),
      key('run-all'),
    ],
    last: [{ type: 'start-run', request: { cases: undefined, reason: { kind: 'run-all' } } }],
  },
  {
    name: 'typing in the prompt redraws it',
    events: [
      start,
      finished(report(1)),
      key('open-filter'),
      { type: 'key', action: { type: 'edit-filter', text: 'r' } },
    ],
    last: [{ type: 'show-prompt', draft: 'r' }],
  },
  {
    name: 'a run that ends while the prompt is open shows the prompt again with its draft',
    events: [
      start,
      key('open-filter'),
      { type: 'key', action: { type: 'edit-filter', text: 're' } },
      finished(report(1)),
    ],
    last: [
      { type: 'show-report', report: report(1), comparison: { kind: 'first' } },
      menu,
      { type: 'show-prompt', draft: 're' },
      typeCheck,
    ],
  },
  {
    name: 'Escape closes the prompt and keeps the filter',
    events: [start, finished(report(1)), key('open-filter'), key('cancel-filter')],
    last: [menu],
  },
  {
    name: 'quit when idle exits with the last verdict: pass',
    events: [start, finished(report(3)), key('quit')],
    last: [{ type: 'exit', outcome: 'pass' }],
    phase: 'done',
  },
  {
    name: 'quit when idle exits with the last verdict: fail',
    events: [start, finished(report(3, ['x'])), key('quit')],
    last: [{ type: 'exit', outcome: 'fail' }],
    phase: 'done',
  },
  {
    name: 'quit during a run cancels it first',
    events: [start, finished(report(3)), saved('src/execute.ts'), key('quit')],
    last: [{ type: 'cancel-run' }],
    phase: 'quitting',
  },
  {
    name: 'and exits with the last finished verdict once it has settled',
    events: [start, finished(report(3)), saved('src/execute.ts'), key('quit'), cancelled],
    last: [{ type: 'exit', outcome: 'pass' }],
    phase: 'done',
  },
  {
    name: 'quit while cancelling drops the pending run',
    events: [start, saved('src/execute.ts'), key('quit'), cancelled],
    last: [{ type: 'exit', outcome: 'fail' }],
    phase: 'done',
  },
  {
    name: 'Ctrl-C when idle exits 130 whatever the last verdict',
    events: [start, finished(report(3)), key('interrupt')],
    last: [{ type: 'exit', outcome: 'interrupted' }],
    phase: 'done',
  },
  {
    name: 'Ctrl-C during a run cancels it first, then exits 130',
    events: [start, finished(report(3)), saved('src/execute.ts'), key('interrupt'), cancelled],
    last: [{ type: 'exit', outcome: 'interrupted' }],
    phase: 'done',
  },
  {
    name: 'Ctrl-C while q is quitting still exits 130',
    events: [start, finished(report(3, ['x'])), saved('src/execute.ts'), key('quit'), key('interrupt'), cancelled],
    last: [{ type: 'exit', outcome: 'interrupted' }],
    phase: 'done',
  },
  {
    name: 'quit before any verdict exits 1: no verdict is not a pass',
    events: [key('quit')],
    last: [{ type: 'exit', outcome: 'fail' }],
  },
  {
    name: 'watch mode started with --case runs those cases, and names them as the filter',
    cases: ['read-*', 'bash-echo'],
    events: [start],
    last: [{ type: 'start-run', request: { cases: ['read-*', 'bash-echo'], reason: { kind: 'start' } } }],
  },
  {
    name: 'the --case filter is kept for saves and shown in the menu',
    cases: ['read-*'],
    events: [start, finished(report(1)), saved('src/execute.ts'), finished(report(1))],
    last: [
      {
        type: 'show-report',
        report: report(1),
        comparison: { kind: 'same', verdict: { passed: 1, failed: 0, failedNames: [], failedKinds: [] } },
      },
      { type: 'show-menu', filter: 'read-*' },
      typeCheck,
    ],
  },
  {
    name: 'a clears the --case filter too',
    cases: ['read-*'],
    events: [start, finished(report(1)), key('run-all')],
    last: [{ type: 'start-run', request: { cases: undefined, reason: { kind: 'run-all' } } }],
  },
  { name: 'nothing happens after exit', events: [key('quit'), saved('src/execute.ts')], last: [], phase: 'done' },
  {
    name: 'a harness error waits for a fix and makes quitting exit 2',
    events: [start, { type: 'run-errored', message: 'program.ts is missing', fatal: false }, key('quit')],
    last: [{ type: 'exit', outcome: 'misuse' }],
  },
  {
    name: 'a harness error is shown with the menu',
    events: [start, { type: 'run-errored', message: 'program.ts is missing', fatal: false }],
    last: [{ type: 'show-error', message: 'program.ts is missing' }, menu],
    phase: 'idle',
  },
  {
    name: 'a fatal harness error stops watching and hands the error on',
    events: [start, { type: 'run-errored', message: 'unknown stage', fatal: true }],
    last: [{ type: 'fail', message: 'unknown stage' }],
    phase: 'done',
  },
  {
    name: 'an unknown key says which keys work',
    events: [start, { type: 'key', action: { type: 'unknown', input: 'x' } }],
    last: [{ type: 'show-notice', message: 'Unknown key "x": press a, f, p or q (Enter runs all).' }],
  },
];

describe('watch loop', () => {
  it.each(rows)('$name', ({ events, last, phase, cases }) => {
    const { state, effects } = run(events, cases);
    expect(effects.at(-1)).toEqual(last);
    if (phase !== undefined) expect(state.phase).toBe(phase);
  });
});
