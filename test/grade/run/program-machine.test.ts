// One program process's lifetime, without a process: every interleaving of its lines, stderr, pipes closing, exit,
// timers and the grader's stop is a row, with the effects of its last event (and, where it settles, the result).
import { describe, expect, it } from 'vitest';
import {
  CPU_SAMPLE_MS,
  DRAIN_MS,
  EXIT_GRACE_MS,
  MAX_RESULT_LINE_BYTES,
  STARTUP_ALLOWANCE_MS,
  startProgram,
  step,
  takesLines,
  type ProgramEffect,
  type ProgramEvent,
  type ProgramPlan,
  type ProgramResult,
  type ProgramState,
} from '../../../src/grade/run/program-machine.ts';

const TIMEOUT = 1000;
const CPU = 5000;
const PLAN: ProgramPlan = {
  cases: 2,
  timeoutMs: TIMEOUT,
  cpuMs: CPU,
  spellings: [{ path: '/tmp/run-1/tmp', shown: '$TMPDIR' }],
};

// The events of one process, each at its time (ms after the start at 0).
const result = (at: number, text = '{"results":[]}'): ProgramEvent => ({ type: 'line', text, at });
const calling = (call: number, at: number): ProgramEvent => ({
  type: 'line',
  text: JSON.stringify({ calling: { call, of: 3, tool: 'echo' } }),
  at,
});
const stderr = (text: string, at = 0): ProgramEvent => ({ type: 'stderr', text, at });
const exit = (at: number, code: number | null = 0, signal: string | null = null): ProgramEvent => ({
  type: 'exit',
  code,
  signal,
  at,
});
const closed = (at: number): ProgramEvent[] => [
  { type: 'closed', stream: 'stdout', at },
  { type: 'closed', stream: 'stderr', at },
];
const deadline = (at: number): ProgramEvent => ({ type: 'timer', timer: 'deadline', at });
const drain = (at: number): ProgramEvent => ({ type: 'timer', timer: 'drain', at });
const stop = (at: number): ProgramEvent => ({ type: 'stop', at });
const overflow = (at: number): ProgramEvent => ({ type: 'overflow', at });

function run(events: ProgramEvent[], plan = PLAN): { state: ProgramState; effects: ProgramEffect[][] } {
  let [state, first] = startProgram(plan, 0);
  const effects: ProgramEffect[][] = [first];
  for (const event of events) {
    const [next, out] = step(state, event);
    state = next;
    effects.push(out);
  }
  return { state, effects };
}

// The result a run settled with (it must settle exactly once).
function settled(events: ProgramEvent[], plan = PLAN): ProgramResult {
  const settles = run(events, plan)
    .effects.flat()
    .filter((e) => e.type === 'settle');
  expect(settles).toHaveLength(1);
  return (settles[0] as Extract<ProgramEffect, { type: 'settle' }>).result;
}

const arm = (ms: number): ProgramEffect => ({ type: 'arm', timer: 'deadline', ms });
const deliver = (index: number, output: string, durationMs: number): ProgramEffect => ({
  type: 'deliver',
  line: { index, text: '{"results":[]}', output, durationMs },
});
const kill: ProgramEffect = { type: 'kill' };
const disarm: ProgramEffect = { type: 'disarm', timer: 'deadline' };
const sample: ProgramEffect = { type: 'arm', timer: 'sample', ms: CPU_SAMPLE_MS };
const unsample: ProgramEffect = { type: 'disarm', timer: 'sample' };
const cpu = (usedMs: number, at: number): ProgramEvent => ({ type: 'cpu', usedMs, at });

