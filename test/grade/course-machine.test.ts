// The top of a run of one course directory, without a process: runs arriving before the judging is ready, variant
// runs before the reference's results, re-checks, --bail, runs out of CPU time and an abort, each a row with what
// the run does.
import { describe, expect, it } from 'vitest';
import {
  type CourseEffect,
  type CourseEvent,
  type CoursePlan,
  type CourseState,
  startCourse,
  step,
} from '../../src/grade/course-machine.ts';
import type { CaseRun } from '../../src/grade/run/run-batches.ts';
import type { CaseResult } from '../../src/grade/types.ts';

const PLAIN: CoursePlan = { bail: false, variants: false, cpuCases: 2, timeoutCases: 3 };
const VARIANTS: CoursePlan = { bail: false, variants: true, cpuCases: 2, timeoutCases: 3 };
const BAIL: CoursePlan = { bail: true, variants: false, cpuCases: 2, timeoutCases: 3 };

const caseRun = (name: string, o: Partial<CaseRun> = {}): CaseRun => ({
  name,
  outcome: { kind: 'results', results: [] },
  output: '',
  durationMs: 7,
  afterProbe: true,
  ...o,
});
const verdict = (name: string, status: 'pass' | 'fail', kind: 'mismatch' | 'timeout' | 'crash' = 'mismatch') =>
  ({
    name,
    status,
    durationMs: 7,
    ...(status === 'fail' ? { failure: { kind, message: 'differs' } } : {}),
  }) as unknown as CaseResult;

const A = caseRun('a');
const B = caseRun('b');
const V = caseRun('a~variant');
const outOfCpu = { outcome: { kind: 'cpu', cpuMs: 5000 } } as const;
const CPU_A = caseRun('a', outOfCpu);
const CPU_B = caseRun('b', outOfCpu);
const CPU_V = caseRun('a~variant', outOfCpu);
const pastDeadline = { outcome: { kind: 'timeout', timeoutMs: 10000 } } as const;
const LATE_A = caseRun('a', pastDeadline);
const LATE_B = caseRun('b', pastDeadline);
const LATE_C = caseRun('c', pastDeadline);
const late = (run: CaseRun) => judged(run, verdict(run.name, 'fail', 'timeout'));
const arrives = (run: CaseRun, variantOf?: string): CourseEvent => ({ type: 'run', run, variantOf });
const judged = (run: CaseRun, v: CaseResult | undefined, variantOf?: string): CourseEvent => ({
  type: 'judged',
  run,
  variantOf,
  verdict: v,
});
const judging: CourseEvent = { type: 'judging-ready' };
const reference: CourseEvent = { type: 'reference-ready' };
const batchesDone: CourseEvent = { type: 'batches-done' };
const abort: CourseEvent = { type: 'abort' };

const judge = (run: CaseRun, variantOf?: string): CourseEffect => ({ type: 'judge', run, variantOf });
const emit = (v: CaseResult, variantOf?: string): CourseEffect => ({ type: 'emit', verdict: v, variantOf });
const time = (run: CaseRun): CourseEffect => ({ type: 'time', name: run.name, ms: run.durationMs });

function drive(events: CourseEvent[], plan: CoursePlan): { state: CourseState; effects: CourseEffect[][] } {
  let [state, first] = startCourse(plan);
  const effects: CourseEffect[][] = [first];
  for (const event of events) {
    const [next, out] = step(state, event);
    state = next;
    effects.push(out);
  }
  return { state, effects };
}

describe('the course machine: when a run is judged', () => {
  it.each<[string, CourseEvent[], CoursePlan, CourseEffect[]]>([
    ['a run before the judging is ready waits', [arrives(A)], PLAIN, []],
    [
      'the judging ready: the cases without a snapshot, then every run that waited, in order',
      [arrives(A), arrives(B), judging],
      PLAIN,
      [{ type: 'no-snapshots' }, judge(A), judge(B)],
    ],
    ['a run after the judging is ready is judged at once', [judging, arrives(A)], PLAIN, [judge(A)]],
    ['a variant run before the reference’s results waits', [judging, arrives(V, 'a')], VARIANTS, []],
    [
      'a variant run that came before the judging waits on for the reference',
      [arrives(V, 'a'), arrives(A), judging],
      VARIANTS,
      [{ type: 'no-snapshots' }, judge(A)],
    ],
    [
      'the reference’s results judge the variant runs that waited',
      [judging, arrives(V, 'a'), reference],
      VARIANTS,
      [judge(V, 'a')],
    ],
    ['a case’s own run does not wait for the reference', [judging, arrives(A)], VARIANTS, [judge(A)]],
  ])('%s', (_, events, plan, last) => {
    expect(drive(events, plan).effects.at(-1)).toEqual(last);
  });
});

