// The course driver for the stage "Register the toolset". Provided by the course: students do not edit it.
//
//   tsx program.ts dispatch <case.json> [<case.json> …]    run case files by hand
//   tsx program.ts dispatch -                              read cases from stdin, one JSON object per line,
//                                                          until it ends (how the grader runs it)
//
// For each case, in order: seed a fresh temporary sandbox from its `files`, build `Tools` and `makeExecute`
// from ./src, call `execute(tool, input)` for each entry of `calls` (awaiting each), print one line
// `{"results":[…]}` on stdout, and remove the sandbox. Several cases in one run share nothing but the
// process: each gets its own sandbox, its own `Tools` and its own `execute`. Reading stdin, it also prints
// `{"calling":{"call":2,"of":3,"tool":"echo"}}` before each call, so that the grader can say which call hangs.
//
// Results never depend on where the sandbox lives: its path (and realpath) in any result string becomes
// SANDBOX_PLACEHOLDER, and the placeholder in a case's inputs and symlink targets becomes the real path.
//
// Probe mode: when a case read from stdin carries `observe` (the grader puts it in the first line it sends, a case
// with no calls), then once every case has printed its results, `makeExecute` is run against a stand-in `Tools`
// that records each call and its arguments and answers what the grader asked for, and one more line is printed:
// `{"observed":[…]}`, what happened in each call. The grader infers the dispatcher's mistakes from it.
import { chmod, lstat, mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { Tools } from './src/tools/index.ts';
import { makeExecute } from './src/execute.ts';

// What the sandbox's path reads as in results, and expands to in a case's inputs.
export const SANDBOX_PLACEHOLDER = '<sandbox>';

type FileSpec = string | { base64: string } | { symlink: string };
type Call = { tool: string; input: Record<string, unknown> };
type Case = { files?: Record<string, FileSpec>; calls: Call[]; observe?: unknown };

// Awaited before each call with its number (from 1), the number of calls, and its tool.
type BeforeCall = (call: number, of: number, tool: string) => Promise<void>;

// Runs one case in a fresh sandbox and returns its results, ready to print. `make` is the dispatcher
// factory under test: the student's own by default (tests of the suite pass others).
export async function dispatch(
  testCase: Case,
  make: typeof makeExecute = makeExecute,
  beforeCall?: BeforeCall,
): Promise<unknown[]> {
  const sandbox = await mkdtemp(join(tmpdir(), 'theinference-sandbox-'));
  try {
    const real = await realpath(sandbox);
    await seed(sandbox, testCase.files ?? {});
    const execute = make(new Tools(sandbox));
    const results: unknown[] = [];
    for (const [i, call] of testCase.calls.entries()) {
      await beforeCall?.(i + 1, testCase.calls.length, call.tool);
      let result: unknown;
      try {
        result = await execute(call.tool, expand(call.input, sandbox));
      } catch (error) {
        // A throw would unwind the agent loop; record it so the grader can show which call threw.
        result = { threw: describeThrow(error) };
      }
      results.push(hidePaths(result, [sandbox, real]));
    }
    return results;
  } finally {
    await removeSandbox(sandbox);
  }
}

async function seed(sandbox: string, files: Record<string, FileSpec>): Promise<void> {
  for (const [path, spec] of Object.entries(files)) {
    // dispatch is also called without parseCase (the recorder's replay worker): a path that names the sandbox
    // itself or leaves it must never be written, whoever built the case.
    const problem = seedPathProblem(path);
    if (problem !== undefined) throw new Error(problem);
    const target = join(sandbox, path);
    // A seeded symlink may point anywhere (the escape cases point one at /etc), but nothing is written
    // through one that leads out of the sandbox.
    if (!(await staysInside(sandbox, target))) {
      throw new Error(`"files"["${path}"] would be written outside the sandbox, through a symlink seeded before it`);
    }
    await mkdir(dirname(target), { recursive: true });
    if (typeof spec === 'string') await writeFile(target, spec);
    else if ('base64' in spec) await writeFile(target, Buffer.from(spec.base64, 'base64'));
    else await symlink(expand(spec.symlink, sandbox), target);
  }
}

// Whether writing `target` stays in the sandbox: the nearest part of it that exists, links followed, is inside.
// A dangling link on the way counts as leaving: writing through it would create its target, wherever that is.
async function staysInside(sandbox: string, target: string): Promise<boolean> {
  const root = await realpath(sandbox);
  for (let at = target; ; at = dirname(at)) {
    const real = await realpath(at).catch(() => undefined);
    if (real !== undefined) return real === root || real.startsWith(root + sep);
    if ((await lstat(at).catch(() => undefined))?.isSymbolicLink()) return false;
  }
}

// Replaces the placeholder with the sandbox path in every string of a case's input.
function expand<T>(value: T, sandbox: string): T {
  return mapStrings(value, (s) => s.split(SANDBOX_PLACEHOLDER).join(sandbox)) as T;
}

// Replaces every spelling of the sandbox path with the placeholder, longest first so that a path
// which contains another is replaced whole.
function hidePaths(value: unknown, paths: string[]): unknown {
  const spellings = [...new Set(paths)].sort((a, b) => b.length - a.length);
  return mapStrings(value, (s) => spellings.reduce((text, p) => text.split(p).join(SANDBOX_PLACEHOLDER), s));
}

function mapStrings(value: unknown, f: (s: string) => string): unknown {
  if (typeof value === 'string') return f(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, f));
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, f)]));
  }
  return value;
}