describe('the program machine: CPU time', () => {
  it.each<[string, ProgramEvent[], ProgramEffect[]]>([
    ['a sample within the budget samples again', [cpu(CPU, 250)], [sample]],
    ['a sample past the budget stops the process', [cpu(CPU + 1, 250)], [disarm, unsample, kill]],
    [
      'loading is not the first case’s: its budget starts at its first call',
      [cpu(3000, 250), calling(1, 300), cpu(3000 + CPU, 500)],
      [sample],
    ],
    [
      '…and is past it once the case has used the budget',
      [cpu(3000, 250), calling(1, 300), cpu(3001 + CPU, 500)],
      [disarm, unsample, kill],
    ],
    ['each result line starts the next case’s budget', [cpu(4000, 250), result(300), cpu(4000 + CPU, 500)], [sample]],
    [
      'what still runs from an earlier case counts against the case in flight',
      [result(100), cpu(CPU + 1, 900)],
      [disarm, unsample, kill],
    ],
    [
      'a reading lower than the last (a process between its end and its reaping) is not a new start',
      [result(100), cpu(4000, 200), cpu(100, 300), cpu(CPU + 1, 400)],
      [disarm, unsample, kill],
    ],
    ['a sample after the exit is ignored', [exit(50), cpu(CPU * 2, 60)], []],
    ['a sample after a stop is ignored', [stop(50), cpu(CPU * 2, 60)], []],
  ])('%s', (_, events, last) => {
    expect(run(events).effects.at(-1)).toEqual(last);
  });

  it('ends the case in flight as out of CPU time, with the budget and the call it was making', () => {
    const events = [
      calling(1, 100),
      result(200),
      calling(2, 300),
      cpu(CPU + 1, 900),
      exit(950, null, 'SIGKILL'),
      ...closed(960),
    ];
    expect(settled(events)).toMatchObject({
      end: { kind: 'cpu', cpuMs: CPU },
      lines: 1,
      calling: { call: 2, ms: 600 },
    });
  });
});

describe('the program machine: memory for the whole tree', () => {
  const MIB = 1024 * 1024;
  const held = (bytes: number, at: number): ProgramEvent => ({ type: 'cpu', usedMs: 0, heldBytes: bytes, at });
  const limited = { ...PLAN, memoryMiB: 256 };

  it.each<[string, ProgramEvent[], ProgramEffect[]]>([
    ['a tree holding the limit samples again', [held(256 * MIB, 250)], [sample]],
    ['a tree holding past the limit is ended', [held(256 * MIB + 1, 250)], [disarm, unsample, kill]],
    ['…while it loads, before any case', [held(600 * MIB, 250)], [disarm, unsample, kill]],
    ['…mid-case too', [calling(1, 100), result(200), held(300 * MIB, 450)], [disarm, unsample, kill]],
  ])('%s', (_, events, last) => {
    expect(run(events, limited).effects.at(-1)).toEqual(last);
  });

  it('ends the process as out of memory, with the limit and what the tree held', () => {
    const events = [held(607 * MIB, 250), exit(260, null, 'SIGKILL'), ...closed(270)];
    expect(settled(events, limited).end).toEqual({ kind: 'memory', memoryMiB: 256, heldMiB: 607 });
  });

  it('holds no limit for a plan without one', () => {
    expect(run([held(4096 * MIB, 250)]).effects.at(-1)).toEqual([sample]);
  });
});

