// Long-lived replay workers (src/record/replay/replay-worker.ts), each started the way every program process is
// (startProcess: its own process group and TMPDIR, killed and removed with it). A worker serves one case at a
// time; the pool hands each request to an idle worker, starting one (up to `size`) when none is idle. A worker
// that dies, prints garbage or runs past its deadline is killed and the request fails with the reason; the next
// request starts a fresh worker.
import { fileURLToPath } from 'node:url';
import { LineSplitter } from '../../grade/run/line-splitter.ts';
import { openTsxCache, type TsxCache } from '../../grade/run/isolation/tsx-cache.ts';
import { startProcess, type ProgramProcess } from '../../grade/run/program-process.ts';
import { TailBuffer } from '../../grade/run/tail-buffer.ts';
import type { Call, FileSpec } from '../../course/types.ts';
import type { Replayed } from './verify-result.ts';

const WORKER = fileURLToPath(
  new URL(import.meta.url.endsWith('.ts') ? './replay-worker.ts' : './replay-worker.js', import.meta.url),
);
// A result line longer than this is not one: the worker is killed rather than buffered without end.
const MAX_LINE_BYTES = 64 * 1024 * 1024;
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

// The pool. `close` resolves to what the user should know (a temp dir that could not be removed).
export type ReplayPool = { replay: (c: ReplayCase) => Promise<ReplayRun>; close: () => Promise<string[]> };

// What the pool starts: the reference's package root, the environment, whether the workers are sandboxed (the
// command's --isolation decision), how many workers, the Bash bound.
export type PoolOptions = { root: string; env: NodeJS.ProcessEnv; sandbox: boolean; size: number; boundMs: number };

type Worker = { proc: ProgramProcess; busy: boolean; send: (line: string, deadlineMs: number) => Promise<string> };

// A pool of replay workers; close() kills them all.
export function replayPool(options: PoolOptions): ReplayPool {
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
      cache ??= openTsxCache(options.env);
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

  return {
    replay: async (c) => {
      if (closed) throw new Error('the replay pool is closed');
      const worker = await acquire();
      try {
        const deadline = STARTUP_MS + c.calls.length * (options.boundMs + PER_CALL_MS);
        const line = await worker.send(
          JSON.stringify({ files: c.files, calls: c.calls, boundMs: options.boundMs }),
          deadline,
        );
        const reply = JSON.parse(line) as Partial<ReplayRun> & { error?: string };
        if (reply.error !== undefined) throw new Error(reply.error);
        if (!Array.isArray(reply.results) || reply.results.length !== c.calls.length)
          throw new Error('the replay worker gave no result per call');
        return {
          results: reply.results,
          after: reply.after ?? {},
          unchanged: reply.unchanged ?? [],
          bashMs: reply.bashMs ?? {},
        };
      } finally {
        release(worker);
      }
    },
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
  options: PoolOptions,
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
    files: [WORKER],
  });
  const splitter = new LineSplitter(MAX_LINE_BYTES);
  const stderr = new TailBuffer(4096);
  let pending: { resolve: (line: string) => void; reject: (e: Error) => void } | undefined;
  const worker: Worker = {
    proc,
    busy: false,
    send: (line, deadlineMs) =>
      new Promise<string>((resolve, reject) => {
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
      }),
  };
  const fail = (why: string): void => {
    gone(worker, proc.dispose());
    const detail = stderr.take().trim();
    pending?.reject(new Error(detail === '' ? why : `${why}: ${detail.split('\n').slice(-5).join(' / ')}`));
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
