// The course driver: one program.ts for every stage, a mode per stage. Provided by the course: students do not edit it.
//
//   tsx program.ts dispatch <case.json> [<case.json> …]    stage "Register the toolset": run case files by hand
//   tsx program.ts dispatch -                              read cases from stdin, one JSON object per line,
//                                                          until it ends (how the grader runs it)
//   tsx program.ts loop <case.json> […] | loop -           stage "Run the loop", the same two ways (below)
//
// dispatch: for each case, in order: seed a fresh temporary sandbox from its `files`, build `Tools` and
// `makeExecute` from ./src, call `execute(tool, input)` for each entry of `calls` (awaiting each), print one line
// `{"results":[…]}` on stdout, and remove the sandbox. Several cases in one run share nothing but the
// process: each gets its own sandbox, its own `Tools` and its own `execute`. Reading stdin, it also prints
// `{"calling":{"call":2,"of":3,"tool":"echo"}}` before each call, so that the grader can say which call hangs.
//
// Results never depend on where the sandbox lives: its path (and realpath) in any result string becomes
// SANDBOX_PLACEHOLDER, and the placeholder in a case's inputs and symlink targets becomes the real path.
//
// Probe mode (dispatch): when a case read from stdin carries `observe` (the grader puts it in the first line it sends, a case
// with no calls), then once every case has printed its results, `makeExecute` is run against a stand-in `Tools`
// that records each call and its arguments and answers what the grader asked for, and one more line is printed:
// `{"observed":[…]}`, what happened in each call. The grader infers the dispatcher's mistakes from it.
//
// A course directory holds only the stages it has reached, so each mode loads its modules when it starts, by a
// path worked out at run time (the type checker then does not look for a stage's files in a course without them).
import { chmod, lstat, mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

// What the sandbox's path reads as in results, and expands to in a case's inputs.
export const SANDBOX_PLACEHOLDER = '<sandbox>';

type FileSpec = string | { base64: string } | { symlink: string };
type Call = { tool: string; input: Record<string, unknown> };
type Case = { files?: Record<string, FileSpec>; calls: Call[]; observe?: unknown };

// Awaited before each call with its number (from 1), the number of calls, and its tool.
type BeforeCall = (call: number, of: number, tool: string) => Promise<void>;

// The loop's one verb, as the course's code gives it: a tool name and the input the model sent; its output as it
// is or as a promise (awaited either way).
type Execute = (name: string, input: any) => unknown;
type MakeExecute = (tools: any) => Execute;

// The named exports of a module of the course directory (its path from here), failing as a static import would
// when one is missing.
async function courseExports<T>(path: string, names: string[]): Promise<T> {
  const module = (await import(new URL(path, import.meta.url).href)) as Record<string, unknown>;
  const missing = names.find((name) => !(name in module));
  if (missing !== undefined) {
    throw new SyntaxError(`The requested module '${path}' does not provide an export named '${missing}'`);
  }
  return module as T;
}

type Dispatcher = { Tools: new (root: string) => unknown; makeExecute: MakeExecute };
let loaded: Promise<Dispatcher> | undefined;

// The stage's modules: the Tools of the earlier stages and the student's makeExecute. Imported once per process
// (a module is evaluated once however often it is imported, and each import() costs a trip through the loader's
// hooks, about 1 ms under tsx: a tenth of a typical case).
function dispatcher(): Promise<Dispatcher> {
  loaded ??= (async () => {
    const { Tools } = await courseExports<{ Tools: Dispatcher['Tools'] }>('./src/tools/index.ts', ['Tools']);
    const { makeExecute } = await courseExports<{ makeExecute: MakeExecute }>('./src/execute.ts', ['makeExecute']);
    return { Tools, makeExecute };
  })();
  return loaded;
}

// Runs one case in a fresh sandbox and returns its results, ready to print. `make` is the dispatcher
// factory under test: the student's own by default (tests of the suite pass others).
export async function dispatch(testCase: Case, make?: MakeExecute, beforeCall?: BeforeCall): Promise<unknown[]> {
  const { Tools, makeExecute } = await dispatcher();
  const sandbox = await mkdtemp(join(tmpdir(), 'theinference-sandbox-'));
  try {
    const real = await realpath(sandbox);
    await seed(sandbox, testCase.files ?? {});
    const execute = (make ?? makeExecute)(new Tools(sandbox));
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
  // The directories made so far, and whether a link is among what was seeded: until one is, the fresh sandbox
  // holds only what this loop made, and a checked path cannot leave it.
  const made = new Set([sandbox]);
  let linked = false;
  for (const [path, spec] of Object.entries(files)) {
    // dispatch is also called without parseCase (the recorder's replay worker): a path that names the sandbox
    // itself or leaves it must never be written, whoever built the case.
    const problem = seedPathProblem(path);
    if (problem !== undefined) throw new Error(problem);
    const target = join(sandbox, path);
    // A seeded symlink may point anywhere (the escape cases point one at /etc), but nothing is written
    // through one that leads out of the sandbox.
    if (linked && !(await staysInside(sandbox, target))) {
      throw new Error(`"files"["${path}"] would be written outside the sandbox, through a symlink seeded before it`);
    }
    if (linked || !made.has(dirname(target))) {
      await mkdir(dirname(target), { recursive: true });
      for (let at = dirname(target); !made.has(at); at = dirname(at)) made.add(at);
    }
    linked ||= typeof spec !== 'string' && 'symlink' in spec;
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

// ─── probe: how the dispatcher calls the Tools (stage "Register the toolset") ───────────────────────────────────

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
export async function observe(request: unknown, make?: MakeExecute): Promise<Observed[] | { error: string }> {
  if (!isObserveRequest(request)) return { error: 'the request is not { methods, calls }' };
  const factory = make ?? (await dispatcher()).makeExecute;
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
        const result = await factory(spy)(call.tool, input);
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

// ─── loop: the stage "Run the loop" ───────────────────────────────────────────────────────────────────────────
//
// For each case: a fake Messages API on 127.0.0.1 (this process's loopback; in the grader's sandbox, a network of
// its own), a real Anthropic client pointed at it, and runLoop(client, execute, request) from ./src/agent-loop.ts.
// The API answers the case's turns in order, one per POST /v1/messages: the turn's message as JSON or, when the
// request streams, as server-sent events (the bytes the case recorded, else events made from the message). It
// records what each request asked for; a request past the script is answered with an error, and recorded too.
// The scripted execute answers the tool_use blocks of the turns served, in order, with the case's output for each.
// Results: `{"request":{…}}` per request, then `{"returned":[…]}` (the conversation) or `{"threw":"…"}`. Reading
// stdin, it prints `{"calling":{"call":k,"of":n,"tool":"request"}}` as the loop heads for request k (before runLoop
// starts, then as each turn is served), so that the grader can say after which turn a loop hung.
//
// Probe mode (loop): as for dispatch, the first case read from stdin may carry `observe`, here
// `{"scripts":[…]}`, each a case of its own (request, turns, outputs). Once every case has printed its results,
// runLoop runs each script at once, against a fake API of its own, and one more line is printed:
// `{"observed":[…]}`, for each script the requests it sent (whole) and how it ended.

type Json = Record<string, unknown>;
type Turn = { message: Json & { content: Json[]; stop_reason?: unknown }; stream?: string };
type Scripted = { content: string; is_error?: boolean } | { throws: string };
type LoopCase = { request?: Json; turns: Turn[]; outputs: Record<string, Scripted>; observe?: unknown };
type RunLoop = (client: unknown, execute: Execute, request: Json) => Promise<unknown>;
type Client = new (options: { apiKey: string; baseURL: string; maxRetries: number; timeout: number }) => unknown;

// What a request asked for, in the keys of runLoop's request: the rest (`stream: true` above all) is how it asked.
export const REQUEST_KEYS = ['model', 'max_tokens', 'system', 'tools', 'messages'];
const SDK = '@anthropic-ai/sdk';

async function anthropicClient(): Promise<Client> {
  return ((await import(SDK)) as { default: Client }).default;
}

async function studentLoop(): Promise<RunLoop> {
  return (await courseExports<{ runLoop: RunLoop }>('./src/agent-loop.ts', ['runLoop'])).runLoop;
}

// Runs one case's loop against its script and returns its results, ready to print. `runLoop` is the loop under
// test: the student's own by default (tests of the suite pass others). A case without turns runs nothing.
export async function runLoopCase(testCase: LoopCase, runLoop?: RunLoop, beforeTurn?: BeforeCall): Promise<unknown[]> {
  if (testCase.turns.length === 0) return [];
  const [Anthropic, loop] = await Promise.all([anthropicClient(), runLoop ?? studentLoop()]);
  const api = await startFakeApi(testCase, beforeTurn);
  try {
    await beforeTurn?.(1, testCase.turns.length, 'request');
    // The SDK warns at every request naming a model it lists as deprecated: a recorded case's model is the
    // recording's, not the student's choice, so that warning is not shown as the program's output.
    const warn = console.warn;
    console.warn = (...args: unknown[]) => {
      if (!/^The model '[^']*' is deprecated/.test(String(args[0]))) warn(...args);
    };
    try {
      const end = await loopEnd(Anthropic, loop, api, testCase);
      return [...compacted(api.requests), end];
    } finally {
      console.warn = warn;
    }
  } finally {
    await api.close();
  }
}

// Runs the loop once against a fake API, with a real client pointed at it: how it ended, `{"returned":[…]}` (the
// conversation, as JSON carries it) or `{"threw":"…"}`.
async function loopEnd(Anthropic: Client, loop: RunLoop, api: FakeApi, testCase: LoopCase): Promise<unknown> {
  // No retries: a request the script refuses is the loop's to handle, once.
  const client = new Anthropic({
    apiKey: 'theinference-fake-api-key',
    baseURL: api.url,
    maxRetries: 0,
    timeout: 60_000,
  });
  try {
    const returned = await loop(client, api.execute, structuredClone(testCase.request ?? {}));
    return { returned: JSON.parse(JSON.stringify(returned ?? null)) };
  } catch (error) {
    return { threw: describeThrow(error) };
  }
}

// What one script of the loop probe saw: every request whole (as the API received it), then `{"returned":…}`,
// `{"threw":…}` or, not settled by LOOP_PROBE_WAIT_MS, `{"pending":true}`.
type LoopObserved = { requests: unknown[]; end: unknown };

// How long the loop probe waits for its scripts: a few requests to 127.0.0.1 each, all at once, so only a loop that
// never returns takes longer.
const LOOP_PROBE_WAIT_MS = 1000;

// Runs each of the probe's scripts through runLoop (the student's own by default), all at once, while whatever
// the code under test prints goes nowhere.
export async function observeLoops(request: unknown, runLoop?: RunLoop): Promise<LoopObserved[] | { error: string }> {
  const scripts = isObject(request) && Array.isArray(request.scripts) ? request.scripts : undefined;
  if (scripts === undefined) return { error: 'the request is not { scripts }' };
  let parsed: LoopCase[];
  try {
    parsed = scripts.map((script) => parseLoopCase(JSON.stringify(script)));
  } catch (error) {
    return { error: `a script is not a loop case: ${describeThrow(error)}` };
  }
  const [Anthropic, loop] = await Promise.all([anthropicClient(), runLoop ?? studentLoop()]);
  const unmute = mute();
  // A loop that does not await execute leaves the promise of a script's throwing tool rejected with no one to hear
  // it: the probe only watches, so that must not end the process before it has said what it saw.
  const unheard = (): void => {};
  process.on('unhandledRejection', unheard);
  let apis: FakeApi[] = [];
  try {
    // Every API listening before any loop starts, so that all are closed however the wait ends.
    const started = await Promise.allSettled(parsed.map((script) => startFakeApi(script)));
    apis = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const failed = started.find((s) => s.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    const seen = parsed.map((): LoopObserved => ({ requests: [], end: { pending: true } }));
    const done = parsed.map(async (script, k) => {
      const entry = seen[k]!;
      entry.requests = apis[k]!.requests;
      entry.end = await loopEnd(Anthropic, loop, apis[k]!, script);
    });
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise((ready) => (timer = setTimeout(ready, LOOP_PROBE_WAIT_MS)));
    const all = Promise.all(done);
    all.catch(() => {}); // a script that fails after the wait is over is no one's to hear
    await Promise.race([all, waited]);
    clearTimeout(timer);
    return seen.map((e) => ({ requests: [...e.requests], end: e.end }));
  } catch (error) {
    // No fake API could listen: the probe sees nothing, and the grader's hints stand alone.
    return { error: describeThrow(error) };
  } finally {
    unmute();
    await Promise.all(apis.map((api) => api.close()));
    process.off('unhandledRejection', unheard);
  }
}

// The requests as results, each said once: a field the same as in the request before it is named in `as_before`
// (not repeated), and messages that begin with all of the request before's are given as `new_messages`, the ones
// after them. Lossless (the grader expands them back), and a long session's results grow with it, not its square.
function compacted(requests: unknown[]): unknown[] {
  let before: Json | undefined;
  return requests.map((entry) => {
    const request = isObject(entry) && isObject(entry.request) ? entry.request : undefined;
    if (request === undefined) return entry;
    const previous = before;
    before = request;
    if (previous === undefined) return entry;
    const same = (k: string) => k in previous && k in request && canonical(previous[k]) === canonical(request[k]);
    const kept = REQUEST_KEYS.filter((k) => k !== 'messages' && same(k));
    const out: Json = Object.fromEntries(Object.entries(request).filter(([k]) => !kept.includes(k)));
    const [had, has] = [previous.messages, request.messages];
    if (
      Array.isArray(had) &&
      Array.isArray(has) &&
      has.length >= had.length &&
      canonical(has.slice(0, had.length)) === canonical(had)
    ) {
      delete out.messages;
      out.new_messages = has.slice(had.length);
    }
    return { request: { ...(kept.length > 0 ? { as_before: kept } : {}), ...out } };
  });
}

type FakeApi = { url: string; requests: unknown[]; execute: Execute; close: () => Promise<void> };

async function startFakeApi(testCase: LoopCase, beforeTurn?: BeforeCall): Promise<FakeApi> {
  const requests: unknown[] = [];
  // The tool_use blocks of the turns served that execute has not answered yet, in order.
  const waiting: Json[] = [];
  const turns = testCase.turns.length;
  let sent = 0;
  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const text = await readBody(req);
    if (req.method !== 'POST' || (req.url ?? '').split('?')[0] !== '/v1/messages') {
      requests.push({ other: `${req.method} ${req.url}` });
      const only = `theinference's fake Messages API answers POST /v1/messages only, not ${req.method} ${req.url}`;
      return apiError(res, 404, 'not_found_error', only);
    }
    const body = parseObject(text);
    requests.push({ request: Object.fromEntries(REQUEST_KEYS.filter((k) => k in body).map((k) => [k, body[k]])) });
    sent += 1;
    const turn = testCase.turns[sent - 1];
    await beforeTurn?.(sent + 1, turns, 'request');
    if (turn === undefined) {
      const past = `theinference: request ${sent} is past the end of the script (${turns} turns): after a turn whose stop_reason is not "tool_use", the loop returns`;
      return apiError(res, 400, 'invalid_request_error', past);
    }
    if (turn.message.stop_reason === 'tool_use') waiting.push(...turn.message.content.filter(isToolUse));
    const stream = body.stream === true;
    res.writeHead(200, { 'content-type': stream ? 'text/event-stream' : 'application/json' });
    res.end(stream ? (turn.stream ?? eventStream(turn.message)) : JSON.stringify(turn.message));
  };
  const server = createServer((req, res) => void answer(req, res).catch(() => res.destroy()));
  await new Promise<void>((listening, failed) => server.once('error', failed).listen(0, '127.0.0.1', listening));
  // A call that is not the next tool_use's is refused with an error result that says so (it shows in the results).
  const refuse = (why: string) => ({ content: `theinference's scripted execute: ${why}`, is_error: true });
  const execute: Execute = async (name, input) => {
    const next = waiting[0];
    const call = `execute(${JSON.stringify(name)}, ${JSON.stringify(input)})`;
    if (next === undefined) return refuse(`${call} was called, but no tool_use is waiting for a result`);
    const asks = (block: Json) => name === block.name && canonical(input) === canonical(block.input);
    if (!asks(next)) {
      const asked = `execute(${JSON.stringify(next.name)}, ${JSON.stringify(next.input)})`;
      const later = waiting.find(asks);
      if (later === undefined) return refuse(`${call} is not the call tool_use ${next.id} asks for, ${asked}`);
      return refuse(`${call} is tool_use ${later.id}'s call, made before tool_use ${next.id}'s, ${asked}`);
    }
    waiting.shift();
    const output = testCase.outputs[String(next.id)];
    if (output !== undefined && 'throws' in output) throw new Error(output.throws);
    return { ...output };
  };
  const close = async (): Promise<void> => {
    server.closeAllConnections();
    await new Promise((closed) => server.close(closed));
  };
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, execute, close };
}

function isToolUse(block: Json): boolean {
  return block.type === 'tool_use';
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseObject(text: string): Json {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : {};
  } catch {
    return {};
  }
}

// An error as the Messages API words one; the SDK throws it as an APIError of that status.
function apiError(res: ServerResponse, status: number, type: string, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ type: 'error', error: { type, message } }));
}

// The events the Messages API streams for a message: each block started empty, its text, thinking, signature or
// input sent as one delta, and stopped; the SDK's accumulation of them gives back the message's blocks exactly.
function eventStream(message: Turn['message']): string {
  const { content, stop_reason, stop_sequence, usage, ...head } = message;
  const events: Json[] = [
    { type: 'message_start', message: { ...head, content: [], stop_reason: null, stop_sequence: null, usage } },
  ];
  content.forEach((block, index) => {
    const [start, deltas] = streamedBlock(block);
    events.push({ type: 'content_block_start', index, content_block: start });
    for (const delta of deltas) events.push({ type: 'content_block_delta', index, delta });
    events.push({ type: 'content_block_stop', index });
  });
  const output_tokens = (usage as Json | undefined)?.output_tokens ?? 0;
  events.push({
    type: 'message_delta',
    delta: { stop_reason, stop_sequence: stop_sequence ?? null },
    usage: { output_tokens },
  });
  events.push({ type: 'message_stop' });
  return events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join('');
}

function streamedBlock(block: Json): [start: Json, deltas: Json[]] {
  switch (block.type) {
    case 'text':
      return [{ ...block, text: '' }, [{ type: 'text_delta', text: block.text }]];
    case 'thinking':
      return [
        { ...block, thinking: '', signature: '' },
        [
          { type: 'thinking_delta', thinking: block.thinking },
          { type: 'signature_delta', signature: block.signature },
        ],
      ];
    case 'tool_use':
      return [{ ...block, input: {} }, [{ type: 'input_json_delta', partial_json: JSON.stringify(block.input) }]];
    default:
      return [block, []]; // redacted_thinking and the like arrive whole
  }
}

// JSON text with every object's keys sorted: equal for equal values whatever the key order.
function canonical(value: unknown): string {
  const sorted = (_: string, v: unknown) =>
    isObject(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v;
  return JSON.stringify(value, sorted) ?? 'undefined';
}

// Checks one loop case's JSON (the grader validates it against cases/agent-loop.schema.json too); the error says
// which field is wrong so the author can fix it.
function parseLoopCase(text: string): LoopCase {
  const parsed: unknown = JSON.parse(text);
  if (!isObject(parsed)) throw new Error('a case must be a JSON object');
  const { request, turns, outputs = {} } = parsed;
  if (!Array.isArray(turns)) throw new Error('"turns" must be an array of { "message": {…} }');
  const observe = parsed.observe === undefined ? {} : { observe: parsed.observe };
  // The grader's startup probe: it proves the program loads, and runs nothing.
  if (turns.length === 0) return { turns: [], outputs: {}, ...observe };
  const shape = isObject(request)
    ? [typeof request.model, typeof request.max_tokens, Array.isArray(request.tools), Array.isArray(request.messages)]
    : [];
  if (shape.join() !== 'string,number,true,true') {
    throw new Error('"request" must be { "model": string, "max_tokens": number, "tools": […], "messages": […] }');
  }
  if (!isObject(outputs))
    throw new Error('"outputs" must be an object of tool_use id -> { "content": … } or { "throws": … }');
  turns.forEach((turn: unknown, i) => {
    const message = isObject(turn) ? turn.message : undefined;
    if (
      !isObject(turn) ||
      !isObject(message) ||
      !Array.isArray(message.content) ||
      !['string', 'undefined'].includes(typeof turn.stream)
    ) {
      throw new Error(`"turns"[${i}] must be { "message": { "content": […], "stop_reason": … }, "stream"?: string }`);
    }
    if (message.stop_reason !== 'tool_use') return;
    for (const block of message.content.filter(isObject).filter(isToolUse)) {
      const output = outputs[String(block.id)];
      const scripted = isObject(output) && (typeof output.content === 'string' || typeof output.throws === 'string');
      if (!scripted)
        throw new Error(
          `"outputs" has no { "content": … } or { "throws": … } for tool_use ${block.id} of turn ${i + 1}`,
        );
    }
  });
  return { request, turns, outputs, ...observe } as LoopCase;
}

// ─── main ─────────────────────────────────────────────────────────────────────────────────────────────────────────

// A mode once its modules are loaded: how it reads a case, runs it, and words a failure outside the code under test.
type Mode = {
  parse: (text: string) => unknown;
  run: (testCase: any, beforeCall?: BeforeCall) => Promise<unknown[]>;
  cannot: string;
  // The probe, for a mode that has one: what the grader's `observe` request (on the first case read from stdin)
  // asks, answered as one more line `{"observed":…}` after every case's results.
  probe?: (request: unknown) => Promise<unknown>;
};

// Each mode loads the stage's modules before reading any case, so that code which does not load fails at once.
const MODES: Record<string, () => Promise<Mode>> = {
  dispatch: async () => {
    await dispatcher();
    // execute's throws are recorded per call, so what fails outside them is seeding: the case's `files` are wrong.
    return {
      parse: parseCase,
      run: (c, before) => dispatch(c, undefined, before),
      cannot: 'cannot seed case',
      probe: (request) => observe(request),
    };
  },
  loop: async () => {
    await Promise.all([anthropicClient(), studentLoop()]);
    // runLoop's throws are its results, so what fails outside it is the fake API (no loopback to listen on).
    return {
      parse: parseLoopCase,
      run: (c, before) => runLoopCase(c, undefined, before),
      cannot: 'cannot run case',
      probe: (request) => observeLoops(request),
    };
  },
};

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  const start = command === undefined ? undefined : MODES[command];
  if (start === undefined || !Object.hasOwn(MODES, command!) || args.length === 0) {
    process.stderr.write(
      'usage: tsx program.ts dispatch <case.json> [<case.json> …]\n       tsx program.ts dispatch -   (cases as JSON lines on stdin)\n' +
        '       tsx program.ts loop <case.json> [<case.json> …]\n       tsx program.ts loop -       (cases as JSON lines on stdin)\n',
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
  const mode = await start();
  let request: unknown;
  // Each case is checked before it runs; a bad one stops the run (the cases before it have printed).
  for await (const { where, read } of caseSource(args)) {
    let testCase: unknown;
    try {
      testCase = mode.parse(await read());
    } catch (error) {
      process.stderr.write(`error: cannot read case ${where}: ${describeThrow(error)}\n`);
      return 2;
    }
    if (fromStdin(args) && mode.probe !== undefined) request ??= (testCase as { observe?: unknown }).observe;
    let results: unknown[];
    try {
      results = await mode.run(testCase, beforeCall);
    } catch (error) {
      process.stderr.write(`error: ${mode.cannot} ${where}: ${describeThrow(error)}\n`);
      return 2;
    }
    await print({ results });
  }
  if (request === undefined || mode.probe === undefined) return 0;
  await print({ observed: await mode.probe(request) });
  // What the probe started and never finished (a timer its code keeps waiting on) must not keep the process up.
  process.exit(0);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