function describeThrow(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

// A program under test may chmod its sandbox or directories in it; restore access before removing it.
async function removeSandbox(sandbox: string): Promise<void> {
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

// Checks one case's JSON; the error says which field is wrong so the author can fix it.
function parseCase(text: string): Case {
  const parsed: unknown = JSON.parse(text);
  if (!isObject(parsed)) throw new Error('a case must be a JSON object');
  const { files = {}, calls } = parsed;
  if (!isObject(files)) throw new Error('"files" must be an object of path -> contents');
  for (const [path, spec] of Object.entries(files)) {
    const ok =
      typeof spec === 'string' ||
      (isObject(spec) && (typeof spec.base64 === 'string' || typeof spec.symlink === 'string'));
    if (!ok) throw new Error(`"files"["${path}"] must be a string, {"base64": "…"} or {"symlink": "…"}`);
    const problem = seedPathProblem(path);
    if (problem !== undefined) throw new Error(problem);
  }
  if (!Array.isArray(calls)) throw new Error('"calls" must be an array of { "tool": …, "input": {…} }');
  calls.forEach((call: unknown, i) => {
    if (!isObject(call) || typeof call.tool !== 'string' || !isObject(call.input)) {
      throw new Error(`"calls"[${i}] must be { "tool": string, "input": object }`);
    }
  });
  const observe = parsed.observe === undefined ? {} : { observe: parsed.observe };
  return { files: files as Record<string, FileSpec>, calls: calls as Call[], ...observe };
}

// The cases to run, each with where it comes from and how to read its text: stdin's lines for `-`, else the
// named files.
async function* caseSource(args: string[]): AsyncGenerator<{ where: string; read: () => Promise<string> }> {
  if (fromStdin(args)) {
    let n = 0;
    for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
      n += 1;
      if (line.trim() !== '') yield { where: `on stdin line ${n}`, read: async () => line };
    }
  } else {
    for (const file of args) yield { where: file, read: () => readFile(file, 'utf8') };
  }
}

// Why a `files` key cannot be seeded, or undefined when it can: it must name a file below the sandbox, as
// `src/a.ts` does. Empty, `.` or a trailing `/` name the sandbox or a directory (writing them fails with EISDIR);
// an absolute path (`/x`, `C:\\x`, `\\x`) or `..` leaves it.
function seedPathProblem(path: string): string | undefined {
  const segments = path.split('/');
  const bad =
    /^(?:[A-Za-z]:|[\\/])/.test(path) ||
    path.includes('\0') ||
    segments.some((s) => s === '' || s === '.' || s === '..');
  if (!bad) return undefined;
  return `"files"[${JSON.stringify(path)}] must be a relative path inside the sandbox, naming a file (such as "src/a.ts"): not empty, not absolute, with no empty, "." or ".." segment`;
}

function fromStdin(args: string[]): boolean {
  return args.length === 1 && args[0] === '-';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  if (command !== 'dispatch' || args.length === 0) {
    process.stderr.write(
      'usage: tsx program.ts dispatch <case.json> [<case.json> …]\n       tsx program.ts dispatch -   (cases as JSON lines on stdin)\n',
    );
    return 2;
  }
  // Result lines own stdout. Anything the code under test prints (a debugging console.log, say)
  // goes to stderr instead, where the grader shows it beside the verdict rather than choking on it.
  const stdout = process.stdout.write.bind(process.stdout);
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  // Prints one line of JSON; resolves once it has left this process.
  const print = (value: unknown) => new Promise<void>((sent) => stdout(`${JSON.stringify(value)}\n`, () => sent()));
  // The grader (reading stdin) is told which call is about to run, before it starts: a call that never gives
  // the event loop back (a `while (true)`) would keep a line not yet sent from ever leaving.
  const beforeCall: BeforeCall | undefined = fromStdin(args)
    ? (call, of, tool) => print({ calling: { call, of, tool } })
    : undefined;
  let request: unknown;
  // Each case is checked before it runs; a bad one stops the run (the cases before it have printed).
  for await (const { where, read } of caseSource(args)) {
    let testCase: Case;
    try {
      testCase = parseCase(await read());
    } catch (error) {
      process.stderr.write(`error: cannot read case ${where}: ${describeThrow(error)}\n`);
      return 2;
    }
    if (fromStdin(args)) request ??= testCase.observe;
    let results: unknown[];
    try {
      results = await dispatch(testCase, makeExecute, beforeCall);
    } catch (error) {
      // execute's throws are recorded per call, so what reaches here is seeding: the case's `files` are wrong.
      process.stderr.write(`error: cannot seed case ${where}: ${describeThrow(error)}\n`);
      return 2;
    }
    await print({ results });
  }
  if (request === undefined) return 0;
  await print({ observed: await observe(request) });
  // What the probe started and never finished (a timer its code keeps waiting on) must not keep the process up.
  process.exit(0);
}

// The probe's request: the Tools methods to stand in for, and each call with what those methods answer.
type ObserveRequest = { methods: string[]; calls: { tool: string; input: Record<string, unknown>; answer: unknown }[] };
// What happened in one call: the stand-in's calls (method, arguments as `encode` writes them, and whether it was
// called on the Tools object), then the result, the error thrown, or that it had not settled by PROBE_WAIT_MS.
type Observed = {
  calls: { method: string; args: unknown[]; unbound?: true }[];
  result?: unknown;
  threw?: string;
  pending?: true;
};

// How long the probe waits for its calls: the stand-in answers at once, so only a promise that never settles
// takes longer.
const PROBE_WAIT_MS = 250;

// Runs the probe's calls, each with a stand-in Tools and an `execute` of its own, all at once, while whatever the
// code under test prints goes nowhere; the stand-in's `root` is an empty directory.
export async function observe(request: unknown, make?: typeof makeExecute): Promise<Observed[] | { error: string }> {
  if (!isObserveRequest(request)) return { error: 'the request is not { methods, calls }' };
  const factory = make ?? makeExecute;
  const root = await mkdtemp(join(tmpdir(), 'theinference-probe-'));
  const unmute = mute();
  try {
    const entries = request.calls.map((): Observed => ({ calls: [] }));
    const done = request.calls.map(async (call, k) => {
      const entry = entries[k]!;
      const input = structuredClone(call.input);
      const spy: Record<string, unknown> = { root };
      for (const method of request.methods) {
        spy[method] = function (this: unknown, ...args: unknown[]) {
          entry.calls.push({
            method,
            args: args.map((a) => encode(a, input)),
            ...(this === spy ? {} : { unbound: true }),
          });
          return Promise.resolve(structuredClone(call.answer));
        };
      }
      entry.pending = true;
      try {
        const result = await factory(spy as unknown as Tools)(call.tool, input);
        entry.result = encode(result, input);
      } catch (error) {
        entry.threw = describeThrow(error);
      }
      delete entry.pending;
    });
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(done), new Promise((ready) => (timer = setTimeout(ready, PROBE_WAIT_MS)))]);
    clearTimeout(timer);
    return entries.map((e) => ({ ...e, calls: [...e.calls] }));
  } finally {
    unmute();
    await removeSandbox(root);
  }
}

