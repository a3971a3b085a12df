// Supervises one started process with the program machine (program-machine.ts): its pipes, its exit and a failed
// spawn become events, the machine's timers are Node's, its CPU samples are read from /proc, and the machine's
// `deliver`, `observe` and `settle` go to the caller. The grader's program processes (run-program.ts) and the
// recorder's replay workers (src/record/replay/worker-process.ts) both run under it, so when a process has missed
// its deadline, printed garbage or died is decided in one place for both.
import { StringDecoder } from 'node:string_decoder';
import { treeUsage } from '../../process-table.ts';
import { driveMachine } from './drive-machine.ts';
import { stalledMs } from './event-loop-stalls.ts';
import type { ChannelLimit } from './channel-server.ts';
import { LineSplitter } from './line-splitter.ts';
import {
  MAX_RESULT_LINE_BYTES,
  type ProgramEffect,
  type ProgramEvent,
  type ProgramLine,
  type ProgramPlan,
  type ProgramResult,
  type ProgramTimer,
  startProgram,
  step,
  takesLines,
} from './program-machine.ts';
import type { ProgramProcess } from './program-process.ts';

// Time the grader's loop lost while a timer ran, past which the timer is armed again for that time.
const GIVE_BACK_FROM_MS = 100;

// Arms `timer` for `ms` in `timers` (one handle a timer, the last armed), calling `fire` when it is heard.
// A timer that fires while output waits unread (a busy grader's event loop runs expired timers before it polls the
// pipes) is heard after that output: so a process that printed its last line and exited is not taken for one that
// exited without it, nor a line that came in time for one that came late. A timer that fires late, the grader's own
// event loop blocked meanwhile (another submission's channel traffic in a class, a starved machine), gives the time
// it lost back before it is heard: a deadline counts only time in which the grader could have heard this process,
// so no one else's load spends it.
function armTimer(timers: Map<ProgramTimer, NodeJS.Timeout>, timer: ProgramTimer, ms: number, fire: () => void): void {
  clearTimeout(timers.get(timer));
  const from = stalledMs();
  const handle: NodeJS.Timeout = setTimeout(() => {
    const lost = stalledMs() - from;
    if (timer !== 'sample' && lost > GIVE_BACK_FROM_MS) return armTimer(timers, timer, lost, fire);
    setImmediate(() => {
      if (timers.get(timer) === handle) fire();
    });
  }, ms);
  timers.set(timer, handle);
}

// Result lines, their overflow, the process's exit and its pipes closing, heard at the end of the event loop's turn
// in which they came (`later`), in the order they came, after every chunk of output read in that turn. The program
// writes its output before the line that follows it (Node's stderr is synchronous on a pipe), but a grader whose
// loop was held up (a loaded machine, a class's other submissions) reads both pipes, or the channel and a pipe, in
// one turn, in the order they first became readable: a channel that was readable since a case's first call is read
// before the stderr that call wrote, and the case's result would be heard before its output, which the next case
// would show. A timer heard in that turn hears what is waiting first (`flush`), as a line read before it would have
// been. Output that came turns apart is told apart; output coalesced with several lines in one turn is all the first's.
function hearLater(): { later: (hear: () => void) => void; flush: () => void } {
  const waiting: Array<() => void> = [];
  const flush = (): void => {
    for (const hear of waiting.splice(0)) hear();
  };
  return {
    later: (hear) => {
      if (waiting.push(hear) === 1) setImmediate(flush);
    },
    flush,
  };
}

// Who hears the process: each line the machine delivers (the answer `stop` kills the process) and the probe's
// observation.
export type SupervisionHooks = {
  onLine: (line: ProgramLine) => 'continue' | 'stop';
  onObserved?: (observed: unknown) => void;
};

// A supervised process: a server's next line of work is asked for with `request` (after its line was written to
// stdin), `stop` kills it, and `settled` resolves once it is dead and its pipes are closed (or drained).
export type Supervision = {
  request: (timeoutMs: number) => void;
  // A line of the grader's own making (its channel's: channel-server.ts), taken as a stdout line would be.
  line: (text: string) => void;
  // The channel heard a line past the line limit, taken as such a line on stdout would be, or the channel carried
  // more than its limit in all.
  overflow: (limit?: ChannelLimit) => void;
  stop: () => void;
  settled: Promise<ProgramResult>;
};