describe('the course machine: where a verdict goes', () => {
  it.each<[string, CourseEvent[], CoursePlan, CourseEffect[]]>([
    [
      'a pass is final, and its time kept',
      [judging, judged(A, verdict('a', 'pass'))],
      PLAIN,
      [time(A), emit(verdict('a', 'pass'))],
    ],
    [
      'a failure after the probe is judged again alone',
      [judging, judged(A, verdict('a', 'fail'))],
      PLAIN,
      [time(A), { type: 'suspect', verdict: verdict('a', 'fail') }],
    ],
    [
      'a failure that ran first in its process is final, and has no time of its own',
      [judging, judged(caseRun('a', { afterProbe: false }), verdict('a', 'fail'))],
      PLAIN,
      [emit(verdict('a', 'fail'))],
    ],
    [
      'a timeout is not run again',
      [judging, judged(A, verdict('a', 'fail', 'timeout'))],
      PLAIN,
      [time(A), emit(verdict('a', 'fail', 'timeout'))],
    ],
    [
      'a case out of CPU time is not run again',
      [judging, judged(caseRun('a', { outcome: { kind: 'cpu', cpuMs: 5000 } }), verdict('a', 'fail', 'crash'))],
      PLAIN,
      [time(A), emit(verdict('a', 'fail', 'crash'))],
    ],
    [
      'a variant the reference gave nothing for is unjudged, under its case’s name',
      [judging, reference, judged(V, undefined, 'a')],
      VARIANTS,
      [{ type: 'unjudged', name: 'a', variantOf: 'a' }],
    ],
    [
      '--bail: the first failure stops the batches',
      [judging, judged(A, verdict('a', 'fail'))],
      BAIL,
      [time(A), { type: 'suspect', verdict: verdict('a', 'fail') }, { type: 'stop' }],
    ],
    [
      '--bail: a second failure stops nothing more',
      [judging, judged(A, verdict('a', 'fail')), judged(B, verdict('b', 'fail'))],
      BAIL,
      [time(B), { type: 'suspect', verdict: verdict('b', 'fail') }],
    ],
    [
      '--bail: a pass stops nothing',
      [judging, judged(A, verdict('a', 'pass'))],
      BAIL,
      [time(A), emit(verdict('a', 'pass'))],
    ],
    [
      'runs out of CPU time: the one that makes cpuCases stops the batches',
      [judging, judged(CPU_A, verdict('a', 'fail', 'crash')), judged(CPU_B, verdict('b', 'fail', 'crash'))],
      PLAIN,
      [time(CPU_B), emit(verdict('b', 'fail', 'crash')), { type: 'stop' }],
    ],
    [
      'runs out of CPU time: one fewer than cpuCases stops nothing',
      [judging, judged(CPU_A, verdict('a', 'fail', 'crash'))],
      PLAIN,
      [time(CPU_A), emit(verdict('a', 'fail', 'crash'))],
    ],
    [
      'runs out of CPU time: a variant’s counts, and one the reference gave nothing for',
      [judging, reference, judged(CPU_V, undefined, 'a'), judged(CPU_B, verdict('b', 'fail', 'crash'))],
      VARIANTS,
      [time(CPU_B), emit(verdict('b', 'fail', 'crash')), { type: 'stop' }],
    ],
    [
      'runs out of CPU time: past cpuCases, stops nothing more',
      [
        judging,
        judged(CPU_A, verdict('a', 'fail', 'crash')),
        judged(CPU_B, verdict('b', 'fail', 'crash')),
        judged(CPU_V, verdict('a~variant', 'fail', 'crash'), 'a'),
      ],
      PLAIN,
      [emit(verdict('a~variant', 'fail', 'crash'), 'a')],
    ],
    [
      'runs past the deadline: the one that makes timeoutCases stops the batches',
      [judging, late(LATE_A), late(LATE_B), late(LATE_C)],
      PLAIN,
      [time(LATE_C), emit(verdict('c', 'fail', 'timeout')), { type: 'stop' }],
    ],
    [
      'runs past the deadline: one fewer than timeoutCases stops nothing',
      [judging, late(LATE_A), late(LATE_B)],
      PLAIN,
      [time(LATE_B), emit(verdict('b', 'fail', 'timeout'))],
    ],
    [
      'runs past the deadline: a run that ended otherwise first stops nothing (a program that hangs on some calls)',
      [judging, judged(A, verdict('a', 'pass')), late(LATE_B), late(LATE_C), late(caseRun('d', pastDeadline))],
      PLAIN,
      [time(caseRun('d', pastDeadline)), emit(verdict('d', 'fail', 'timeout'))],
    ],
    [
      'runs past the deadline and out of CPU time are counted apart',
      [judging, late(LATE_A), judged(CPU_B, verdict('b', 'fail', 'crash')), late(LATE_C)],
      PLAIN,
      [time(LATE_C), emit(verdict('c', 'fail', 'timeout'))],
    ],
    [
      'runs out of CPU time under --bail: the first failure has stopped the batches already',
      [judging, judged(CPU_A, verdict('a', 'fail', 'crash')), judged(CPU_B, verdict('b', 'fail', 'crash'))],
      BAIL,
      [time(CPU_B), emit(verdict('b', 'fail', 'crash'))],
    ],
  ])('%s', (_, events, plan, last) => {
    expect(drive(events, plan).effects.at(-1)).toEqual(last);
  });

  it('says the batches stopped for CPU time, and how many runs ran out of it', () => {
    const { state } = drive(
      [judging, judged(CPU_A, verdict('a', 'fail', 'crash')), judged(CPU_B, verdict('b', 'fail', 'crash'))],
      PLAIN,
    );
    expect([state.cpuStopped, state.outOfCpu, state.stopped]).toEqual([true, 2, true]);
    expect(drive([judging, judged(CPU_A, verdict('a', 'fail', 'crash'))], PLAIN).state.cpuStopped).toBe(false);
  });

  it('says the batches stopped for runs past their deadline, and how many there were', () => {
    const { state } = drive([judging, late(LATE_A), late(LATE_B), late(LATE_C)], PLAIN);
    expect([state.timeStopped, state.timedOut, state.cpuStopped, state.stopped]).toEqual([true, 3, false, true]);
  });
});