function isObserveRequest(value: unknown): value is ObserveRequest {
  return (
    isObject(value) &&
    Array.isArray(value.methods) &&
    value.methods.every((m) => typeof m === 'string') &&
    Array.isArray(value.calls) &&
    value.calls.every((c: unknown) => isObject(c) && typeof c.tool === 'string' && isObject(c.input))
  );
}

// Silences stdout and stderr (writes are dropped, their callbacks still called) until the last of the probes
// running at once returns what it was given.
let muted: { count: number; saved: [typeof process.stdout.write, typeof process.stderr.write] } | undefined;
function mute(): () => void {
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

// A value as JSON can carry it, saying what JSON cannot: `{"$":"undefined"}`, the call's own input object
// (`{"$":"input"}`), a promise, a function, an instance of a class, an object that has a key "$" of its own.
function encode(value: unknown, input: unknown, depth = 0): unknown {
  try {
    if (value === input) return { $: 'input' };
    if (value === undefined) return { $: 'undefined' };
    if (value === null || typeof value === 'boolean') return value;
    if (typeof value === 'string') return value.length > 500 ? `${value.slice(0, 500)}…` : value;
    if (typeof value === 'number') return Number.isFinite(value) ? value : { $: 'number', text: String(value) };
    if (typeof value !== 'object') return { $: typeof value };
    if (typeof (value as { then?: unknown }).then === 'function') return { $: 'promise' };
    if (depth >= 4) return { $: 'deep' };
    if (Array.isArray(value)) return value.slice(0, 20).map((v) => encode(v, input, depth + 1));
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) {
      return { $: 'instance', name: String(prototype?.constructor?.name ?? '?') };
    }
    const entries = Object.entries(value).slice(0, 20);
    const object = Object.fromEntries(entries.map(([k, v]) => [k, encode(v, input, depth + 1)]));
    return '$' in object ? { $: 'object', value: object } : object;
  } catch {
    return { $: 'unreadable' };
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