describe('the program machine: timers', () => {
  it.each<[string, ProgramEvent[], ProgramEffect[]]>([
    [
      'the first line has the timeout plus the startup allowance, and the CPU sampling starts',
      [],
      [arm(TIMEOUT + STARTUP_ALLOWANCE_MS), sample],
    ],
    ['the first call of the first case ends the allowance', [calling(1, 300)], [arm(TIMEOUT)]],
    ['a later call does not move the deadline', [calling(1, 300), calling(2, 400)], []],
    ['a call after the first result line does not move the deadline', [result(100), calling(1, 300)], []],
    ['each result line restarts the clock', [result(100)], [arm(TIMEOUT), deliver(0, '', 100)]],
    [
      'after the last expected line, the exit grace (or the timeout, if shorter)',
      [result(100), result(250)],
      [arm(Math.min(TIMEOUT, EXIT_GRACE_MS)), deliver(1, '', 150)],
    ],
    ['the deadline kills the process', [deadline(11_000)], [disarm, unsample, kill]],
    [
      'once exited, the deadline and the sampling are off and the drain is on',
      [exit(50)],
      [disarm, unsample, kill, { type: 'arm', timer: 'drain', ms: DRAIN_MS }],
    ],
    ['a deadline firing after the exit is ignored', [exit(50), deadline(60)], []],
    ['a deadline firing after a stop is ignored', [stop(50), deadline(60)], []],
    ['a line after the exit (still in the pipe) arms nothing', [exit(50), result(60)], [deliver(0, '', 60)]],
    ['a drain timer before the exit is ignored', [drain(50)], []],
  ])('%s', (_, events, last) => {
    expect(run(events).effects.at(-1)).toEqual(last);
  });

  it("times a process's first case from its first call, not from the process's start", () => {
    const delivered = run([calling(1, 5800), result(5830), result(5900)]).effects.flat();
    const times = delivered.flatMap((e) => (e.type === 'deliver' ? [e.line.durationMs] : []));
    expect(times).toEqual([30, 70]);
  });

  it('reports a timeout with the limit it had, and the call in flight until the kill', () => {
    const end = settled([result(100), calling(2, 200), deadline(1100), exit(1150), ...closed(1160)]);
    expect(end).toEqual({
      end: { kind: 'timeout', timeoutMs: TIMEOUT },
      lines: 1,
      output: '',
      durationMs: 1060,
      reportsCalls: true,
      calling: { call: 2, ms: 900 },
    });
  });

  it('reports the startup allowance as the limit of a process that never printed a line', () => {
    expect(settled([deadline(11_000), exit(11_010), ...closed(11_010)]).end).toEqual({
      kind: 'timeout',
      timeoutMs: TIMEOUT + STARTUP_ALLOWANCE_MS,
    });
  });

  it('reports an exit grace that ran out as a timeout of that length', () => {
    const long = { ...PLAN, timeoutMs: 5000 };
    expect(settled([result(10), result(20), deadline(2020), exit(2030), ...closed(2030)], long).end).toEqual({
      kind: 'timeout',
      timeoutMs: EXIT_GRACE_MS,
    });
  });
});

