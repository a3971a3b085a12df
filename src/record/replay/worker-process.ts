// One replay worker (replay-worker.ts) as the pool talks to it: started the way every program process is
// (startProcess: its own process group or sandbox and TMPDIR, killed and removed with it) and supervised by the
// grader's program machine as a server (src/grade/run/supervise-process.ts), which decides when a request has run
// past its deadline, when the worker printed a line past its limit and when it died. What is left here is the
// protocol: a request is one JSON line in, its reply one JSON object line out; a reply that is not one is garbage,
// and the worker is stopped for it as the grader stops a program at a bad line.
import { fileURLToPath } from 'node:url';
import type { ProcessEnd } from '../../grade/run/case-outcome.ts';
import type { ProgramResult } from '../../grade/run/program-machine.ts';
import { startProcess } from '../../grade/run/program-process.ts';
import { superviseProcess } from '../../grade/run/supervise-process.ts';

const sibling = (name: string): string =>
  fileURLToPath(new URL(import.meta.url.endsWith('.ts') ? `./${name}.ts` : `./${name}.js`, import.meta.url));
const WORKER = sibling('replay-worker');
// What the worker runs besides itself, bound into the sandbox with it.
const WORKER_FILES = [WORKER, sibling('replay-session'), sibling('sandbox-checkpoint')];
// A reply longer than this is not one (a reply carries each written file's text): the worker is killed rather
// than buffered without end.
const MAX_REPLY_BYTES = 64 * 1024 * 1024;
// Lines of the worker's stderr quoted in the error of a worker that failed.
const STDERR_LINES = 5;

// A worker: `ask` sends one request and resolves to its reply, or rejects with why the worker could not answer
// (it is then gone, and so is every later request). `gone` settles, with that reason, once the worker has been
// given up; `close` stops it. `disposed` resolves once it is dead and its temp dir removed, to a warning when
// something of that dir could not be removed.
export type WorkerProcess = {
  ask: (request: unknown, timeoutMs: number) => Promise<Record<string, unknown>>;
  gone: Promise<string>;
  close: () => Promise<string | undefined>;
  disposed: Promise<string | undefined>;
};

// Where and how a worker runs: the reference's package root, the recorder's environment, sandboxed or not, and
// the tsx cache the pool's workers share. `worker`: a script of the caller's own instead of replay-worker.ts, by
// its path under the root: only the tests of this machinery give one (a worker that misbehaves).
export type WorkerStart = {
  root: string;
  env: NodeJS.ProcessEnv;
  sandbox: boolean;
  tsxCache: string | undefined;
  worker?: string;
};

// Starts a worker; rejects when it cannot even be set up.
export async function startWorker(start: WorkerStart): Promise<WorkerProcess> {
  const proc = await startProcess({
    dir: start.root,
    env: start.env,
    args: [start.worker ?? WORKER],
    stdin: 'pipe',
    sandbox: start.sandbox,
    tsxCache: start.tsxCache,
    files: start.worker === undefined ? WORKER_FILES : [start.worker],
  });
  let pending: { resolve: (reply: Record<string, unknown>) => void; reject: (error: Error) => void } | undefined;
  // Why the worker is gone, once it is: a request after that fails at once instead of waiting out its deadline.
  let dead: string | undefined;
  let markGone: (why: string) => void = () => {};
  const gone = new Promise<string>((resolve) => (markGone = resolve));
  // The first reason is the one every request hears.
  const giveUp = (why: string): void => {
    dead ??= why;
    markGone(dead);
    pending?.reject(new Error(dead));
    pending = undefined;
  };
  const supervision = superviseProcess(
    proc,
    // A server: a deadline per request (ask's), no CPU budget (each recorded Bash call is bounded by the worker).
    { cases: 0, timeoutMs: 0, serves: true, maxLineBytes: MAX_REPLY_BYTES },
    {
      onLine: (line) => {
        const answer = pending;
        pending = undefined;
        const reply = parseReply(line.text);
        if (reply !== undefined) {
          answer?.resolve(reply);
          return 'continue';
        }
        pending = answer;
        giveUp('the replay worker replied with no JSON object');
        return 'stop';
      },
    },
  );
  void supervision.settled.then((result) => giveUp(endReason(result)));
  const disposed = supervision.settled.then(() => proc.dispose());
  return {
    ask: (request, timeoutMs) =>
      new Promise((resolve, reject) => {
        if (dead !== undefined) return reject(new Error(dead));
        pending = { resolve, reject };
        proc.child.stdin?.write(`${JSON.stringify(request)}\n`);
        supervision.request(timeoutMs);
      }),
    gone,
    close: () => {
      dead ??= 'the replay pool was closed';
      supervision.stop();
      return disposed;
    },
    disposed,
  };
}

// A reply: one JSON object.
function parseReply(text: string): Record<string, unknown> | undefined {
  try {
    const reply: unknown = JSON.parse(text);
    return typeof reply === 'object' && reply !== null && !Array.isArray(reply)
      ? (reply as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

// Why the worker ended, as the recorder says it, with the last lines it printed to stderr.
function endReason(result: ProgramResult): string {
  const why = result.end.kind === 'stopped' ? 'the replay worker was stopped' : describe(result.end);
  const detail = result.output.trim();
  return detail === '' ? why : `${why}: ${detail.split('\n').slice(-STDERR_LINES).join(' / ')}`;
}

function describe(end: ProcessEnd): string {
  switch (end.kind) {
    case 'timeout':
      return `the replay did not finish within ${end.timeoutMs} ms`;
    case 'overflow':
      return 'the replay worker printed a line past its limit';
    case 'exited':
      return `the replay worker exited (${end.signal ?? `code ${end.code}`})`;
    case 'cpu':
      return `the replay used more than ${end.cpuMs} ms of CPU time`;
    case 'memory':
      return `the replay's processes held over ${end.memoryMiB} MiB together`;
    case 'spawn-failed':
      return `the replay worker could not start: ${end.message}`;
  }
}
