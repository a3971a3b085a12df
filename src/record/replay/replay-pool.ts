// Long-lived replay workers (src/record/replay/replay-worker.ts), each started the way every program process is
// (startProcess: its own process group and TMPDIR, killed and removed with it). A worker serves one owner at a
// time: a whole case (`replay`), or a session (`session`) in which a case is replayed call by call and the last
// call can be undone. The pool hands each request to an idle worker, starting one (up to `size`) when none is idle.
// A worker that dies, prints garbage or runs past its deadline is killed and the request fails with the reason;
// the next request starts a fresh worker.
import { fileURLToPath } from 'node:url';
import { LineSplitter } from '../../grade/run/line-splitter.ts';
import { openTsxCache, type TsxCache } from '../../grade/run/isolation/tsx-cache.ts';
import { startProcess, type ProgramProcess } from '../../grade/run/program-process.ts';
import { TailBuffer } from '../../grade/run/tail-buffer.ts';
import type { Call, FileSpec } from '../../course/types.ts';
import type { Replayed } from './verify-result.ts';

const sibling = (name: string): string =>
  fileURLToPath(new URL(import.meta.url.endsWith('.ts') ? `./${name}.ts` : `./${name}.js`, import.meta.url));
const WORKER = sibling('replay-worker');
// What the worker runs besides itself, bound into the sandbox with it.
const WORKER_FILES = [WORKER, sibling('replay-session'), sibling('sandbox-checkpoint')];
// A result line longer than this is not one: the worker is killed rather than buffered without end.
const MAX_REPLAY_LINE_BYTES = 64 * 1024 * 1024;
// Starting Node, tsx and the reference takes about half a second idle, several seconds on a loaded machine.
const STARTUP_MS = 20_000;
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

type Worker = {
  proc: ProgramProcess;
  busy: boolean;
  send: (request: unknown, deadlineMs: number) => Promise<Record<string, unknown>>;
};

// A pool of replay workers; close() kills them all.
export function replayPool(options: ReplayPoolOptions): ReplayPool {
  const workers = new Set<Worker>();
  const waiting: ((w: Worker) => void)[] = [];
  let closed = false;
  let closing: Promise<string[]> | undefined;
  // The workers compile the reference through a tsx cache of their own, made with the first worker: never one a
  // student's program has written.
  let cache: Promise<TsxCache> | undefined;
  const warnings: string[] = [];
  // The disposal of workers that died or failed mid-replay, waited for (and their warnings kept) by close.
  const failed: Promise<string | undefined>[] = [];

  const acquire = async (): Promise<Worker> => {
    for (const w of workers) if (!w.busy) return claim(w);
    if (workers.size < options.size) {
      cache ??= openTsxCache(options.env, options.sandbox);
      const started = await startWorker(options, (await cache).dir, (w, disposed) => {
        workers.delete(w);
        failed.push(disposed);
      });
      workers.add(started);
      return claim(started);
    }
    return new Promise((resolve) => waiting.push(resolve));
  };
  const claim = (w: Worker): Worker => {
    w.busy = true;
    return w;
  };
  const release = (w: Worker): void => {
    w.busy = false;
    const next = waiting.shift();
    if (next === undefined) return;
    if (workers.has(w)) next(claim(w));
    else void acquire().then(next);
  };

  const replayOn = async (worker: Worker, c: ReplayCase): Promise<ReplayRun> => {
    const deadline = STARTUP_MS + c.calls.length * (options.boundMs + PER_CALL_MS);
    const reply = await worker.send({ files: c.files, calls: c.calls, boundMs: options.boundMs }, deadline);
    if (typeof reply.error === 'string') throw new Error(reply.error);
    if (!Array.isArray(reply.results) || reply.results.length !== c.calls.length)
      throw new Error('the replay worker gave no result per call');
    return {
      results: reply.results as Replayed[],
      after: (reply.after ?? {}) as ReplayRun['after'],
      unchanged: (reply.unchanged ?? []) as number[],
      bashMs: (reply.bashMs ?? {}) as ReplayRun['bashMs'],
    };
  };

  const openSession = async (files: Record<string, FileSpec>): Promise<ReplaySession> => {
    if (closed) throw new Error('the replay pool is closed');
    const worker = await acquire();
    let opened = false;
    let ended = false;
    const step = STARTUP_MS + options.boundMs + PER_CALL_MS;
    return {
      call: async (call) => {
        const request = opened ? { session: 'call', call } : { session: 'open', files, call, boundMs: options.boundMs };
        const reply = await worker.send(request, step);
        if (typeof reply.error === 'string') throw new Error(reply.error);
        opened = true;
        return {
          result: (reply.result ?? {}) as Replayed,
          ...(reply.after === undefined ? {} : { after: reply.after as string | null }),
          unchanged: reply.unchanged === true,
          bashMs: typeof reply.bashMs === 'number' ? reply.bashMs : 0,
        };
      },
      undo: async () => (await worker.send({ session: 'undo' }, step)).undone === true,
      replay: (c) => replayOn(worker, c),
      close: async () => {
        if (ended) return;
        ended = true;
        try {
          if (opened) await worker.send({ session: 'close' }, step);
        } catch {
          // A worker that cannot close its case is gone already (its failure disposed of it).
        } finally {
          release(worker);
        }
      },
    };
  };

  return {
    replay: async (c) => {
      if (closed) throw new Error('the replay pool is closed');
      const worker = await acquire();
      try {
        return await replayOn(worker, c);
      } finally {
        release(worker);
      }
    },
    session: openSession,
    // Every caller waits for the same stop: the CLI must not exit (and SIGKILL what is left) while a worker is
    // still killing the commands it runs.
    close: () =>
      (closing ??= (async () => {
        closed = true;
        const all = [...workers];
        workers.clear();
        for (const warning of await Promise.all([...failed, ...all.map((w) => w.proc.dispose())]))
          if (warning !== undefined) warnings.push(warning);
        const removed = await (await cache)?.close();
        if (removed !== undefined) warnings.push(removed);
        return warnings;
      })()),
  };
}

