// The pool's lifetime, without a process: batches starting `jobs` at a time, rests handed back, a program that
// cannot start, the probe's request, lingering processes and the run's abort in every order that matters, each a
// row with what the pool starts, reports, stops and when it is done.
import { describe, expect, it } from 'vitest';
import type { BatchCase, CaseRun } from '../../../src/grade/run/batch-machine.ts';
import {
  mayRelease,
  startPool,
  step,
  type PoolEffect,
  type PoolEvent,
  type PoolPlan,
  type PoolState,
} from '../../../src/grade/run/pool-machine.ts';

const c = (name: string): BatchCase => ({ name, file: `/cases/${name}.json` });
const [A, B, C, D] = ['a', 'b', 'c', 'd'].map(c) as [BatchCase, BatchCase, BatchCase, BatchCase];
// Two batches dealt round robin, two processes at once.
const TWO: PoolPlan = {
  cases: [A, B, C, D],
  batches: [
    [A, C],
    [B, D],
  ],
  jobs: 2,
  alone: false,
  observe: false,
  maxLingering: 8,
};
const ONE_JOB: PoolPlan = { ...TWO, jobs: 1 };
const ALONE: PoolPlan = { ...TWO, batches: [[A], [B], [C], [D]], alone: true };

const run = (name: string): CaseRun => ({
  name,
  outcome: { kind: 'results', results: [] },
  output: '',
  durationMs: 5,
  afterProbe: true,
});
const loaded = (batch: number): PoolEvent => ({ type: 'loaded', batch });
const passed = (name: string): PoolEvent => ({ type: 'case', run: run(name) });
const ran = (batch: number, ...rest: BatchCase[]): PoolEvent => ({ type: 'ended', batch, end: { kind: 'ran', rest } });
const released = (batch: number, ...rest: BatchCase[]): PoolEvent => ({
  type: 'ended',
  batch,
  end: { kind: 'released', rest },
});
const lingered = (batch: number): PoolEvent => ({ type: 'lingered', batch });
const crashedLoading = (batch: number, output = 'SyntaxError'): PoolEvent => ({
  type: 'ended',
  batch,
  end: { kind: 'not-started', outcome: { kind: 'exited', code: 1, signal: null, beforeAnyCase: true }, output },
});
const abort: PoolEvent = { type: 'abort' };

function drive(events: PoolEvent[], plan: PoolPlan): { state: PoolState; effects: PoolEffect[] } {
  let [state, effects] = startPool(plan);
  for (const event of events) {
    const [next, out] = step(state, event);
    state = next;
    effects = [...effects, ...out];
  }
  return { state, effects };
}

// What the pool did, in order: batches started (id: cases, +probe, +observe), cases reported (name: outcome
// kind), batches stopped, done.
function told(events: PoolEvent[], plan = TWO): string[] {
  return drive(events, plan).effects.map(describeEffect);
}

function describeEffect(e: PoolEffect): string {
  if (e.type === 'start') {
    const names = e.cases.map((x) => x.name).join(' ');
    return `start ${e.batch}: ${names}${e.probe ? ' +probe' : ''}${e.observe ? ' +observe' : ''}`;
  }
  if (e.type === 'report') return `${e.run.name}: ${e.run.outcome.kind}`;
  if (e.type === 'stop') return `stop ${e.batch}`;
  return e.type;
}

// Every case, given the verdict of a program that cannot start.
const EVERY_CASE_EXITED = ['a: exited', 'b: exited', 'c: exited', 'd: exited'];

