// The process pool: the selected cases split into batches, one program process per batch, at most `jobs` at
// once. A process that crashes, hangs or prints garbage mid-batch costs only the case in flight: it gets that
// verdict and the rest of its batch re-runs in a fresh process.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { dealBatches } from './deal-batches.ts';
import { parseResultLine } from './parse-result-line.ts';
import type { Confinement } from './program-process.ts';
import { MAX_LINE_BYTES, runProgram, STARTUP_ALLOWANCE_MS, type ProgramResult, type StandbySource } from './run-program.ts';

// A case as the pool knows it: a name to report and the case file whose object program.ts is given.
export type BatchCase = { name: string; file: string };

// What the program did with one case. `beforeAnyCase`: the process failed before its first case (it does not
// load, or prints something else first), so every case of its batch gets the same outcome.
export type CaseOutcome = (
  | { kind: 'results'; results: unknown[] }
  | { kind: 'bad-line'; reason: string }
  | { kind: 'exited'; code: number | null; signal: string | null }
  | { kind: 'timeout'; timeoutMs: number }
  | { kind: 'overflow'; limitBytes: number }
  | { kind: 'spawn-failed'; message: string }
) & { beforeAnyCase?: boolean };

// One case's outcome, its share of the output, and whether something ran before it in the same process.
export type CaseRun = { name: string; outcome: CaseOutcome; output: string; durationMs: number; shared: boolean };

// What the pool runs, where, and who hears each case's outcome.
export type PoolOptions = {
  dir: string;
  cases: BatchCase[];
  jobs: number;
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
  // Sandboxed or not, and the tsx cache the processes share (program-process.ts).
  confinement: Confinement;
  // Every case in a process of its own (the isolation re-runs).
  alone?: boolean;
  // Stops the pool: processes are killed and cases not yet run are never reported; runBatches still resolves.
  signal?: AbortSignal;
  // Warm processes to use before starting cold ones (watch mode, and a one-off run started early).
  standbys?: StandbySource;
  // How long each case took last time, by name: batches are then balanced to finish together (watch mode).
  expectedMs?: ReadonlyMap<string, number>;
  onCase: (run: CaseRun) => void;
  // Something of a process's temp space could not be removed (an immutable file): said once, never fatal.
  onWarning?: (warning: string) => void;
};

// A case with no calls, run first in every process that grades several cases: until its result line
// arrives nothing graded has run, so a failure before it is the program's, not any one case's.
const STARTUP_PROBE = fileURLToPath(new URL('./startup-probe.json', import.meta.url));

// Runs every case; resolves when all are reported (or the signal stopped the pool) and every process is gone.
export async function runBatches(options: PoolOptions): Promise<void> {
  const queue = options.alone === true ? options.cases.map((c) => [c]) : dealBatches(options.cases, options.jobs, options.expectedMs);
  const work = async (): Promise<void> => {
    for (let batch = queue.shift(); batch !== undefined; batch = queue.shift()) {
      if (options.signal?.aborted === true) return;
      const rest = await runBatch(batch, options);
      if (rest.length > 0) queue.unshift(rest);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.jobs, queue.length)) }, work));
}

// Runs one batch in one process; returns the cases still to run (after the case in flight failed).
async function runBatch(batch: BatchCase[], options: PoolOptions): Promise<BatchCase[]> {
  const probe = batch.length > 1;
  const offset = probe ? 1 : 0;
  let startupOutput = '';
  let startupFailure: string | undefined;
  let held: CaseRun | undefined;
  const result = await runProgram({
    dir: options.dir,
    cases: await Promise.all([...(probe ? [STARTUP_PROBE] : []), ...batch.map((c) => c.file)].map(caseLine)),
    timeoutMs: options.timeoutMs,
    env: options.env,
    confinement: options.confinement,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.standbys === undefined ? {} : { standbys: options.standbys }),
    onLine: (line) => {
      const parsed = parseResultLine(line.text);
      if (probe && line.index === 0) {
        // Output printed while loading belongs to the first case, as it would without the probe.
        startupOutput = line.output;
        if (!parsed.ok) startupFailure = parsed.reason;
        return parsed.ok ? 'continue' : 'stop';
      }
      const k = line.index - offset;
      const outcome: CaseOutcome = parsed.ok
        ? { kind: 'results', results: parsed.results }
        : { kind: 'bad-line', reason: parsed.reason };
      const output = (k === 0 ? startupOutput : '') + line.output;
      const run = { name: batch[k]!.name, outcome, output, durationMs: line.durationMs, shared: probe };
      // The last case waits for the exit: what the program prints after its last line is that case's too.
      if (k === batch.length - 1) held = run;
      else options.onCase(run);
      return parsed.ok ? 'continue' : 'stop';
    },
  });
  if (result.warning !== undefined) options.onWarning?.(result.warning);
  const judged = Math.max(0, result.lines - offset);
  if (held !== undefined) {
    options.onCase({ ...held, output: held.output + result.output });
    return [];
  }
  if (options.signal?.aborted === true) return [];
  const failedToStart = startupFailure !== undefined || (probe && result.lines === 0) || result.end.kind === 'spawn-failed';
  if (failedToStart) {
    const outcome: CaseOutcome =
      startupFailure !== undefined
        ? { kind: 'bad-line', reason: startupFailure, beforeAnyCase: true }
        : { ...endOutcome(result, options.timeoutMs), beforeAnyCase: true };
    const output = startupOutput + result.output;
    for (const c of batch) options.onCase({ name: c.name, outcome, output, durationMs: 0, shared: false });
    return [];
  }
  if (result.end.kind === 'stopped') return batch.slice(judged); // a bad line: its case is judged, go on
  const inFlight = batch[judged];
  if (inFlight === undefined) return [];
  const output = (judged === 0 ? startupOutput : '') + result.output;
  const outcome = endOutcome(result, options.timeoutMs);
  options.onCase({ name: inFlight.name, outcome, output, durationMs: result.durationMs, shared: probe });
  return batch.slice(judged + 1);
}

// A case file as the one line program.ts reads from stdin. JSON allows a line break only between tokens, so
// a file that is not JSON goes on one line too, and program.ts says what is wrong with it (the grader's own
// validation reports it as well, and stops the run).
async function caseLine(file: string): Promise<string> {
  const text = await readFile(file, 'utf8').catch((error: Error) => `(cannot read ${file}: ${error.message})`);
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text.replace(/[\r\n]+/g, ' ');
  }
}

function endOutcome(result: ProgramResult, timeoutMs: number): CaseOutcome {
  const end = result.end;
  switch (end.kind) {
    case 'exited':
      return { kind: 'exited', code: end.code, signal: end.signal };
    case 'timeout':
      // A process's first line also had the startup allowance.
      return { kind: 'timeout', timeoutMs: timeoutMs + (result.lines === 0 ? STARTUP_ALLOWANCE_MS : 0) };
    case 'overflow':
      return { kind: 'overflow', limitBytes: MAX_LINE_BYTES };
    case 'spawn-failed':
      return { kind: 'spawn-failed', message: end.message };
    case 'stopped':
      return { kind: 'exited', code: null, signal: 'SIGKILL' };
  }
}
