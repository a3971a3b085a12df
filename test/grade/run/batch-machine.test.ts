// One batch's lifetime, without a process: the probe, each case's line, the release timer, an abort and the
// process's end in every order that matters, each a row with what the batch reports, hands back and ends with.
import { describe, expect, it } from 'vitest';
import {
  RELEASE_AFTER_MS,
  RELEASE_FACTOR,
  startBatch,
  step,
  type BatchEffect,
  type BatchEvent,
  type BatchPlan,
  type BatchState,
  type CaseRun,
} from '../../../src/grade/run/batch-machine.ts';
import { MAX_RESULT_LINE_BYTES, type ProgramResult } from '../../../src/grade/run/program-machine.ts';

const cases = ['a', 'b', 'c'].map((name) => ({ name, file: `/cases/${name}.json` }));
const PLAN: BatchPlan = { cases, probe: true, timeoutMs: 10_000 };
const ALONE: BatchPlan = { cases: cases.slice(0, 1), probe: false, timeoutMs: 10_000 };
const OK = '{"results":[{"content":"1: A"}]}';

// Line `index` of the process (0 is the probe's when there is one), with the output before it.
const line = (index: number, text = OK, output = ''): BatchEvent => ({
  type: 'line',
  line: { index, text, output, durationMs: 7 },
});
const ended = (result: Partial<ProgramResult> & Pick<ProgramResult, 'end' | 'lines'>): BatchEvent => ({
  type: 'ended',
  result: { output: '', durationMs: 9, reportsCalls: true, ...result },
});
const exited = (lines: number, more: Partial<ProgramResult> = {}): BatchEvent =>
  ended({ end: { kind: 'exited', code: 0, signal: null }, lines, ...more });
const crashed = (lines: number, more: Partial<ProgramResult> = {}): BatchEvent =>
  ended({ end: { kind: 'exited', code: 3, signal: null }, lines, ...more });
const stopped = (lines: number, more: Partial<ProgramResult> = {}): BatchEvent =>
  ended({ end: { kind: 'stopped' }, lines, ...more });
const due = (allowed = true): BatchEvent => ({ type: 'release-due', allowed });
const abort: BatchEvent = { type: 'abort' };

function run(events: BatchEvent[], plan = PLAN): { state: BatchState; effects: BatchEffect[][] } {
  let [state, first] = startBatch(plan);
  const effects: BatchEffect[][] = [first];
  for (const event of events) {
    const [next, out] = step(state, event);
    state = next;
    effects.push(out);
  }
  return { state, effects };
}

// What the batch told its pool, in order: cases reported (name: outcome kind), hand-backs and its end.
function told(events: BatchEvent[], plan = PLAN): string[] {
  return run(events, plan)
    .effects.flat()
    .flatMap((e) => {
      if (e.type === 'report') return [`${e.run.name}: ${e.run.outcome.kind}`];
      if (e.type === 'hand-back') return [`hand back ${e.rest.map((c) => c.name).join(' ')}`];
      if (e.type === 'finish') {
        const end = e.end;
        return [
          end.kind === 'ran'
            ? `ran, rest: ${end.rest.map((c) => c.name).join(' ')}`
            : `not started: ${end.outcome.kind}`,
        ];
      }
      return [];
    });
}

// Every case run reported.
function reported(events: BatchEvent[], plan = PLAN): CaseRun[] {
  return run(events, plan)
    .effects.flat()
    .flatMap((e) => (e.type === 'report' ? [e.run] : []));
}

const release = (ms = RELEASE_AFTER_MS): BatchEffect => ({ type: 'arm-release', ms });
const disarm: BatchEffect = { type: 'disarm-release' };

