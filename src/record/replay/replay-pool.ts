// Long-lived replay workers (worker-process.ts), each started and supervised the way every program process is:
// the grader's program machine decides when a request ran past its deadline, when a worker printed garbage and
// when it died. A worker serves one owner at a time: a whole case (`replay`), or a session (`session`) in which a
// case is replayed call by call and the last call can be undone. The pool hands each request to an idle worker,
// starting one (up to `size`) when none is idle. A worker that failed is dropped and the request fails with the
// reason; the next request starts a fresh worker.
import { openTsxCache, type TsxCache } from '../../grade/run/isolation/tsx-cache.ts';
import type { Call, FileSpec } from '../../course/types.ts';
import type { Replayed } from './verify-result.ts';
import { startWorker, type WorkerProcess } from './worker-process.ts';

// What one request may take beyond its calls' time: making its sandbox and seeding it, on a loaded machine. A
// worker's first request has the machine's startup allowance on top (Node, tsx and the reference loading).
const REQUEST_SLACK_MS = 20_000;
// Beyond its Bash bound, what one call may take (a view of a big file, a glob over many).
const PER_CALL_MS = 2_000;

// What to replay: a seed and calls.
export type ReplayCase = { files: Record<string, FileSpec>; calls: Call[] };

// One replay: a result per call, the text of each written file right after its call, the Bash calls that left
// the sandbox as they found it, and how long each Bash call took (ms).
export type ReplayRun = {
  results: Replayed[];
  after: Record<number, string | null>;
  unchanged: number[];
  bashMs: Record<number, number>;
};

// One call replayed in a session: its result, the written file's text after it, whether a Bash call left the
// sandbox as it was and how long it took.
export type ReplayStep = { result: Replayed; after?: string | null; unchanged: boolean; bashMs: number };

// A case replayed call by call on one worker, held until `close`. `undo` puts the sandbox back as it was before the
// last call (false when it cannot: the sandbox could not be saved); `replay` runs a whole other case on the same
// worker meanwhile.
export type ReplaySession = {
  call: (call: Call) => Promise<ReplayStep>;
  undo: () => Promise<boolean>;
  replay: (c: ReplayCase) => Promise<ReplayRun>;
  close: () => Promise<void>;
};

// The pool. `close` resolves to what the user should know (a temp dir that could not be removed).
export type ReplayPool = {
  replay: (c: ReplayCase) => Promise<ReplayRun>;
  session: (files: Record<string, FileSpec>) => Promise<ReplaySession>;
  close: () => Promise<string[]>;
};

// What the pool starts: the reference's package root, the environment, whether the workers are sandboxed (the
// command's --isolation decision), how many workers, the Bash bound.
export type ReplayPoolOptions = {
  root: string;
  env: NodeJS.ProcessEnv;
  sandbox: boolean;
  size: number;
  boundMs: number;
};

type Worker = { process: WorkerProcess; busy: boolean };

// The pool's workers and who waits for one. `starting`: workers being started, counted against `size`. `failed`:
// the disposal of workers that died or failed mid-replay, waited for (and their warnings kept) by close.
type Pool = {
  options: ReplayPoolOptions;
  workers: Set<Worker>;
  starting: Set<Promise<unknown>>;
  waiting: { resolve: (w: Worker) => void; reject: (e: unknown) => void }[];
  closed: boolean;
  closing: Promise<string[]> | undefined;
  // The workers compile the reference through a tsx cache of their own, made with the first worker: never one a
  // student's program has written.
  cache: Promise<TsxCache> | undefined;
  failed: Promise<string | undefined>[];
};

// A pool of replay workers; close() stops them all.
export function replayPool(options: ReplayPoolOptions): ReplayPool {
  const pool: Pool = {
    options,
    workers: new Set(),
    starting: new Set(),
    waiting: [],
    closed: false,
    closing: undefined,
    cache: undefined,
    failed: [],
  };
  return {
    replay: (c) => withWorker(pool, (worker) => replayOn(pool, worker, c)),
    session: (files) => openSession(pool, files),
    // Every caller waits for the same stop: the CLI must not exit (and SIGKILL what is left) while a worker is
    // still killing the commands it runs.
    close: () => (pool.closing ??= closePool(pool)),
  };
}

// Runs `work` on a worker of its own, then gives the worker back.
async function withWorker<T>(pool: Pool, work: (worker: Worker) => Promise<T>): Promise<T> {
  const worker = await acquire(pool);
  try {
    return await work(worker);
  } finally {
    release(pool, worker);
  }
}

