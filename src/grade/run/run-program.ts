// Runs one program process: `node --import <tsx> <the package's driver> dispatch -` in the course directory (or a warm
// standby that will run the driver the same way), writing its cases to its stdin as JSON lines and reading result
// lines as they stream. What each pipe event, exit and timer means is program-machine.ts's to decide; this file
// only turns them into events and carries out the effects. How the process is confined (sandbox or process group,
// TMPDIR, environment) is program-process.ts's.
import { StringDecoder } from 'node:string_decoder';
import { DEFAULT_MODE, type ModeName } from '../../modes/mode-table.ts';
import { driverEntry, driverFiles } from '../../modes/driver-files.ts';
import { driveMachine } from './drive-machine.ts';
import { LineSplitter } from './line-splitter.ts';
import {
  MAX_RESULT_LINE_BYTES,
  startProgram,
  step,
  takesLines,
  type ProgramEffect,
  type ProgramEvent,
  type ProgramLine,
  type ProgramResult,
  type ProgramTimer,
} from './program-machine.ts';
import { startProcess, type Confinement, type ProgramProcess } from './program-process.ts';
import { CASE_CPU_SECONDS } from './isolation/program-limits.ts';
import { treeCpuMs } from '../../process-table.ts';

export type { ProgramLine };

// One process to run: the course dir, its cases (one JSON object each, on one line), the per-case timeout, how it
// is confined, and who hears each line.
export type ProgramRun = {
  dir: string;
  // How the driver runs the cases (`<driver> <mode> -`): the stage's driver mode, `dispatch` when absent.
  mode?: ModeName;
  // A driver of the caller's own instead of the package's, by its path in the course directory: only the tests of
  // this machinery give one (a driver that misbehaves). The grader always runs its own install's.
  driver?: string;
  cases: string[];
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
  confinement: Confinement;
  signal?: AbortSignal;
  // Warm processes waiting for work (watch mode); a cold process is started when none is ready.
  standbys?: StandbySource;
  onLine: (line: ProgramLine) => 'continue' | 'stop';
  // The probe's observation, when the program prints one after its last result line (the mode's probe).
  onObserved?: (observed: unknown) => void;
};

// Where warm standby processes come from: each is taken once, for one batch, and never given back; only one
// started for the same directory, confined the same way (sandboxed or not) and waiting to run the same mode
// (`dispatch` when not named) is handed out.
export type StandbySource = {
  take: (dir: string, sandbox: boolean, mode?: ModeName) => Promise<ProgramProcess | undefined>;
};

// Runs the program on its cases; settles once the process and everything it started are dead and its temp dir gone.
export async function runProgram(run: ProgramRun): Promise<ProgramResult> {
  const standby =
    run.signal?.aborted === true || run.driver !== undefined
      ? undefined
      : await run.standbys?.take(run.dir, run.confinement.sandbox, run.mode ?? DEFAULT_MODE);
  let proc: ProgramProcess;
  try {
    // Taken and not yet watched: an exit now would go unheard, so nothing may be awaited until watchProcess.
    proc =
      standby ??
      (await startProcess({
        dir: run.dir,
        env: run.env,
        args: [run.driver ?? driverEntry(), run.mode ?? DEFAULT_MODE, '-'],
        stdin: 'pipe',
        files: driverFiles(),
        ...run.confinement,
      }));
  } catch (error) {
    return {
      end: { kind: 'spawn-failed', message: (error as Error).message },
      lines: 0,
      output: '',
      durationMs: 0,
      reportsCalls: false,
    };
  }
  let result: ProgramResult | undefined;
  try {
    // A standby has imported nothing of the course yet: it does so once its work arrives.
    proc.child.stdin?.end(run.cases.map((c) => `${c}\n`).join(''));
    result = await watchProcess(run, proc);
    return result;
  } finally {
    const warning = await proc.dispose();
    if (result !== undefined && warning !== undefined) result.warning = warning;
  }
}

// Carries out the machine's effects on the real process: the pipes become events, its timers are Node's.
function watchProcess(run: ProgramRun, proc: ProgramProcess): Promise<ProgramResult> {
  const { child } = proc;
  return new Promise((resolve) => {
    const decoder = new StringDecoder('utf8');
    const splitter = new LineSplitter(MAX_RESULT_LINE_BYTES);
    const timers = new Map<ProgramTimer, NodeJS.Timeout>();
    const plan = {
      cases: run.cases.length,
      timeoutMs: run.timeoutMs,
      cpuMs: CASE_CPU_SECONDS * 1000,
      tmpSpellings: proc.tmpSpellings,
    };
    // The sample timer is answered with the tree's CPU time, read from /proc; every other timer is an event.
    const fired = (timer: ProgramTimer): ProgramEvent =>
      timer === 'sample'
        ? { type: 'cpu', usedMs: child.pid === undefined ? 0 : treeCpuMs(child.pid), at: performance.now() }
        : { type: 'timer', timer, at: performance.now() };
    const perform = (effect: ProgramEffect): void => {
      switch (effect.type) {
        case 'arm':
          clearTimeout(timers.get(effect.timer));
          timers.set(
            effect.timer,
            setTimeout(() => dispatch(fired(effect.timer)), effect.ms),
          );
          return;
        case 'disarm':
          clearTimeout(timers.get(effect.timer));
          timers.delete(effect.timer);
          return;
        case 'kill':
          proc.kill();
          return;
        case 'observe':
          run.onObserved?.(effect.observed);
          return;
        case 'deliver':
          if (run.onLine(effect.line) === 'stop') dispatch({ type: 'stop', at: performance.now() });
          return;
        case 'settle':
          run.signal?.removeEventListener('abort', onAbort);
          child.stdout?.destroy();
          child.stderr?.destroy();
          resolve(effect.result);
          return;
      }
    };
    const machine = driveMachine(startProgram(plan, performance.now()), step, perform);
    const dispatch = machine.dispatch;
    const onAbort = (): void => dispatch({ type: 'stop', at: performance.now() });

    child.stdout?.on('data', (chunk: Buffer) => {
      if (!takesLines(machine.state())) return;
      const { lines, overflow } = splitter.push(chunk);
      for (const text of lines) dispatch({ type: 'line', text, at: performance.now() });
      if (overflow) dispatch({ type: 'overflow', at: performance.now() });
    });
    // Stderr is attributed by arrival: what came in before line k (and after line k-1) is case k's.
    child.stderr?.on('data', (chunk: Buffer) =>
      dispatch({ type: 'stderr', text: decoder.write(chunk), at: performance.now() }),
    );
    // A last line without its newline is still a line.
    child.stdout?.on('end', () => {
      const last = splitter.flush();
      if (last !== undefined) dispatch({ type: 'line', text: last, at: performance.now() });
    });
    child.stdout?.on('close', () => dispatch({ type: 'closed', stream: 'stdout', at: performance.now() }));
    child.stderr?.on('close', () => dispatch({ type: 'closed', stream: 'stderr', at: performance.now() }));
    void proc.spawnFailure.then((error) =>
      dispatch({ type: 'spawn-failed', message: error.message, at: performance.now() }),
    );
    child.on('exit', (code, signal) => dispatch({ type: 'exit', ...proc.exitOf(code, signal), at: performance.now() }));
    if (run.signal?.aborted) onAbort();
    run.signal?.addEventListener('abort', onAbort, { once: true });
  });
}