describe('the batch machine: what it tells the pool', () => {
  it.each<[string, BatchEvent[], string[]]>([
    [
      'every case, the last once the process has ended',
      [line(0), line(1), line(2), line(3), exited(4)],
      ['a: results', 'b: results', 'c: results', 'ran, rest: '],
    ],
    [
      'the probe answers with a bad line: the program does not start',
      [line(0, 'debug'), stopped(1)],
      ['not started: bad-line'],
    ],
    ['the process dies before the probe answers', [crashed(0)], ['not started: exited']],
    [
      'the probe times out',
      [ended({ end: { kind: 'timeout', timeoutMs: 20_000 }, lines: 0 })],
      ['not started: timeout'],
    ],
    [
      'the process cannot be spawned',
      [ended({ end: { kind: 'spawn-failed', message: 'ENOENT' }, lines: 0 })],
      ['not started: spawn-failed'],
    ],
    [
      'a bad line mid-batch: its case has it, the rest goes back',
      [line(0), line(1, 'debug'), stopped(2)],
      ['a: bad-line', 'ran, rest: b c'],
    ],
    [
      'a bad line from the last case',
      [line(0), line(1), line(2), line(3, 'debug'), stopped(4)],
      ['a: results', 'b: results', 'c: bad-line', 'ran, rest: '],
    ],
    [
      'a crash mid-case: the case in flight has it, the rest goes back',
      [line(0), line(1), crashed(2)],
      ['a: results', 'b: exited', 'ran, rest: c'],
    ],
    [
      'a crash after the last line is no case',
      [line(0), line(1), line(2), line(3), crashed(4)],
      ['a: results', 'b: results', 'c: results', 'ran, rest: '],
    ],
    [
      'a flood in the first case',
      [line(0), ended({ end: { kind: 'overflow', limitBytes: MAX_RESULT_LINE_BYTES }, lines: 1 })],
      ['a: overflow', 'ran, rest: b c'],
    ],
    [
      'a slow case hands the rest back, then finishes alone',
      [line(0), line(1), due(), line(2), stopped(3)],
      ['a: results', 'hand back c', 'b: results', 'ran, rest: '],
    ],
    [
      'a slow case hands the rest back, then times out',
      [line(0), due(), ended({ end: { kind: 'timeout', timeoutMs: 10_000 }, lines: 1 })],
      ['hand back b c', 'a: timeout', 'ran, rest: '],
    ],
    ['the pool allows no more lingering processes: nothing is handed back', [line(0), due(false)], []],
    [
      'a release due while the last case is in flight is ignored',
      [line(0), line(1), line(2), due()],
      ['a: results', 'b: results'],
    ],
    [
      'a release due after a bad line is ignored',
      [line(0), line(1, 'debug'), due(), stopped(2)],
      ['a: bad-line', 'ran, rest: b c'],
    ],
    ['a release due after the end is ignored', [line(0), crashed(1), due()], ['a: exited', 'ran, rest: b c']],
    ['a release due before the probe answers is ignored', [due(), line(0), line(1)], ['a: results']],
    ['aborted: nothing more is reported', [line(0), line(1), abort, stopped(2)], ['a: results', 'ran, rest: ']],
    ['a line after an abort is ignored', [line(0), abort, line(1), stopped(2)], ['ran, rest: ']],
    [
      'an abort while the last case waits for the exit: the case is still reported',
      [line(0), line(1), line(2), line(3), abort, stopped(4)],
      ['a: results', 'b: results', 'c: results', 'ran, rest: '],
    ],
    ['an abort before the probe answers: no verdict', [abort, stopped(0)], ['ran, rest: ']],
  ])('%s', (_, events, expected) => {
    expect(told(events)).toEqual(expected);
  });

  it.each<[string, BatchEvent[], string[]]>([
    ['a case alone that passes', [line(0), exited(1)], ['a: results', 'ran, rest: ']],
    ["a case alone that crashes: its own outcome, not the program's", [crashed(0)], ['a: exited', 'ran, rest: ']],
    [
      'a case alone that cannot be spawned',
      [ended({ end: { kind: 'spawn-failed', message: 'ENOENT' }, lines: 0 })],
      ['not started: spawn-failed'],
    ],
  ])('without a probe: %s', (_, events, expected) => {
    expect(told(events, ALONE)).toEqual(expected);
  });
});

describe('the batch machine: the release timer and the process', () => {
  it.each<[string, BatchEvent[], BatchEffect[]]>([
    ['the probe answers: the program loads, and the first case is watched', [line(0)], [{ type: 'loaded' }, release()]],
    ['a bad probe line stops the process', [line(0, 'debug')], [{ type: 'stop' }]],
    [
      'each line watches the next case',
      [line(0), line(1)],
      [release(), { type: 'report', run: expect.objectContaining({ name: 'a' }) }],
    ],
    [
      'the last case is not watched, and waits for the exit',
      [line(0), line(1), line(2)],
      [disarm, { type: 'report', run: expect.objectContaining({ name: 'b' }) }],
    ],
    [
      'the last line of the whole batch lets the process exit on its own',
      [line(0), line(1), line(2), line(3)],
      [disarm],
    ],
    [
      'a bad line stops the process',
      [line(0), line(1, 'debug')],
      [disarm, { type: 'report', run: expect.objectContaining({ name: 'a' }) }, { type: 'stop' }],
    ],
    [
      'the pool says not yet: asked again at a quarter of the delay',
      [line(0), due(false)],
      [release(RELEASE_AFTER_MS / 4)],
    ],
    ["a lingering case's line stops its process", [line(0), due(), line(1)], [disarm, { type: 'stop' }]],
    ['an abort disarms the timer', [line(0), abort], [disarm]],
    [
      'the end disarms the timer',
      [line(0), crashed(1)],
      [disarm, expect.objectContaining({ type: 'report' }), expect.objectContaining({ type: 'finish' })],
    ],
  ])('%s', (_, events, last) => {
    expect(run(events).effects.at(-1)).toEqual(last);
  });

  it('says the program loads once, at the first result line when there is no probe', () => {
    const effects = run([line(0), exited(1)], ALONE).effects.flat();
    expect(effects.filter((e) => e.type === 'loaded')).toHaveLength(1);
    expect(
      run([crashed(0)], ALONE)
        .effects.flat()
        .filter((e) => e.type === 'loaded'),
    ).toEqual([]);
  });

  it('waits half the timeout, when that is shorter than the release delay', () => {
    expect(run([line(0)], { ...PLAN, timeoutMs: 300 }).effects.at(-1)).toContainEqual(release(150));
  });

  it.each<[string, number | undefined, number]>([
    ['a case with no expected time waits the release delay', undefined, RELEASE_AFTER_MS],
    ['a fast case waits the release delay all the same', 20, RELEASE_AFTER_MS],
    ['a slow case waits RELEASE_FACTOR times its expected time', 1000, RELEASE_FACTOR * 1000],
    ['a case whose delay would pass half the timeout waits half the timeout', 1300, 5000],
  ])('%s', (_, expectedMs, ms) => {
    const timed = cases.map((c) => (expectedMs === undefined ? c : { ...c, expectedMs }));
    // The second case is in flight once the first case's line is in.
    expect(run([line(0), line(1)], { ...PLAN, cases: timed }).effects.at(-1)).toContainEqual(release(ms));
  });

  it('asks a slow case again at a quarter of its own delay when the pool says not yet', () => {
    const timed = cases.map((c) => ({ ...c, expectedMs: 1000 }));
    expect(run([line(0), due(false)], { ...PLAN, cases: timed }).effects.at(-1)).toEqual([
      release((RELEASE_FACTOR * 1000) / 4),
    ]);
  });

  it('passes the warning of a temp dir it could not remove on', () => {
    expect(run([exited(0, { warning: 'left /tmp/x' })], ALONE).effects.at(-1)).toContainEqual({
      type: 'warn',
      warning: 'left /tmp/x',
    });
  });
});

