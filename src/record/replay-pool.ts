// Long-lived replay workers (src/record/replay-worker.ts), each started the way every program process is
// (startProcess: its own process group and TMPDIR, killed and removed with it). A worker serves one case at a
// time; the pool hands each request to an idle worker, starting one (up to `size`) when none is idle. A worker
// that dies, prints garbage or runs past its deadline is killed and the request fails with the reason; the next
// request starts a fresh worker.
import { fileURLToPath } from 'node:url';
import { LineSplitter } from '../grade/run/line-splitter.ts';
import { startProcess, type ProgramProcess } from '../grade/run/program-process.ts';
import { TailBuffer } from '../grade/run/tail-buffer.ts';
import type { Call, FileSpec } from '../course/types.ts';
import type { Replayed } from './verify-result.ts';

const WORKER = fileURLToPath(new URL(import.meta.url.endsWith('.ts') ? './replay-worker.ts' : './replay-worker.js', import.meta.url));
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
export type ReplayRun = { results: Replayed[]; after: Record<number, string | null>; unchanged: number[]; bashMs: Record<number, number> };

// The pool.
export type ReplayPool = { replay: (c: ReplayCase) => Promise<ReplayRun>; close: () => Promise<void> };

// What the pool starts: the reference's package root, the environment, how many workers, the Bash bound.
export type PoolOptions = { root: string; env: NodeJS.ProcessEnv; size: number; boundMs: number };

type Worker = { proc: ProgramProcess; busy: boolean; send: (line: string, deadlineMs: number) => Promise<string> };

// A pool of replay workers; close() kills them all.
export function replayPool(options: PoolOptions): ReplayPool {
  const workers = new Set<Worker>();
  const waiting: ((w: Worker) => void)[] = [];
  let closed = false;
  let closing: Promise<void> | undefined;

  const acquire = async (): Promise<Worker> => {
    for (const w of workers) if (!w.busy) return claim(w);
    if (workers.size < options.size) return claim(await startWorker(options, (w) => workers.delete(w)).then((w) => (workers.add(w), w)));
    return new Promise((resolve) => waiting.push(resolve));
  };
  const claim = (w: Worker): Worker => ((w.busy = true), w);
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
        const line = await worker.send(JSON.stringify({ files: c.files, calls: c.calls, boundMs: options.boundMs }), deadline);
        const reply = JSON.parse(line) as Partial<ReplayRun> & { error?: string };
        if (reply.error !== undefined) throw new Error(reply.error);
        if (!Array.isArray(reply.results) || reply.results.length !== c.calls.length) throw new Error('the replay worker gave no result per call');
        return { results: reply.results, after: reply.after ?? {}, unchanged: reply.unchanged ?? [], bashMs: reply.bashMs ?? {} };
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
        await Promise.all(all.map((w) => stopWorker(w.proc)));
      })()),
  };
}

// How long a worker asked to stop has to kill the commands it runs before its whole group is killed.
const STOP_GRACE_MS = 2_000;

// Stops a worker: SIGTERM first, on which the reference's bash tool kills the process groups of the commands it
// is running (they are groups of their own, out of reach of a kill aimed at the worker's group), then the group
// and the temp dir go.
async function stopWorker(proc: ProgramProcess): Promise<void> {
  const child = proc.child;
  if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise<void>((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref())]);
  }
  await proc.dispose();
}

async function startWorker(options: PoolOptions, gone: (w: Worker) => void): Promise<Worker> {
  const proc = await startProcess({ dir: options.root, env: options.env, args: [WORKER], stdin: 'pipe' });
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
          resolve: (l) => (clearTimeout(timer), resolve(l)),
          reject: (e) => (clearTimeout(timer), reject(e)),
        };
        proc.child.stdin?.write(`${line}\n`);
      }),
  };
  const fail = (why: string): void => {
    gone(worker);
    void stopWorker(proc);
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
