// The process pool: the selected cases split into batches, one program process per batch, `jobs` of them working
// at once (run-batch.ts runs one). A process that crashes, hangs or prints garbage mid-batch costs only the case in
// flight; a case that runs long hands the rest of its batch back, so that hangs wait out their timeouts side by
// side; and a program that cannot start is found once: every case gets that verdict and no other process starts.
import type { DriverMode } from '../../course/stages.ts';
import type { Confinement } from './program-process.ts';
import type { CaseOutcome } from './case-outcome.ts';
import { runBatch, type BatchCase, type BatchEnd, type CaseRun } from './run-batch.ts';
import { dealBatches } from './deal-batches.ts';
import type { StandbySource } from './run-program.ts';

export type { BatchCase, CaseOutcome, CaseRun };

// How many processes per job may be left finishing one slow case each after handing their rest back: each waits
// out its case's timeout (a loop in it takes a core), so they are bounded.
export const LINGERING_PER_JOB = 4;

// What the pool runs, where, and who hears each case's outcome.
export type BatchesOptions = {
  dir: string;
  // How program.ts runs the cases: the stage's driver mode (`dispatch` when absent).
  mode?: DriverMode;
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
  // How many processes may be left finishing a slow case at once (LINGERING_PER_JOB × jobs when absent).
  maxLingering?: number;
  onCase: (run: CaseRun) => void;
  // What the probe observes, and who hears it (see BatchContext): carried by one process at a time until one has
  // answered, never by the re-runs alone.
  observe?: unknown;
  onObserved?: (observed: unknown) => void;
  // Something of a process's temp space could not be removed (an immutable file): said once, never fatal.
  onWarning?: (warning: string) => void;
};

// Runs every case; resolves when all are reported (or the signal stopped the pool) and every process is gone.
export async function runBatches(options: BatchesOptions): Promise<void> {
  const queue =
    options.alone === true
      ? options.cases.map((c) => [c])
      : dealBatches(options.cases, options.jobs, options.expectedMs);
  // A batch of one needs no probe when it is the whole run: its failure is the run's whichever way it fails.
  const probeEvery = options.alone !== true && queue.length > 1;
  const reported = new Set<string>();
  const onCase = (run: CaseRun): void => {
    if (reported.has(run.name)) return;
    reported.add(run.name);
    options.onCase(run);
  };
  // Until a process of this run has loaded the program, a failure before the first case is the program's.
  let loaded = false;
  let cannotStart = false;
  const starting = new Set<AbortController>();
  const lingering = new Set<Promise<void>>();
  // One process at a time carries the probe's request, until one has answered it: a run needs one observation,
  // and the others finish sooner without the probe.
  let observed = false;
  let observing = false;

  const notStarted = (end: Extract<BatchEnd, { kind: 'not-started' }>, batch: BatchCase[]): void => {
    const verdict = (c: BatchCase): CaseRun => ({
      name: c.name,
      outcome: end.outcome,
      output: end.output,
      durationMs: 0,
      afterProbe: false,
    });
    if (loaded) {
      // Another process loaded the very same program: this one's failure is its own batch's.
      for (const c of batch) onCase(verdict(c));
      return;
    }
    cannotStart = true;
    for (const c of options.cases) onCase(verdict(c));
    for (const controller of starting) controller.abort();
  };

  const work = async (): Promise<void> => {
    for (let batch = queue.shift(); batch !== undefined; batch = queue.shift()) {
      if (options.signal?.aborted === true || cannotStart) return;
      const own = new AbortController();
      starting.add(own);
      const carries = options.observe !== undefined && options.alone !== true && !observed && !observing;
      if (carries) observing = true;
      const onObserved = (o: unknown): void => {
        observed = true;
        options.onObserved?.(o);
      };
      const end = await runBatch(
        { dir: options.dir, cases: batch },
        {
          run: {
            ...(options.mode === undefined ? {} : { mode: options.mode }),
            timeoutMs: options.timeoutMs,
            env: options.env,
            confinement: options.confinement,
            signal: options.signal === undefined ? own.signal : AbortSignal.any([options.signal, own.signal]),
            ...(options.standbys === undefined ? {} : { standbys: options.standbys }),
          },
          probe: probeEvery || batch.length > 1,
          ...(carries ? { observe: options.observe, onObserved } : {}),
          onCase,
          onWarning: (warning) => options.onWarning?.(warning),
          onLoaded: () => {
            loaded = true;
            starting.delete(own);
          },
          mayRelease: () => lingering.size < (options.maxLingering ?? LINGERING_PER_JOB * options.jobs),
        },
      );
      starting.delete(own);
      if (carries) observing = false;
      if (end.kind === 'not-started') notStarted(end, batch);
      if (end.kind === 'released') {
        const gone: Promise<void> = end.lingering.finally(() => lingering.delete(gone));
        lingering.add(gone);
      }
      if (end.kind !== 'not-started' && end.rest.length > 0) queue.unshift(end.rest);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.jobs, queue.length)) }, work));
  await Promise.all([...lingering]);
}