describe('the batch machine: each outcome and its output', () => {
  it('gives the output printed while loading to the first case, and what follows its line to the last', () => {
    const runs = reported([
      line(0, OK, 'loading\n'),
      line(1, OK, 'in a\n'),
      line(2),
      line(3, OK, 'in c\n'),
      exited(4, { output: 'after c\n' }),
    ]);
    expect(runs.map((r) => [r.name, r.output, r.afterProbe])).toEqual([
      ['a', 'loading\nin a\n', true],
      ['b', '', true],
      ['c', 'in c\nafter c\n', true],
    ]);
  });

  it('gives a program that does not start its loading output and its end, before any case', () => {
    const [finish] = run([line(0, 'debug', 'loading\n'), stopped(1, { output: 'dying\n' })])
      .effects.at(-1)!
      .filter((e) => e.type === 'finish');
    expect(finish).toEqual({
      type: 'finish',
      end: {
        kind: 'not-started',
        outcome: { kind: 'bad-line', reason: 'printed a line that is not JSON: "debug"', beforeAnyCase: true },
        output: 'loading\ndying\n',
      },
    });
    const [died] = run([crashed(0, { output: 'SyntaxError\n' })])
      .effects.at(-1)!
      .filter((e) => e.type === 'finish');
    expect(died).toMatchObject({
      end: { outcome: { kind: 'exited', code: 3, signal: null, beforeAnyCase: true }, output: 'SyntaxError\n' },
    });
  });

  it.each<[string, Partial<ProgramResult>, unknown]>([
    ['the call in flight', { calling: { call: 2, ms: 40 } }, { call: 2, ms: 40 }],
    ['no call started, in a program that reports its calls', {}, 'none'],
    ['nothing known, in a program that reports no calls', { reportsCalls: false }, undefined],
  ])('names, for a crash, %s', (_, more, calling) => {
    const [run1] = reported([line(0), crashed(1, { output: 'boom\n', ...more })]);
    expect(run1).toEqual({
      name: 'a',
      outcome: { kind: 'exited', code: 3, signal: null, ...(calling === undefined ? {} : { calling }) },
      output: 'boom\n',
      durationMs: 9,
      afterProbe: true,
    });
  });

  it('names the call in flight for a timeout, never for a flood', () => {
    const timeout = ended({ end: { kind: 'timeout', timeoutMs: 10_000 }, lines: 1, calling: { call: 1, ms: 9000 } });
    const flood = ended({
      end: { kind: 'overflow', limitBytes: MAX_RESULT_LINE_BYTES },
      lines: 1,
      calling: { call: 1, ms: 9 },
    });
    expect(reported([line(0), timeout])[0]?.outcome).toEqual({
      kind: 'timeout',
      timeoutMs: 10_000,
      calling: { call: 1, ms: 9000 },
    });
    expect(reported([line(0), flood])[0]?.outcome).toEqual({ kind: 'overflow', limitBytes: MAX_RESULT_LINE_BYTES });
  });

  it("keeps the lingering case's output after its line, and its results", () => {
    const runs = reported([line(0), due(), line(1, OK, 'in a\n'), stopped(2, { output: 'after a\n' })]);
    expect(runs).toEqual([
      {
        name: 'a',
        outcome: { kind: 'results', results: [{ content: '1: A' }] },
        output: 'in a\nafter a\n',
        durationMs: 7,
        afterProbe: true,
      },
    ]);
  });
});
