// The process pool: the selected cases split into batches, one program process per batch, `jobs` of them working
// at once (run-batch.ts runs one). A process that crashes, hangs or prints garbage mid-batch costs only the case in
// flight; a case that runs long hands the rest of its batch back, so that hangs wait out their timeouts side by
// side; and a program that cannot start is found once: every case gets that verdict and no other process starts.
import type { Confinement } from './program-process.ts';
import type { CaseOutcome } from './case-outcome.ts';
import { runBatch, type BatchCase, type CaseRun } from './run-batch.ts';
import { dealBatches } from './deal-batches.ts';
import { driveMachine } from './drive-machine.ts';
import { mayRelease, startPool, step, type PoolEffect, type PoolPlan } from './pool-machine.ts';
import type { StandbySource } from './run-program.ts';

export type { BatchCase, CaseOutcome, CaseRun };

// How many processes per job may be left finishing one slow case each after handing their rest back: each waits
// out its case's timeout (a loop in it takes a core), so they are bounded.
const LINGERING_PER_JOB = 4;

// What the pool runs, where, and who hears each case's outcome.
type BatchesOptions = {
  dir: string;
  // The stage whose cases these are, which the driver runs them as (run-program.ts `stage`).
  stage?: string;
  // A driver of the caller's own (run-program.ts `driver`): tests of the machinery only.
  driver?: string | undefined;
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
  const signal = options.signal;
  if (signal?.aborted === true) return;
  const alone = options.alone === true;
  const plan: PoolPlan = {
    cases: options.cases,
    batches: alone ? options.cases.map((c) => [c]) : dealBatches(options.cases, options.jobs, options.expectedMs),
    jobs: Math.max(1, options.jobs),
    alone,
    observe: options.observe !== undefined,
    maxLingering: options.maxLingering ?? LINGERING_PER_JOB * options.jobs,
  };
  const controllers = new Map<number, AbortController>();
  await new Promise<void>((resolve, reject) => {
    const start = (effect: Extract<PoolEffect, { type: 'start' }>): void => {
      const own = new AbortController();
      controllers.set(effect.batch, own);
      const id = effect.batch;
      void runBatch(
        { dir: options.dir, cases: effect.cases },
        {
          run: {
            ...(options.stage === undefined ? {} : { stage: options.stage }),
            ...(options.driver === undefined ? {} : { driver: options.driver }),
            timeoutMs: options.timeoutMs,
            env: options.env,
            confinement: options.confinement,
            signal: own.signal,
            ...(options.standbys === undefined ? {} : { standbys: options.standbys }),
          },
          probe: effect.probe,
          ...(effect.observe
            ? { observe: options.observe, onObserved: (observed) => pool.dispatch({ type: 'observed', observed }) }
            : {}),
          onCase: (run) => pool.dispatch({ type: 'case', run }),
          onWarning: (warning) => options.onWarning?.(warning),
          onLoaded: () => pool.dispatch({ type: 'loaded', batch: id }),
          mayRelease: () => mayRelease(pool.state()),
        },
      ).then((end) => {
        if (end.kind !== 'released') {
          controllers.delete(id);
          return pool.dispatch({ type: 'ended', batch: id, end });
        }
        pool.dispatch({ type: 'ended', batch: id, end: { kind: 'released', rest: end.rest } });
        end.lingering.then(() => {
          controllers.delete(id);
          pool.dispatch({ type: 'lingered', batch: id });
        }, reject);
      }, reject);
    };
    const perform = (effect: PoolEffect): void => {
      switch (effect.type) {
        case 'start':
          return start(effect);
        case 'report':
          return options.onCase(effect.run);
        case 'observed':
          return options.onObserved?.(effect.observed);
        case 'stop':
          return controllers.get(effect.batch)?.abort();
        case 'done':
          signal?.removeEventListener('abort', onAbort);
          return resolve();
      }
    };
    const onAbort = (): void => pool.dispatch({ type: 'abort' });
    const pool = driveMachine(startPool(plan), step, perform);
    if (pool.state().phase !== 'done') signal?.addEventListener('abort', onAbort, { once: true });
  });
}
