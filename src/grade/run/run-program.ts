// Runs one program process: `node --import <tsx> <the package's driver> <mode> --stage <slug> -` in the course
// directory (or a warm standby that will run the driver the same way). A mode that serves its cases (every mode of
// the course: src/modes/<mode>/serve.ts) gets a line on stdin that says go and asks for its cases over its channel,
// whose answers make the lines the grader reads; a driver of a test's own gets its cases on stdin as JSON lines and
// streams its result lines on stdout. What each line, pipe event, exit and timer means is program-machine.ts's to
// decide, and supervise-process.ts turns them into its events and carries out its effects. How the process is
// confined (sandbox or process group, TMPDIR, environment) is program-process.ts's.
import { aspectExport, aspectUrl, hasAspect, type ModeName } from '../../modes/mode-table.ts';
import type { ModeServe } from './channel-server.ts';
import { driverArgs, driverEntry, driverFiles, driverMode } from '../../modes/driver-files.ts';
import type { ProgramLine, ProgramResult } from './program-machine.ts';
import { startProcess, type Confinement, type ProgramProcess } from './program-process.ts';
import { CASE_CPU_SECONDS, programLimits } from './isolation/program-limits.ts';
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

// Whether mode `mode` keeps its evidence in the grader: its folder has a serve aspect, so its processes are started
// with a channel, their batch stays here and no line of their stdout is a result (channel-server.ts).
export function keepsEvidence(mode: ModeName): boolean {
  return hasAspect(mode, 'serve');
}

// The serve aspect of `mode`, when it has one.
async function serveOf(mode: ModeName): Promise<ModeServe | undefined> {
  if (!keepsEvidence(mode)) return undefined;
  return aspectExport<ModeServe>(await import(aspectUrl(mode, 'serve').href), mode, 'serve', 'serve');
}

// Runs the program on its cases; settles once the process and everything it started are dead and its temp dir gone.
export async function runProgram(run: ProgramRun): Promise<ProgramResult> {
  // A driver of a test's own speaks the line protocol on stdout, whose lines go through the same supervision as
  // the channel's (the tests of that machinery); the package's driver of a mode that serves uses the channel.
  const serve = run.driver === undefined ? await serveOf(driverMode(run.stage)) : undefined;
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
        ...(serve === undefined ? {} : { channel: true }),
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
    result = await watchProcess(run, proc, serve);
    return result;
  } finally {
    const warning = await proc.dispose();
    if (result !== undefined && warning !== undefined) result.warning = warning;
  }
}

// Supervises the process (supervise-process.ts) until it settles, and gives it its work: the cases on stdin or,
// for a mode that serves them (`serve`), a line on stdin that says go, and each case on its channel as it asks;
// the run's abort stops it.
async function watchProcess(
  run: ProgramRun,
  proc: ProgramProcess,
  serve: ModeServe | undefined,
): Promise<ProgramResult> {
  const plan = {
    cases: run.cases.length,
    timeoutMs: run.timeoutMs,
    cpuMs: CASE_CPU_SECONDS * 1000,
    memoryMiB: programLimits(run.env, run.confinement.sandbox).memoryMiB,
  };
  const channel = serve === undefined ? undefined : proc.channel;
  const hooks = { onLine: run.onLine, ...(run.onObserved === undefined ? {} : { onObserved: run.onObserved }) };
  const supervision = superviseProcess(proc, plan, hooks, channel === undefined ? 'stdout' : 'channel');
  if (serve !== undefined && channel === undefined) {
    // A process without a channel cannot be given a mode's cases that stay in the grader.
    supervision.stop();
  } else if (serve !== undefined && channel !== undefined) {
    channel.attach(serve.open(run.cases, supervision.line), (limit) => supervision.overflow(limit));
  }
  // A standby has imported nothing of the course yet: it does so once its work arrives.
  proc.child.stdin?.end(serve === undefined ? run.cases.map((c) => `${c}\n`).join('') : '\n');
  const onAbort = (): void => supervision.stop();
  if (run.signal?.aborted) onAbort();
  run.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await supervision.settled;
  } finally {
    run.signal?.removeEventListener('abort', onAbort);
  }
}