describe('the program machine: how it ends', () => {
  it.each<[string, ProgramEvent[], Partial<ProgramResult>]>([
    [
      'exits after its lines',
      [result(10), result(20), exit(30), ...closed(31)],
      { end: { kind: 'exited', code: 0, signal: null }, lines: 2 },
    ],
    [
      'exits before its last stdout line is read: the line still counts',
      [result(10), exit(20), result(21), ...closed(22)],
      { end: { kind: 'exited', code: 0, signal: null }, lines: 2 },
    ],
    [
      'pipes close before the exit: settles at the exit',
      [result(10), ...closed(15), exit(20)],
      { lines: 1, durationMs: 10 },
    ],
    [
      'a child holds the pipes: the drain gives up on them',
      [result(10), result(20), exit(30), drain(530)],
      { end: { kind: 'exited', code: 0, signal: null }, durationMs: 510 },
    ],
    [
      'crashes in a call',
      [calling(1, 5), exit(45, 3), ...closed(45)],
      { end: { kind: 'exited', code: 3, signal: null } },
    ],
    [
      'is killed by a signal',
      [exit(45, null, 'SIGTERM'), ...closed(45)],
      { end: { kind: 'exited', code: null, signal: 'SIGTERM' } },
    ],
    [
      'floods stdout: killed at once, what follows is dropped',
      [result(10), overflow(20), result(21), exit(30), ...closed(30)],
      { end: { kind: 'overflow', limitBytes: MAX_RESULT_LINE_BYTES }, lines: 1 },
    ],
    [
      "its channel's messages past their JSON values: killed as the channel's overflow",
      [result(10), { type: 'overflow', at: 20, channelValues: 1000 }, result(21), exit(30), ...closed(30)],
      { end: { kind: 'overflow', limitValues: 1000, channel: true }, lines: 1 },
    ],
    [
      "its channel's answers left unread past their bound: killed as the channel's overflow, said apart",
      [result(10), { type: 'overflow', at: 20, channelUnread: 4096 }, result(21), exit(30), ...closed(30)],
      { end: { kind: 'overflow', limitUnread: 4096, channel: true }, lines: 1 },
    ],
    [
      'stopped by the batch (or an abort): lines after it are dropped',
      [result(10), stop(11), result(12), exit(20), ...closed(20)],
      { end: { kind: 'stopped' }, lines: 1 },
    ],
    [
      'stopped while draining (a bad line read after the exit): stopped',
      [exit(10), result(11), stop(11), ...closed(12)],
      { end: { kind: 'stopped' }, lines: 1 },
    ],
    [
      'the first reason wins: a flood, then a stop',
      [overflow(5), stop(6), exit(7), ...closed(7)],
      { end: { kind: 'overflow', limitBytes: MAX_RESULT_LINE_BYTES } },
    ],
    [
      'a timeout, then an abort',
      [deadline(11_000), stop(11_001), exit(11_002), ...closed(11_002)],
      { end: { kind: 'timeout', timeoutMs: 11_000 } },
    ],
    [
      'a spawn failure settles at once',
      [{ type: 'spawn-failed', message: 'ENOENT', at: 1 }],
      { end: { kind: 'spawn-failed', message: 'ENOENT' }, lines: 0 },
    ],
    [
      'a spawn failure after an abort is the stop',
      [stop(0), { type: 'spawn-failed', message: 'ENOENT', at: 1 }],
      { end: { kind: 'stopped' } },
    ],
    ['no progress lines: reportsCalls is false', [result(10), exit(20), ...closed(20)], { reportsCalls: false }],
  ])('%s', (_, events, expected) => {
    expect(settled(events)).toMatchObject(expected);
  });

  it('knows no call in flight once the case has printed its results', () => {
    expect(settled([calling(1, 5), result(10), exit(20), ...closed(20)])).not.toHaveProperty('calling');
  });

  it('measures the call in flight up to the exit, not the settle', () => {
    expect(settled([calling(1, 5), exit(45, 3), drain(545)]).calling).toEqual({ call: 1, ms: 40 });
  });

  it('settles once: events after it change nothing', () => {
    const { state, effects } = run([exit(10), ...closed(10), result(11), stop(12), exit(13), drain(14)]);
    expect([state.phase, effects.slice(-4)]).toEqual(['done', [[], [], [], []]]);
  });

  it('stops reading stdout once stopped, and not before', () => {
    expect([run([result(1)]).state, run([stop(1)]).state, run([exit(1)]).state].map(takesLines)).toEqual([
      true,
      false,
      true,
    ]);
  });
});

describe('the program machine: output', () => {
  it('gives each result line the stderr since the previous one, the rest to the end, temp paths hidden', () => {
    const events = [
      stderr('loading /tmp/run-1/tmp/x\n'),
      result(10),
      stderr('before 1\n'),
      result(20),
      stderr('after the last\n'),
      exit(30),
      ...closed(30),
    ];
    const delivered = run(events)
      .effects.flat()
      .flatMap((e) => (e.type === 'deliver' ? [e.line.output] : []));
    expect(delivered).toEqual(['loading $TMPDIR/x\n', 'before 1\n']);
    expect(settled(events).output).toBe('after the last\n');
  });

  it('shows stray stdout after the last case as output, and grades it not', () => {
    const events = [
      result(10),
      result(20),
      { type: 'line', text: 'bye', at: 21 } as ProgramEvent,
      exit(30),
      ...closed(30),
    ];
    expect(settled(events)).toMatchObject({ lines: 2, output: 'bye\n' });
  });

  it("hands the probe's observation after the last case on, neither graded nor shown as output", () => {
    const events = [
      result(10),
      result(20),
      { type: 'line', text: '{"observed":[{"calls":[]}]}', at: 21 } as ProgramEvent,
      exit(30),
      ...closed(30),
    ];
    const observed = run(events)
      .effects.flat()
      .flatMap((e) => (e.type === 'observe' ? [e.observed] : []));
    expect(observed).toEqual([[{ calls: [] }]]);
    expect(settled(events)).toMatchObject({ lines: 2, output: '' });
  });

  it('keeps stderr that arrives after a stop, for the case in flight', () => {
    expect(settled([stop(5), stderr('dying words\n'), exit(6), ...closed(6)]).output).toBe('dying words\n');
  });
});

