// Runs one program process: `node --import <tsx> program.ts dispatch -` in the course directory (or a warm standby
// that will import program.ts the same way), writing its cases to its stdin as JSON lines and reading result
// lines as they stream, and noting from its progress lines which call of a case is running. How it is confined
// (sandbox or process group, TMPDIR, environment) is program-process.ts's.
import { StringDecoder } from 'node:string_decoder';
import type { DriverMode } from '../../course/stages.ts';
import { LineSplitter } from './line-splitter.ts';
import { parseCallingLine } from './parse-result-line.ts';
import { startProcess, type Confinement, type ProgramProcess } from './program-process.ts';
import { TailBuffer } from './tail-buffer.ts';

export { tsxLoaderUrl } from './program-process.ts';

// A result line longer than this is not a result: the process is killed rather than buffered without end.
export const MAX_LINE_BYTES = 8 * 1024 * 1024;
// Characters of stderr (and stray stdout) kept per case.
export const MAX_OUTPUT_CHARS = 64 * 1024;
// Added to the timeout of a process's first line until its first call starts: loading program.ts and compiling the
// student's code takes under a second on an idle machine but several on a busy one, and that is not the case's fault.
export const STARTUP_ALLOWANCE_MS = 10_000;
// After the last expected line, how long the process may take to exit before it is killed.
const EXIT_GRACE_MS = 2000;
// After the process exits, how long to wait for output still in the pipes (a child that left the process
// group could hold them open forever).
const DRAIN_MS = 500;

// One result line: its 0-based position, its text, and what the program printed to stderr before it.
export type ProgramLine = { index: number; text: string; output: string; durationMs: number };

// The call a case was making when its process ended: its number (from 1, as its progress line said) and how
// long it had been running.
export type InFlight = { call: number; ms: number };

// How the process ended.
export type ProgramEnd =
  | { kind: 'exited'; code: number | null; signal: NodeJS.Signals | null }
  | { kind: 'timeout'; limitMs: number } // no line within limitMs (or no exit after the last line)
  | { kind: 'overflow' } // a line past MAX_LINE_BYTES
  | { kind: 'stopped' } // onLine said stop, or the run was aborted
  | { kind: 'spawn-failed'; message: string };

// The end, how many lines arrived, the output after the last of them, the call in flight (when a progress line
// came after the last result line), whether the process printed progress lines at all (a program.ts older than the
// grader prints none), and a warning when something of the process's temp space could not be removed.
export type ProgramResult = {
  end: ProgramEnd;
  lines: number;
  output: string;
  durationMs: number;
  calling?: InFlight;
  reportsCalls: boolean;
  warning?: string;
};

// One process to run: the course dir, its cases (one JSON object each, on one line), the per-case timeout, how it
// is confined, and who hears each line.
export type ProgramRun = {
  dir: string;
  // How program.ts runs the cases (`program.ts <mode> -`): the stage's driver mode, `dispatch` when absent.
  mode?: DriverMode;
  cases: string[];
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
  confinement: Confinement;
  signal?: AbortSignal;
  // Warm processes waiting for work (watch mode); a cold process is started when none is ready.
  standbys?: StandbySource;
  onLine: (line: ProgramLine) => 'continue' | 'stop';
};

// Where warm standby processes come from: each is taken once, for one batch, and never given back; only one
// started for the same directory, confined the same way (sandboxed or not) and waiting to run the same mode
// (`dispatch` when not named) is handed out.
export type StandbySource = {
  take: (dir: string, sandbox: boolean, mode?: DriverMode) => Promise<ProgramProcess | undefined>;
};

