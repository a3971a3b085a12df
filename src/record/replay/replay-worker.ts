// The replay worker, run as `node --import <tsx> replay-worker.ts` in the reference's package root through the
// grader's own process starter (src/grade/run/program-process.ts): whatever confines a student's program confines
// the recorded commands too. It imports program.ts's `dispatch` and the reference `makeExecute` and serves cases
// for as long as its stdin stays open: one JSON case per line in, one `{"results":[…],"after":{…},"unchanged":[…]}`
// line out. `after` holds, for each call that writes a file, the file's text right after it (null when it is
// gone), which verification compares with what the recording says the file became; `unchanged` the Bash calls
// that changed nothing in the sandbox. Every Bash call is bounded (`boundMs`),
// so a recorded server cannot hang the recorder; a bounded call that runs out is a timeout result, never kept.
import { lstat, readdir, readFile, realpath } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

type Tools = { root: string };
type Execute = (name: string, input: unknown) => Promise<unknown>;
type Make = (tools: Tools) => Execute;
type Dispatch = (
  testCase: { files?: unknown; calls: { tool: string; input: Record<string, unknown> }[] },
  make: Make,
) => Promise<unknown[]>;

// One request: a case and the longest a Bash call may run, in milliseconds.
type Request = { files?: unknown; calls: { tool: string; input: Record<string, unknown> }[]; boundMs: number };

const WRITES = new Set(['Write', 'create', 'Edit', 'str_replace', 'insert']);
const SHELLS = new Set(['Bash', 'bash']);
const MAX_TIMEOUT_MS = 600_000;

// As a case names them, from the directory the worker runs in (the reference's package root).
const { dispatch } = (await import(pathToFileURL(resolve('program.ts')).href)) as { dispatch: Dispatch };
const { makeExecute } = (await import(pathToFileURL(resolve('src/execute.ts')).href)) as { makeExecute: Make };

// What a replay saw beyond the results: each written file right after its call, the Bash calls that left the
// sandbox exactly as they found it (dropping one of those changes no later result), and how long each Bash call
// took (milliseconds).
type Observed = { after: Record<number, string | null>; unchanged: number[]; bashMs: Record<number, number> };

// The reference dispatcher, with Bash bounded, each written file read back after its call, and each Bash call's
// effect on the sandbox's tree noted.
function recordingMake(boundMs: number, seen: Observed): Make {
  return (tools) => {
    const execute = makeExecute(tools);
    let index = 0;
    return async (name, input) => {
      const at = index++;
      if (!SHELLS.has(name)) {
        const result = await execute(name, input);
        if (WRITES.has(name)) seen.after[at] = await readBack(tools.root, (input as { path?: unknown }).path);
        return result;
      }
      const before = await treeState(tools.root);
      const started = performance.now();
      const result = await execute(name, bounded(input, boundMs));
      seen.bashMs[at] = Math.round(performance.now() - started);
      if (before !== undefined && before === (await treeState(tools.root))) seen.unchanged.push(at);
      return result;
    };
  };
}

// Every entry under the sandbox with its type, mode, size and modification time: a command that wrote, made,
// removed, moved or chmod-ed anything changes it. Undefined when the tree cannot be read (then nothing is
// assumed unchanged).
async function treeState(root: string): Promise<string | undefined> {
  try {
    const entries = await readdir(root, { recursive: true });
    const rows = await Promise.all(
      entries.sort().map(async (entry) => {
        const s = await lstat(join(root, entry));
        return `${entry}\u0000${s.mode}\u0000${s.size}\u0000${s.mtimeMs}`;
      }),
    );
    const self = await lstat(root);
    return `${self.mode}\u0000${self.mtimeMs}\n${rows.join('\n')}`;
  } catch {
    return undefined;
  }
}

// A Bash input whose timeout is at most `boundMs`. An invalid timeout is left for the tool to refuse, as the
// final snapshot's run will.
function bounded(input: unknown, boundMs: number): unknown {
  if (typeof input !== 'object' || input === null) return input;
  const timeout = (input as { timeout?: unknown }).timeout;
  if (timeout === undefined || timeout === null) return { ...input, timeout: boundMs };
  const valid = typeof timeout === 'number' && Number.isInteger(timeout) && timeout >= 1 && timeout <= MAX_TIMEOUT_MS;
  return valid ? { ...input, timeout: Math.min(timeout, boundMs) } : input;
}

async function readBack(root: string, path: unknown): Promise<string | null> {
  if (typeof path !== 'string') return null;
  try {
    const text = await readFile(resolve(root, path), 'utf8');
    const real = await realpath(root);
    return [root, real].sort((a, b) => b.length - a.length).reduce((t, p) => t.split(p).join('<sandbox>'), text);
  } catch {
    return null;
  }
}

async function serve(line: string): Promise<string> {
  try {
    const request = JSON.parse(line) as Request;
    const seen: Observed = { after: {}, unchanged: [], bashMs: {} };
    const results = await dispatch(
      { files: request.files ?? {}, calls: request.calls },
      recordingMake(request.boundMs, seen),
    );
    return JSON.stringify({ results, ...seen });
  } catch (error) {
    return JSON.stringify({ error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
  }
}

const print = process.stdout.write.bind(process.stdout);
// Only protocol lines on stdout: anything else the code prints goes to stderr.
process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (line.trim() === '') continue;
  const reply = await serve(line);
  await new Promise<void>((done) => print(`${reply}\n`, () => done()));
}