describe('the pool machine', () => {
  it.each<[string, PoolPlan, PoolEvent[], string[]]>([
    [
      'every batch at once, done when both have ended',
      TWO,
      [loaded(0), loaded(1), passed('a'), passed('b'), passed('c'), passed('d'), ran(0), ran(1)],
      ['start 0: a c +probe', 'start 1: b d +probe', 'a: results', 'b: results', 'c: results', 'd: results', 'done'],
    ],
    [
      'one job: the second batch starts when the first has ended',
      ONE_JOB,
      [loaded(0), passed('a'), passed('c'), ran(0), loaded(1), passed('b'), passed('d'), ran(1)],
      ['start 0: a c +probe', 'a: results', 'c: results', 'start 1: b d +probe', 'b: results', 'd: results', 'done'],
    ],
    [
      'a crash mid-batch: the rest starts in a fresh process, before the batches not yet started',
      ONE_JOB,
      [loaded(0), ran(0, C), loaded(1), ran(1), ran(2)],
      ['start 0: a c +probe', 'start 1: c +probe', 'start 2: b d +probe', 'done'],
    ],
    [
      'a rest handed back starts at once while its process lingers; done only once that process is gone',
      ONE_JOB,
      [loaded(0), passed('a'), released(0, C), ran(1), ran(2), lingered(0)],
      ['start 0: a c +probe', 'a: results', 'start 1: c +probe', 'start 2: b d +probe', 'done'],
    ],
    [
      'a program that cannot start: every case at once, the batch still loading stopped, nothing more started',
      TWO,
      [crashedLoading(1), passed('a'), ran(0)],
      ['start 0: a c +probe', 'start 1: b d +probe', ...EVERY_CASE_EXITED, 'stop 0', 'done'],
    ],
    [
      'a program that cannot start, with one job: the batches not started never start',
      ONE_JOB,
      [crashedLoading(0)],
      ['start 0: a c +probe', ...EVERY_CASE_EXITED, 'done'],
    ],
    [
      "once a process has loaded the program, a failure before a batch's first case is that batch's alone",
      TWO,
      [loaded(0), crashedLoading(1), passed('a'), passed('c'), ran(0)],
      ['start 0: a c +probe', 'start 1: b d +probe', 'b: exited', 'd: exited', 'a: results', 'c: results', 'done'],
    ],
    [
      'a rest that fails before its first case, after the program loaded, is its own',
      ONE_JOB,
      [loaded(0), passed('a'), ran(0, C), crashedLoading(1), loaded(2), passed('b'), passed('d'), ran(2)],
      [
        'start 0: a c +probe',
        'a: results',
        'start 1: c +probe',
        'c: exited',
        'start 2: b d +probe',
        'b: results',
        'd: results',
        'done',
      ],
    ],
    [
      'alone: no probe, and a case reported before any process loaded is not reported again when one cannot start',
      { ...ALONE, jobs: 1 },
      [
        { type: 'case', run: { ...run('a'), outcome: { kind: 'exited', code: 3, signal: null } } },
        ran(0),
        crashedLoading(1),
      ],
      ['start 0: a', 'a: exited', 'start 1: b', 'b: exited', 'c: exited', 'd: exited', 'done'],
    ],
    [
      'a whole run of one case has no probe',
      { ...TWO, cases: [A], batches: [[A]] },
      [passed('a'), ran(0)],
      ['start 0: a', 'a: results', 'done'],
    ],
    [
      'a whole run of one batch of several cases has the probe',
      { ...TWO, cases: [A, B], batches: [[A, B]] },
      [loaded(0), ran(0)],
      ['start 0: a b +probe', 'done'],
    ],
    ['no cases: done at once', { ...TWO, cases: [], batches: [] }, [], ['done']],
    [
      'aborted: every batch stopped, lingering ones too, nothing more started; done once all are gone',
      ONE_JOB,
      [loaded(0), released(0, C), abort, passed('a'), ran(1), lingered(0)],
      ['start 0: a c +probe', 'start 1: c +probe', 'stop 1', 'stop 0', 'a: results', 'done'],
    ],
    [
      'aborted: a batch that then says it did not start reports nothing',
      TWO,
      [abort, crashedLoading(0), ran(1)],
      ['start 0: a c +probe', 'start 1: b d +probe', 'stop 0', 'stop 1', 'done'],
    ],
    [
      'after a program that cannot start, whatever a stopped batch still says is not reported',
      TWO,
      [crashedLoading(0), passed('b'), ran(1)],
      ['start 0: a c +probe', 'start 1: b d +probe', ...EVERY_CASE_EXITED, 'stop 1', 'done'],
    ],
    ['events after done are ignored', { ...TWO, cases: [], batches: [] }, [passed('a'), abort], ['done']],
  ])('%s', (_, plan, events, expected) => {
    expect(told(events, plan)).toEqual(expected);
  });

  it.each<[string, PoolPlan, PoolEvent[], string[]]>([
    [
      'one batch at a time carries the probe’s request',
      { ...TWO, observe: true },
      [],
      ['start 0: a c +probe +observe', 'start 1: b d +probe'],
    ],
    [
      'a batch that ends without an observation passes the request on',
      { ...ONE_JOB, observe: true },
      [loaded(0), ran(0, C)],
      ['start 0: a c +probe +observe', 'start 1: c +probe +observe'],
    ],
    [
      'a batch that hands its rest back passes the request on (its process is stopped after its slow case)',
      { ...ONE_JOB, observe: true },
      [loaded(0), released(0, C)],
      ['start 0: a c +probe +observe', 'start 1: c +probe +observe'],
    ],
    [
      'once observed, no batch carries the request',
      { ...ONE_JOB, observe: true },
      [loaded(0), { type: 'observed', observed: [1] }, ran(0)],
      ['start 0: a c +probe +observe', 'observed', 'start 1: b d +probe'],
    ],
    ['the re-runs alone never carry it', { ...ALONE, observe: true }, [], ['start 0: a', 'start 1: b']],
  ])('the probe’s request: %s', (_, plan, events, expected) => {
    expect(told(events, plan)).toEqual(expected);
  });

  it('hands the observation on as it came', () => {
    const { effects } = drive([{ type: 'observed', observed: { calls: [] } }], { ...TWO, observe: true });
    expect(effects).toContainEqual({ type: 'observed', observed: { calls: [] } });
  });

  it('gives a program that cannot start its outcome and output, for every case', () => {
    const { effects } = drive([crashedLoading(0, 'boom')], ONE_JOB);
    expect(effects.filter((e) => e.type === 'report')).toEqual(
      [A, B, C, D].map((x) => ({
        type: 'report',
        run: {
          name: x.name,
          outcome: { kind: 'exited', code: 1, signal: null, beforeAnyCase: true },
          output: 'boom',
          durationMs: 0,
          afterProbe: false,
        },
      })),
    );
  });

  it.each<[string, PoolEvent[], boolean]>([
    ['no process lingers', [], true],
    ['as many linger as allowed', [loaded(0), released(0, C)], false],
    ['one of them is gone', [loaded(0), released(0, C), lingered(0)], true],
  ])('may a batch hand its rest back when %s', (_, events, expected) => {
    expect(mayRelease(drive(events, { ...ONE_JOB, maxLingering: 1 }).state)).toBe(expected);
  });
});