// An idle worker, a new one while the pool has room, or the next one given back.
async function acquire(pool: Pool): Promise<Worker> {
  if (pool.closed) throw new Error('the replay pool is closed');
  for (const w of pool.workers) if (!w.busy) return claim(w);
  if (pool.workers.size + pool.starting.size < pool.options.size) return claim(await addWorker(pool));
  return new Promise((resolve, reject) => pool.waiting.push({ resolve, reject }));
}

function claim(worker: Worker): Worker {
  worker.busy = true;
  return worker;
}

// Gives a worker back: to the next in line, or (if it is gone) a fresh one to them.
function release(pool: Pool, worker: Worker): void {
  worker.busy = false;
  const next = pool.waiting.shift();
  if (next === undefined) return;
  if (pool.workers.has(worker)) next.resolve(claim(worker));
  else acquire(pool).then(next.resolve, next.reject);
}

// Starts a worker into the pool, counted against its size while it starts.
async function addWorker(pool: Pool): Promise<Worker> {
  const adding = startInto(pool);
  pool.starting.add(adding);
  try {
    return await adding;
  } finally {
    pool.starting.delete(adding);
  }
}

// Once a worker is gone it leaves the pool, its disposal kept for close; one that started after close is stopped.
async function startInto(pool: Pool): Promise<Worker> {
  const { root, env, sandbox } = pool.options;
  pool.cache ??= openTsxCache(env, sandbox);
  const started = await startWorker({ root, env, sandbox, tsxCache: (await pool.cache).dir });
  if (pool.closed) {
    pool.failed.push(started.close());
    throw new Error('the replay pool is closed');
  }
  const worker: Worker = { process: started, busy: false };
  pool.workers.add(worker);
  void started.gone.then(() => {
    if (pool.workers.delete(worker)) pool.failed.push(started.disposed);
  });
  return worker;
}

// One whole case on `worker`, its deadline made of its calls' bounds.
async function replayOn(pool: Pool, worker: Worker, c: ReplayCase): Promise<ReplayRun> {
  const { boundMs } = pool.options;
  const deadline = REQUEST_SLACK_MS + c.calls.length * (boundMs + PER_CALL_MS);
  const reply = await worker.process.ask({ files: c.files, calls: c.calls, boundMs }, deadline);
  if (typeof reply.error === 'string') throw new Error(reply.error);
  if (!Array.isArray(reply.results) || reply.results.length !== c.calls.length)
    throw new Error('the replay worker gave no result per call');
  return {
    results: reply.results as Replayed[],
    after: (reply.after ?? {}) as ReplayRun['after'],
    unchanged: (reply.unchanged ?? []) as number[],
    bashMs: (reply.bashMs ?? {}) as ReplayRun['bashMs'],
  };
}

// A session on a worker of its own until it is closed: its first call opens the case on the worker.
async function openSession(pool: Pool, files: Record<string, FileSpec>): Promise<ReplaySession> {
  const worker = await acquire(pool);
  const { boundMs } = pool.options;
  let opened = false;
  let ended = false;
  const deadline = REQUEST_SLACK_MS + boundMs + PER_CALL_MS;
  const ask = (request: unknown) => worker.process.ask(request, deadline);
  return {
    call: async (call) => {
      const reply = await ask(opened ? { session: 'call', call } : { session: 'open', files, call, boundMs });
      if (typeof reply.error === 'string') throw new Error(reply.error);
      opened = true;
      return {
        result: (reply.result ?? {}) as Replayed,
        ...(reply.after === undefined ? {} : { after: reply.after as string | null }),
        unchanged: reply.unchanged === true,
        bashMs: typeof reply.bashMs === 'number' ? reply.bashMs : 0,
      };
    },
    undo: async () => (await ask({ session: 'undo' })).undone === true,
    replay: (c) => replayOn(pool, worker, c),
    close: async () => {
      if (ended) return;
      ended = true;
      try {
        if (opened) await ask({ session: 'close' });
      } catch {
        // A worker that cannot close its case is gone already (and has left the pool).
      } finally {
        release(pool, worker);
      }
    },
  };
}

// Stops every worker (those starting too) and removes the tsx cache; resolves to what could not be removed.
async function closePool(pool: Pool): Promise<string[]> {
  pool.closed = true;
  for (const waiter of pool.waiting.splice(0)) waiter.reject(new Error('the replay pool is closed'));
  await Promise.allSettled([...pool.starting]);
  const all = [...pool.workers];
  pool.workers.clear();
  const warnings: string[] = [];
  for (const warning of await Promise.all([...pool.failed, ...all.map((w) => w.process.close())]))
    if (warning !== undefined) warnings.push(warning);
  const removed = await (await pool.cache?.catch(() => undefined))?.close();
  if (removed !== undefined) warnings.push(removed);
  return warnings;
}