// Runs the program on its cases; settles once the process and everything it started are dead and its temp dir gone.
export async function runProgram(run: ProgramRun): Promise<ProgramResult> {
  const standby =
    run.signal?.aborted === true
      ? undefined
      : await run.standbys?.take(run.dir, run.confinement.sandbox, run.mode ?? 'dispatch');
  let proc: ProgramProcess;
  try {
    // Taken and not yet watched: an exit now would go unheard, so nothing may be awaited until watchProcess.
    proc =
      standby ??
      (await startProcess({
        dir: run.dir,
        env: run.env,
        args: ['program.ts', run.mode ?? 'dispatch', '-'],
        stdin: 'pipe',
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

function watchProcess(run: ProgramRun, proc: ProgramProcess): Promise<ProgramResult> {
  const { child, tmpSpellings } = proc;
  return new Promise((resolve) => {
    const output = new TailBuffer(MAX_OUTPUT_CHARS);
    const decoder = new StringDecoder('utf8');
    const splitter = new LineSplitter(MAX_LINE_BYTES);
    let lines = 0;
    let since = performance.now();
    // The call in flight: the last progress line since the last result line, and when it came.
    let calling: { call: number; at: number } | undefined;
    let called = false;
    let endedAt: number | undefined;
    let end: ProgramEnd | undefined;
    let exit: ProgramEnd | undefined;
    let open = 2;
    let timer: NodeJS.Timeout | undefined;
    let drain: NodeJS.Timeout | undefined;
    let settled = false;

    // The temp dir's path means nothing to a student and differs on every run.
    const take = (): string => tmpSpellings.reduce((text, p) => text.split(p).join('$TMPDIR'), output.take());
    const arm = (ms: number): void => {
      clearTimeout(timer);
      timer = setTimeout(() => stop({ kind: 'timeout', limitMs: ms }), ms);
    };
    const kill = (): void => proc.kill();
    const finish = (): void => {
      if (settled || exit === undefined || open > 0) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(drain);
      run.signal?.removeEventListener('abort', onAbort);
      child.stdout?.destroy();
      child.stderr?.destroy();
      const durationMs = performance.now() - since;
      const inFlight =
        calling === undefined
          ? {}
          : { calling: { call: calling.call, ms: (endedAt ?? performance.now()) - calling.at } };
      resolve({ end: end ?? exit, lines, output: take(), durationMs, reportsCalls: called, ...inFlight });
    };
    const stop = (why: ProgramEnd): void => {
      endedAt ??= performance.now();
      end ??= why;
      clearTimeout(timer);
      kill();
    };
    const onAbort = (): void => stop({ kind: 'stopped' });

    const onLine = (text: string): void => {
      if (lines >= run.cases.length) {
        output.push(`${text}\n`); // stray stdout after the last case: shown, not graded
        return;
      }
      const call = parseCallingLine(text);
      if (call !== undefined) {
        // Loaded, and into its first case: from here on the process's clock is that case's alone.
        if (!called && lines === 0) arm(run.timeoutMs);
        called = true;
        calling = { call, at: performance.now() };
        return;
      }
      const now = performance.now();
      const line = { index: lines, text, output: take(), durationMs: now - since };
      since = now;
      calling = undefined;
      lines += 1;
      arm(lines === run.cases.length ? Math.min(run.timeoutMs, EXIT_GRACE_MS) : run.timeoutMs);
      if (run.onLine(line) === 'stop') stop({ kind: 'stopped' });
    };

    // Once the process is being stopped its stdout is read and dropped: nothing more is graded.
    child.stdout?.on('data', (chunk: Buffer) => {
      if (end !== undefined) return;
      const { lines: complete, overflow } = splitter.push(chunk);
      for (const text of complete) if (end === undefined) onLine(text);
      if (overflow) stop({ kind: 'overflow' });
    });
    // Stderr is attributed by arrival: what came in before line k (and after line k-1) is case k's.
    child.stderr?.on('data', (chunk: Buffer) => output.push(decoder.write(chunk)));
    child.stdout?.on('end', () => {
      const last = splitter.flush();
      if (end === undefined && last !== undefined) onLine(last);
    });
    for (const stream of [child.stdout, child.stderr]) {
      stream?.on('close', () => {
        open -= 1;
        finish();
      });
    }
    void proc.spawnFailure.then((error) => {
      end ??= { kind: 'spawn-failed', message: error.message };
      exit = end;
      open = 0;
      finish();
    });
    child.on('exit', (code, signal) => {
      endedAt ??= performance.now();
      exit = { kind: 'exited', ...proc.exitOf(code, signal) };
      // Whatever it left running in its group goes with it.
      kill();
      drain = setTimeout(() => {
        open = 0;
        finish();
      }, DRAIN_MS);
      finish();
    });
    if (run.signal?.aborted) stop({ kind: 'stopped' });
    run.signal?.addEventListener('abort', onAbort, { once: true });
    arm(run.timeoutMs + STARTUP_ALLOWANCE_MS);
  });
}
