// Inside the replay worker: the reference dispatcher as the recorder runs it (every Bash call bounded, each written
// file read back after its call, each Bash call's effect on the sandbox's tree noted), and a case replayed call by
// call. A session runs program.ts's own `dispatch` (its sandbox, seeding, placeholders) over a list of calls that
// grows as the recorder sends them: each call's result goes back at once, the recorder judges it, and then sends
// the next call, asks for the last one to be undone (the sandbox put back as it was before it: a dropped command
// never runs again to be left out), or closes the case. So every call of a window runs once, a hanging command
// waits out its bound once, and a replayed prefix is never run again.
import { lstat, readdir, readFile, realpath } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { METHODS } from '../../course/dispatcher-contract.ts';
import { SANDBOX } from '../../course/sandbox-placeholder.ts';
import { SandboxCheckpoint } from './sandbox-checkpoint.ts';

type Call = { tool: string; input: Record<string, unknown> };
type Tools = { root: string };
type Execute = (name: string, input: unknown) => Promise<unknown>;
export type Make = (tools: Tools) => Execute;
export type Dispatch = (testCase: { files?: unknown; calls: Call[] }, make: Make) => Promise<unknown[]>;

const WRITES = new Set([METHODS.create!, METHODS.strReplace!, METHODS.insert!].flatMap((m) => m.names));
const SHELLS = new Set(METHODS.bash!.names);
const MAX_TIMEOUT_MS = 600_000;
const PLACEHOLDER = SANDBOX;

// What a replay saw beyond the results, by call index: each written file right after its call, the Bash calls
// that left the sandbox exactly as they found it (dropping one of those changes no later result), and how long
// each Bash call took (milliseconds).
export type Observed = { after: Record<number, string | null>; unchanged: number[]; bashMs: Record<number, number> };

// One call, observed: its result, and what `Observed` holds for it.
type Step = { result: unknown; after?: string | null; unchanged?: boolean; bashMs?: number };

async function observe(root: string, execute: Execute, name: string, input: unknown, boundMs: number): Promise<Step> {
  if (!SHELLS.has(name)) {
    const result = await execute(name, input);
    return WRITES.has(name) ? { result, after: await readBack(root, (input as { path?: unknown }).path) } : { result };
  }
  const before = await treeState(root);
  const started = performance.now();
  const result = await execute(name, bounded(input, boundMs));
  const bashMs = Math.round(performance.now() - started);
  return { result, bashMs, unchanged: before !== undefined && before === (await treeState(root)) };
}

// The reference dispatcher for a whole case, observed call by call into `seen`.
export function observingMake(makeExecute: Make, boundMs: number, seen: Observed): Make {
  return (tools) => {
    const execute = makeExecute(tools);
    let index = 0;
    return async (name, input) => {
      const at = index++;
      const step = await observe(tools.root, execute, name, input, boundMs);
      if (step.after !== undefined) seen.after[at] = step.after;
      if (step.bashMs !== undefined) seen.bashMs[at] = step.bashMs;
      if (step.unchanged === true) seen.unchanged.push(at);
      return step.result;
    };
  };
}

type Instruction = { session: 'call'; call: Call } | { session: 'undo' } | { session: 'close' };

// A case being replayed call by call: `first` is the first call's step (or why the case could not start), `send`
// answers each later instruction, `ended` settles once the sandbox is gone.
export type Session = { first: Promise<unknown>; send: (i: Instruction) => Promise<unknown>; ended: Promise<void> };

export function openSession(
  dispatch: Dispatch,
  makeExecute: Make,
  o: { files: unknown; first: Call; boundMs: number },
): Session {
  const calls: Call[] = [o.first];
  const instructions = new Channel<Instruction>();
  const replies = new Channel<unknown>();
  const checkpoint = new SandboxCheckpoint();
  const make: Make = (tools) => {
    const execute = makeExecute(tools);
    return async (name, input) => {
      // A view or a listing changes nothing: there is nothing to undo after it.
      const saved = WRITES.has(name) || SHELLS.has(name) ? await checkpoint.save(tools.root) : checkpoint.forget();
      let step: Step;
      try {
        step = await observe(tools.root, execute, name, input, o.boundMs);
      } catch (error) {
        step = { result: { threw: error instanceof Error ? `${error.name}: ${error.message}` : String(error) } };
      }
      replies.push({ ...step, result: await hideSandbox(step.result, tools.root), ...(saved ? {} : { noUndo: true }) });
      for (;;) {
        const next = await instructions.next();
        if (next.session === 'undo') replies.push(await checkpoint.restore(tools.root));
        else {
          // Another call is pushed before this one returns, so dispatch's loop goes on to it; after a close none is.
          if (next.session === 'call') calls.push(next.call);
          return step.result;
        }
      }
    };
  };
  const ended = dispatch({ files: o.files, calls }, make).then(
    () => replies.push({ closed: true }),
    (error: unknown) => replies.push({ error: error instanceof Error ? error.message : String(error) }),
  );
  const done = ended.then(() => undefined);
  return {
    first: replies.next(),
    send: (instruction) => {
      instructions.push(instruction);
      return replies.next();
    },
    ended: done,
  };
}

// A result as `dispatch` prints it: the sandbox's path, and its realpath, as the placeholder in every string.
async function hideSandbox(value: unknown, root: string): Promise<unknown> {
  const spellings = [...new Set([root, await realpath(root).catch(() => root)])].sort((a, b) => b.length - a.length);
  const hide = (v: unknown): unknown => {
    if (typeof v === 'string') return spellings.reduce((t, p) => t.split(p).join(PLACEHOLDER), v);
    if (Array.isArray(v)) return v.map(hide);
    if (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype)
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, hide(x)]));
    return v;
  };
  return hide(value);
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
    return [root, real].sort((a, b) => b.length - a.length).reduce((t, p) => t.split(p).join(PLACEHOLDER), text);
  } catch {
    return null;
  }
}

// A queue one side pushes to and the other awaits.
class Channel<T> {
  private readonly items: T[] = [];
  private readonly waiting: ((item: T) => void)[] = [];

  push(item: T): void {
    const taker = this.waiting.shift();
    if (taker === undefined) this.items.push(item);
    else taker(item);
  }

  next(): Promise<T> {
    if (this.items.length > 0) return Promise.resolve(this.items.shift() as T);
    return new Promise((resolve) => this.waiting.push(resolve));
  }
}