// Supervises `proc` under `plan` (its spellings are filled in from the process).
// `source`: where its lines come from, its stdout or (`channel`) the grader's channel only, its stdout then shown
// as output like its stderr.
export function superviseProcess(
  proc: ProgramProcess,
  plan: Omit<ProgramPlan, 'spellings'>,
  hooks: SupervisionHooks,
  source: 'stdout' | 'channel' = 'stdout',
): Supervision {
  const { child } = proc;
  let settle: (result: ProgramResult) => void = () => {};
  const settled = new Promise<ProgramResult>((resolve) => (settle = resolve));
  const decoder = new StringDecoder('utf8');
  const splitter = new LineSplitter(plan.maxLineBytes ?? MAX_RESULT_LINE_BYTES);
  const timers = new Map<ProgramTimer, NodeJS.Timeout>();
  const heard = hearLater();
  // The sample timer is answered with the tree's CPU time and memory, read from /proc; every other timer is an event.
  const fired = (timer: ProgramTimer): ProgramEvent => {
    if (timer !== 'sample') return { type: 'timer', timer, at: performance.now() };
    const used = child.pid === undefined ? { cpuMs: 0, heldBytes: 0 } : treeUsage(child.pid);
    return { type: 'cpu', usedMs: used.cpuMs, heldBytes: used.heldBytes, at: performance.now() };
  };
  const perform = (effect: ProgramEffect): void => {
    switch (effect.type) {
      case 'arm':
        armTimer(timers, effect.timer, effect.ms, () => {
          heard.flush();
          dispatch(fired(effect.timer));
        });
        return;
      case 'disarm':
        clearTimeout(timers.get(effect.timer));
        timers.delete(effect.timer);
        return;
      case 'kill':
        proc.kill();
        return;
      case 'observe':
        hooks.onObserved?.(effect.observed);
        return;
      case 'deliver':
        if (hooks.onLine(effect.line) === 'stop') dispatch({ type: 'stop', at: performance.now() });
        return;
      case 'settle':
        for (const timer of timers.values()) clearTimeout(timer);
        child.stdout?.destroy();
        child.stderr?.destroy();
        settle(effect.result);
        return;
    }
  };
  const machine = driveMachine(startProgram({ ...plan, spellings: proc.spellings }, performance.now()), step, perform);
  const dispatch = machine.dispatch;

  const outputDecoder = new StringDecoder('utf8');
  child.stdout?.on('data', (chunk: Buffer) => {
    if (source === 'channel')
      return dispatch({ type: 'stderr', text: outputDecoder.write(chunk), at: performance.now() });
    if (!takesLines(machine.state())) return;
    const { lines, overflow } = splitter.push(chunk);
    for (const text of lines) heard.later(() => dispatch({ type: 'line', text, at: performance.now() }));
    if (overflow) heard.later(() => dispatch({ type: 'overflow', at: performance.now() }));
  });
  // Stderr is attributed by arrival: what came in before line k (and after line k-1) is line k's.
  child.stderr?.on('data', (chunk: Buffer) =>
    dispatch({ type: 'stderr', text: decoder.write(chunk), at: performance.now() }),
  );
  // A last line without its newline is still a line.
  child.stdout?.on('end', () => {
    if (source === 'channel') return;
    const last = splitter.flush();
    if (last !== undefined) heard.later(() => dispatch({ type: 'line', text: last, at: performance.now() }));
  });
  child.stdout?.on('close', () =>
    heard.later(() => dispatch({ type: 'closed', stream: 'stdout', at: performance.now() })),
  );
  child.stderr?.on('close', () =>
    heard.later(() => dispatch({ type: 'closed', stream: 'stderr', at: performance.now() })),
  );
  void proc.spawnFailure.then((error) =>
    dispatch({ type: 'spawn-failed', message: error.message, at: performance.now() }),
  );
  child.on('exit', (code, signal) =>
    heard.later(() => dispatch({ type: 'exit', ...proc.exitOf(code, signal), at: performance.now() })),
  );
  return {
    request: (timeoutMs) => dispatch({ type: 'request', timeoutMs, at: performance.now() }),
    line: (text) =>
      heard.later(() => {
        if (takesLines(machine.state())) dispatch({ type: 'line', text, at: performance.now() });
      }),
    overflow: (limit) =>
      heard.later(() => {
        if (!takesLines(machine.state())) return;
        dispatch({ type: 'overflow', at: performance.now(), ...overflowOf(limit) });
      }),
    stop: () => dispatch({ type: 'stop', at: performance.now() }),
    settled,
  };
}

// The channel's limit as the program machine's overflow event says it (none: a line past its limit on stdout).
function overflowOf(limit: ChannelLimit | undefined): {
  channelBytes?: number;
  channelValues?: number;
  channelUnread?: number;
} {
  if (limit === undefined) return {};
  if ('bytes' in limit) return { channelBytes: limit.bytes };
  return 'values' in limit ? { channelValues: limit.values } : { channelUnread: limit.unread };
}