// Starts a worker the way every program process starts (startProcess), so its kill takes down the commands it
// replays too: the PID namespace in the sandbox, the process tree found through /proc without it.
async function startWorker(
  options: ReplayPoolOptions,
  tsxCache: string | undefined,
  gone: (w: Worker, disposed: Promise<string | undefined>) => void,
): Promise<Worker> {
  const proc = await startProcess({
    dir: options.root,
    env: options.env,
    args: [WORKER],
    stdin: 'pipe',
    sandbox: options.sandbox,
    tsxCache,
    files: WORKER_FILES,
  });
  const splitter = new LineSplitter(MAX_REPLAY_LINE_BYTES);
  const stderr = new TailBuffer(4096);
  let pending: { resolve: (line: string) => void; reject: (e: Error) => void } | undefined;
  // Why the worker is gone, once it is: a request after that fails at once instead of waiting out its deadline.
  let dead: string | undefined;
  const send = (line: string, deadlineMs: number): Promise<string> =>
    new Promise<string>((resolve, reject) => {
      if (dead !== undefined) {
        reject(new Error(dead));
        return;
      }
      const timer = setTimeout(() => fail(`the replay did not finish within ${deadlineMs} ms`), deadlineMs);
      pending = {
        resolve: (l) => {
          clearTimeout(timer);
          resolve(l);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      };
      proc.child.stdin?.write(`${line}\n`);
    });
  const worker: Worker = {
    proc,
    busy: false,
    send: async (request, deadlineMs) => {
      const reply = JSON.parse(await send(JSON.stringify(request), deadlineMs)) as unknown;
      if (typeof reply !== 'object' || reply === null) throw new Error('the replay worker replied with no object');
      return reply as Record<string, unknown>;
    },
  };
  const fail = (why: string): void => {
    if (dead === undefined) gone(worker, proc.dispose());
    const detail = stderr.take().trim();
    const error = new Error(detail === '' ? why : `${why}: ${detail.split('\n').slice(-5).join(' / ')}`);
    dead ??= error.message;
    pending?.reject(error);
    pending = undefined;
  };
  proc.child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString('utf8')));
  proc.child.stdout?.on('data', (chunk: Buffer) => {
    const { lines, overflow } = splitter.push(chunk);
    if (overflow) return fail('the replay worker printed a line past its limit');
    for (const line of lines) {
      const p = pending;
      pending = undefined;
      p?.resolve(line);
    }
  });
  proc.child.on('exit', (code, signal) => fail(`the replay worker exited (${signal ?? `code ${code}`})`));
  void proc.spawnFailure.then((error) => fail(`the replay worker could not start: ${error.message}`));
  return worker;
}