// A server (the recorder's replay worker): given its work a line at a time, each with its own timeout, and idle
// in between. No CPU budget here: it is never sampled.
describe('the program machine: a server', () => {
  const SERVER: ProgramPlan = { cases: 0, timeoutMs: 0, spellings: [], serves: true, maxLineBytes: 64 };
  const request = (timeoutMs: number, at: number): ProgramEvent => ({ type: 'request', timeoutMs, at });

  it.each<[string, ProgramEvent[], ProgramEffect[]]>([
    ['starts with no deadline and, without a budget, no sampling', [], []],
    [
      'its first request has its timeout plus the startup allowance',
      [request(300, 5)],
      [arm(300 + STARTUP_ALLOWANCE_MS)],
    ],
    ['its answer leaves it idle, with no deadline', [request(300, 5), result(50)], [disarm, deliver(0, '', 45)]],
    ['a later request has its own timeout alone', [request(300, 5), result(50), request(700, 900)], [arm(700)]],
    ['a request while one is in flight waits its turn', [request(300, 5), request(700, 6)], []],
    [
      '…and has its timeout once the one before is answered',
      [request(300, 5), request(700, 6), result(50)],
      [arm(700), deliver(0, '', 45)],
    ],
    ['a line while idle is stray output, not an answer', [request(300, 5), result(50), result(60)], []],
    ['a request after a stop is not taken', [stop(5), request(300, 6)], []],
    ['a request after the exit is not taken', [exit(5), request(300, 6)], []],
    ['a line past its own limit stops it', [request(300, 5), overflow(10)], [disarm, unsample, kill]],
    ['a CPU reading without a budget changes nothing', [request(300, 5), cpu(1_000_000, 10)], []],
  ])('%s', (_, events, last) => {
    expect(run(events, SERVER).effects.at(-1)).toEqual(last);
  });

  it('times an answer from its request, not from the idle time before it', () => {
    const delivered = run([request(300, 5), result(50), request(300, 1000), result(1040)], SERVER).effects.flat();
    expect(delivered.flatMap((e) => (e.type === 'deliver' ? [e.line.durationMs] : []))).toEqual([45, 40]);
  });

  it('reports a missed deadline with the request’s own timeout', () => {
    const events = [request(300, 5), result(50), request(700, 900), deadline(1600), exit(1610, null, 'SIGKILL')];
    expect(settled([...events, ...closed(1610)], SERVER)).toMatchObject({
      end: { kind: 'timeout', timeoutMs: 700 },
      lines: 1,
    });
  });

  it('reports a line past its limit with the plan’s limit', () => {
    const events = [request(300, 5), overflow(10), exit(20, null, 'SIGKILL'), ...closed(20)];
    expect(settled(events, SERVER).end).toEqual({ kind: 'overflow', limitBytes: 64 });
  });

  it('stopped while idle, settles as stopped with what it printed since its last answer', () => {
    const events = [request(300, 5), result(50), stderr('idle words\n', 60), stop(70), exit(80), ...closed(80)];
    expect(settled(events, SERVER)).toMatchObject({ end: { kind: 'stopped' }, lines: 1, output: 'idle words\n' });
  });

  it('dies while idle: settles with its exit', () => {
    const events = [request(300, 5), result(50), exit(90, 3), ...closed(90)];
    expect(settled(events, SERVER).end).toEqual({ kind: 'exited', code: 3, signal: null });
  });
});
