// What both driver modes share (src/modes/driver.ts runs them): how a case's course modules are loaded, how a
// throw is worded, how a sandbox is removed, and the muting of output while a probe runs. Driver code: it runs in
// every program process, beside the student's modules, so it imports only the course's vocabulary (src/course/).
import { chmod, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// Awaited before each call with its number (from 1), the number of calls, and its tool.
export type BeforeCall = (call: number, of: number, tool: string) => Promise<void>;

// The loop's one verb, as the course's code gives it: a tool name and the input the model sent; its output as it
// is or as a promise (awaited either way).
export type Execute = (name: string, input: any) => unknown;

export type Json = Record<string, unknown>;

// The course directory whose modules a mode loads (as a directory URL, ending in `/`): the working directory's
// unless given. The grader runs the driver in the (staged copy of the) submission; `tsx program.ts` in the course.
export function courseUrl(dir: string = process.cwd()): URL {
  return pathToFileURL(join(dir, '/'));
}

// The named exports of a module of the course directory (its path from there), failing as a static import would
// when one is missing.
export async function courseExports<T>(course: URL, path: string, names: string[]): Promise<T> {
  const module = (await import(new URL(path, course).href)) as Record<string, unknown>;
  const missing = names.find((name) => !(name in module));
  if (missing !== undefined) {
    throw new SyntaxError(`The requested module '${path}' does not provide an export named '${missing}'`);
  }
  return module as T;
}

// Every string in a JSON value, mapped by `f`.
export function mapStrings(value: unknown, f: (s: string) => string): unknown {
  if (typeof value === 'string') return f(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, f));
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, f)]));
  }
  return value;
}

// A throw as the results word it: `Name: message`. The code under test chooses what it throws (a Proxy whose traps
// throw, a toString that throws), so the wording never throws in turn: that would end the driver, blamed on the case.
export function describeThrow(error: unknown): string {
  try {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  } catch {
    return 'a thrown value that cannot be described';
  }
}

// The innermost frame of a thrown error's stack in the course's own code (not its node_modules), its path from the
// course directory: `execute (src/execute.ts:17:29)`. The result keeps only the error's message (it is compared with
// the expected one); this frame goes to the case's output, where the reports find the line to put the failure on.
export function courseFrame(error: unknown, course: URL): string | undefined {
  try {
    const stack = error instanceof Error && typeof error.stack === 'string' ? error.stack : '';
    // Source-mapped frames (tsx) name the file by its path, others by its URL.
    const roots = [course.href, fileURLToPath(course)];
    const own = (l: string) => /^\s+at /.test(l) && roots.some((r) => l.includes(r)) && !l.includes('/node_modules/');
    const line = stack.split('\n').find(own);
    return line === undefined ? undefined : roots.reduce((l, r) => l.split(r).join(''), line.trim().slice(3));
  } catch {
    return undefined;
  }
}

// A program under test may chmod its sandbox or directories in it; restore access before removing it.
export async function removeSandbox(sandbox: string): Promise<void> {
  try {
    await rm(sandbox, { recursive: true, force: true });
  } catch {
    await restoreAccess(sandbox);
    await rm(sandbox, { recursive: true, force: true }).catch(() => {});
  }
}

async function restoreAccess(directory: string): Promise<void> {
  await chmod(directory, 0o700).catch(() => {});
  for (const entry of await readdir(directory, { withFileTypes: true }).catch(() => [])) {
    if (entry.isDirectory()) await restoreAccess(join(directory, entry.name));
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// Silences stdout and stderr (writes are dropped, their callbacks still called) until the last of the probes
// running at once returns what it was given.
let muted: { count: number; saved: [typeof process.stdout.write, typeof process.stderr.write] } | undefined;
export function mute(): () => void {
  if (muted === undefined) {
    muted = { count: 0, saved: [process.stdout.write, process.stderr.write] };
    const drop = ((_chunk: unknown, encoding?: unknown, done?: unknown) => {
      const callback = typeof encoding === 'function' ? encoding : done;
      if (typeof callback === 'function') queueMicrotask(() => callback());
      return true;
    }) as typeof process.stdout.write;
    process.stdout.write = drop;
    process.stderr.write = drop;
  }
  muted.count += 1;
  return () => {
    if (muted === undefined || --muted.count > 0) return;
    [process.stdout.write, process.stderr.write] = muted.saved;
    muted = undefined;
  };
}

// JSON text with every object's keys sorted: equal for equal values whatever the key order.
export function canonical(value: unknown): string {
  const sorted = (_: string, v: unknown) =>
    isObject(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v;
  return JSON.stringify(value, sorted) ?? 'undefined';
}

// How many JSON values `value` holds: itself, and every element and property value below it, counted with a stack
// (a value nested deeper than any call stack reaches is counted too). What the grader keeps of a program's messages
// is bounded by this count rather than by their bytes alone: `{}` is 3 bytes of text and some 50 of heap, so a line
// of empty objects held 17 times its size, and a few such lines held the grader's whole heap.
export function jsonValues(value: unknown): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    count += 1;
    if (typeof next !== 'object' || next === null) continue;
    if (Array.isArray(next)) for (const item of next) stack.push(item);
    else for (const key in next) stack.push((next as Record<string, unknown>)[key]);
  }
  return count;
}