describe('the course machine: when the run is over', () => {
  it.each<[string, CourseEvent[], CoursePlan, CourseEffect[]]>([
    ['the batches done and the judging ready: finish', [judging, batchesDone], PLAIN, [{ type: 'finish' }]],
    [
      'the batches done before the judging: finish once it is ready',
      [batchesDone, judging],
      PLAIN,
      [{ type: 'no-snapshots' }, { type: 'finish' }],
    ],
    ['with variants, not before the reference’s results', [judging, batchesDone], VARIANTS, []],
    [
      'the reference’s results last: judge what waited, then finish',
      [judging, arrives(V, 'a'), batchesDone, reference],
      VARIANTS,
      [judge(V, 'a'), { type: 'finish' }],
    ],
    ['finishes once only', [judging, batchesDone, batchesDone], PLAIN, []],
    [
      'an abort stops the batches and the re-runs alone',
      [arrives(A), abort],
      PLAIN,
      [{ type: 'stop' }, { type: 'cancel' }],
    ],
    ['an abort during the clean-up, after another, does nothing more', [abort, abort], PLAIN, []],
    [
      'an abort after --bail stopped the batches still cancels the re-runs',
      [judging, judged(A, verdict('a', 'fail')), abort],
      BAIL,
      [{ type: 'stop' }, { type: 'cancel' }],
    ],
    [
      'the batches ended by an abort still finish the run (its caller throws the abort)',
      [judging, abort, batchesDone],
      PLAIN,
      [{ type: 'finish' }],
    ],
  ])('%s', (_, events, plan, last) => {
    expect(drive(events, plan).effects.at(-1)).toEqual(last);
  });

  it('is finishing once it has said finish', () => {
    expect(drive([judging, batchesDone], PLAIN).state.phase).toBe('finishing');
  });
});
