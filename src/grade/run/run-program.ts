// Runs one program process: `node --import <tsx> <the package's driver> <mode> --stage <slug> -` in the course directory (or a warm
// standby that will run the driver the same way), writing its cases to its stdin as JSON lines and reading result
// lines as they stream. What each pipe event, exit and timer means is program-machine.ts's to decide, and
// supervise-process.ts turns them into its events and carries out its effects. How the process is confined
// (sandbox or process group, TMPDIR, environment) is program-process.ts's.
import { driverArgs, driverEntry, driverFiles } from '../../modes/driver-files.ts';
import type { ProgramLine, ProgramResult } from './program-machine.ts';
import { startProcess, type Confinement, type ProgramProcess } from './program-process.ts';
import { CASE_CPU_SECONDS } from './isolation/program-limits.ts';
import { superviseProcess } from './supervise-process.ts';

export type { ProgramLine };

// One process to run: the course dir, its cases (one JSON object each, on one line), the per-case timeout, how it
// is confined, and who hears each line.
export type ProgramRun = {
  dir: string;
  // The stage whose cases these are: the driver runs them in its mode, on the module its row names
  // (`<driver> <mode> --stage <slug> -`); in the default mode when absent or not a stage of the course.
  stage?: string;
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
// started for the same directory, confined the same way (sandboxed or not) and waiting to run the same stage
// (none named: the default mode's first) is handed out.
export type StandbySource = {
  take: (dir: string, sandbox: boolean, stage?: string) => Promise<ProgramProcess | undefined>;
};

// Runs the program on its cases; settles once the process and everything it started are dead and its temp dir gone.
export async function runProgram(run: ProgramRun): Promise<ProgramResult> {
  const standby =
    run.signal?.aborted === true || run.driver !== undefined
      ? undefined
      : await run.standbys?.take(run.dir, run.confinement.sandbox, run.stage);
  let proc: ProgramProcess;
  try {
    // Taken and not yet watched: an exit now would go unheard, so nothing may be awaited until watchProcess.
    proc =
      standby ??
      (await startProcess({
        dir: run.dir,
        env: run.env,
        args: [run.driver ?? driverEntry(), ...driverArgs(run.stage), '-'],
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

// Supervises the process (supervise-process.ts) until it settles; the run's abort stops it.
async function watchProcess(run: ProgramRun, proc: ProgramProcess): Promise<ProgramResult> {
  const plan = { cases: run.cases.length, timeoutMs: run.timeoutMs, cpuMs: CASE_CPU_SECONDS * 1000 };
  const supervision = superviseProcess(proc, plan, {
    onLine: run.onLine,
    ...(run.onObserved === undefined ? {} : { onObserved: run.onObserved }),
  });
  const onAbort = (): void => supervision.stop();
  if (run.signal?.aborted) onAbort();
  run.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await supervision.settled;
  } finally {
    run.signal?.removeEventListener('abort', onAbort);
  }
}
