// The driver's mode `dispatch` (stage "Register the toolset"): for each case, in order, seed a fresh temporary
// sandbox from its `files`, build `Tools` and `makeExecute` from the course's src/, call `execute(tool, input)` for
// each entry of `calls` (awaiting each), give its results, and remove the sandbox. Several cases in one run share
// nothing but the process: each gets its own sandbox, its own `Tools` and its own `execute`.
//
// Before its first case, makeExecute is given a Tools of the driver's own (earlier-tools.ts), so that a dispatcher
// keeping the first Tools it was given fails each case, alone as after others.
//
// A call that returns but leaves a timer of its own running (a watchdog never cleared: left-timers.ts) gives
// `{ left_timer: { kind, ms }, result }` in place of its result: every result may be right while the agent's process
// lingers, and no case waits long enough to see it otherwise.
//
// Graded (`<driver> dispatch -` with a channel: ./serve.ts), the batch stays in the grader: this process asks for
// one case at a time, says before each call which it is, and gives the case's results over the channel, so it never
// holds another case and nothing it prints is read as a result. Run by hand on case files, it prints the lines.
//
// Results never depend on where the sandbox lives: its path (and realpath) in any result string becomes the
// `<sandbox>` placeholder (src/course/sandbox-placeholder.ts), and the placeholder in a case's inputs and symlink
// targets becomes the real path.
//
// Probe: when the grader's first case carries `observe`, then once every case has printed its results,
// `makeExecute` is run against a stand-in `Tools` that records each call and its arguments and answers what the
// grader asked for: `{"observed":[…]}`, what happened in each call. The grader infers the dispatcher's mistakes
// from it.
import { lstat, mkdir, mkdtemp, realpath, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { LEFT_TIMER } from '../../course/left-timer.ts';
import { SANDBOX } from '../../course/sandbox-placeholder.ts';
import { seedPathProblem } from '../../course/seed-path.ts';
import { firstStageIn, type StudentCode, studentCode } from '../../course/stages.ts';
import type { Channel } from '../channel.ts';
import type { DriverMode } from '../driver-mode.ts';
import { killLeftovers, processesBelow } from '../leftovers.ts';
import { giveEarlierTools } from './earlier-tools.ts';
import { oneCallAtATime, watchTimers } from './left-timers.ts';
import { abbreviate, padded } from './long-answer.ts';
import { removeAfterWork, watchTools } from './tools-at-work.ts';
import {
  type BeforeCall,
  courseExports,
  courseFrame,
  courseUrl,
  describeThrow,
  type Execute,
  isObject,
  mapStrings,
  mute,
  removeSandbox,
} from '../kit.ts';
import { type Case, type FileSpec, parseCase } from './parse-case.ts';

// The dispatcher factory under test.
type MakeExecute = (tools: any) => Execute;
type Dispatcher = { Tools: new (root: string) => unknown; makeExecute: MakeExecute };
const loaded = new Map<string, Promise<Dispatcher>>();

// The tools of the earlier stages are the course's (src/course/stages.ts `provides`): the package's own, never a
// copy in the graded directory, which could answer what the student's dispatcher should have.
function courseTools(): Promise<{ Tools: Dispatcher['Tools'] }> {
  return import('../../tools/index.ts');
}

// The dispatcher of a course when the caller names no stage: the module and export of the mode's first stage.
const FIRST_DISPATCHER: StudentCode = studentCode(firstStageIn('dispatch')!);

// The stage's modules: the Tools of the earlier stages and the student's makeExecute (`code`: the module and export
// the stage's row names). Imported once per process and course (a module is evaluated once however often it is
// imported, and each import() costs a trip through the loader's hooks, about 1 ms under tsx: a tenth of a typical
// case).
function dispatcher(course: URL, code: StudentCode = FIRST_DISPATCHER): Promise<Dispatcher> {
  const key = `${course.href}\u0000${code.module}\u0000${code.export}`;
  let modules = loaded.get(key);
  if (modules === undefined) {
    modules = (async () => {
      const { Tools } = await courseTools();
      const made = await courseExports<Record<string, MakeExecute>>(course, code.module, [code.export]);
      return { Tools, makeExecute: made[code.export]! };
    })();
    loaded.set(key, modules);
  }
  return modules;
}

// Runs one case in a fresh sandbox and returns its results, ready to print. `make` is the dispatcher
// factory under test: the student's own by default, `code` of the course (tests of the suite pass others).
export async function dispatch(
  testCase: Case,
  make?: MakeExecute,
  beforeCall?: BeforeCall,
  course: URL = courseUrl(),
  code?: StudentCode,
): Promise<unknown[]> {
  // A dispatcher given (the audit's, the suite's) is all that runs: the course's own is not loaded for it.
  const { Tools, makeExecute } =
    make === undefined ? await dispatcher(course, code) : { Tools: (await courseTools()).Tools, makeExecute: make };
  giveEarlierTools(makeExecute, Tools);
  const sandbox = await mkdtemp(join(tmpdir(), 'theinference-sandbox-'));
  const tools = new Tools(sandbox) as object;
  const atWork = watchTools(tools);
  try {
    const real = await realpath(sandbox);
    await seed(sandbox, testCase.files ?? {});
    const execute = makeExecute(tools);
    const results: unknown[] = [];
    for (const [i, call] of testCase.calls.entries()) {
      await beforeCall?.(i + 1, testCase.calls.length, call.tool);
      let result: unknown;
      try {
        const { value, left } = await watchTimers(async () => execute(call.tool, expand(call.input, sandbox)));
        result = left === undefined ? value : { [LEFT_TIMER]: left, result: value };
      } catch (error) {
        // A throw would unwind the agent loop; record it so the grader can show which call threw, and say where in
        // the student's code it was thrown, for the reports that put a failure on its line.
        result = { threw: describeThrow(error) };
        const at = courseFrame(error, course);
        if (at !== undefined)
          process.stderr.write(`execute threw ${describeThrow(error).split('\n')[0]}\n    at ${at}\n`);
      }
      results.push(hidePaths(result, [sandbox, real]));
    }
    return results;
  } finally {
    await removeAfterWork(atWork, () => removeSandbox(sandbox));
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
  return mapStrings(value, (s) => s.split(SANDBOX).join(sandbox)) as T;
}

// Replaces every spelling of the sandbox path with the placeholder, longest first so that a path
// which contains another is replaced whole.
function hidePaths(value: unknown, paths: string[]): unknown {
  const spellings = [...new Set(paths)].sort((a, b) => b.length - a.length);
  return mapStrings(value, (s) => spellings.reduce((text, p) => text.split(p).join(SANDBOX), s));
}

// The probe's request: the Tools methods to stand in for, and each call with what those methods answer; with
// `again`, the call is made a second time with the same input, through the same `execute`, the methods answering
// `again` then (a result reused from the first call shows); `long`, the answer's content is padded to that length
// (long-answer.ts).
type ObserveCall = {
  tool: string;
  input: Record<string, unknown>;
  answer: unknown;
  again?: unknown;
  long?: number;
  first?: { tool: string; input: Record<string, unknown> }[];
};
type ObserveRequest = { methods: string[]; calls: ObserveCall[] };
// What happened in one call: the stand-in's calls (method, arguments as `encode` writes them, and whether it was
// called on the Tools object), then the result, the error thrown, or that it had not settled by PROBE_WAIT_MS;
// `again`, the same for the call made a second time.
type Observed = {
  calls: { method: string; args: unknown[]; unbound?: true }[];
  result?: unknown;
  threw?: string;
  pending?: true;
  again?: Observed;
};

// How long the probe waits for its calls: the stand-in answers at once, so only a promise that never settles
// takes longer.
const PROBE_WAIT_MS = 250;

// Runs the probe's calls, each with a stand-in Tools and an `execute` of its own, all at once, while whatever the
// code under test prints goes nowhere; the stand-in's `root` is an empty directory.
export async function observe(
  request: unknown,
  make?: MakeExecute,
  course: URL = courseUrl(),
  code?: StudentCode,
): Promise<Observed[] | { error: string }> {
  if (!isObserveRequest(request)) return { error: 'the request is not { methods, calls }' };
  const factory = make ?? (await dispatcher(course, code)).makeExecute;
  giveEarlierTools(factory, (await courseTools()).Tools);
  const root = await mkdtemp(join(tmpdir(), 'theinference-probe-'));
  const roots = [root, await realpath(root)];
  const unmute = mute();
  try {
    const entries = request.calls.map((): Observed => ({ calls: [] }));
    const done = request.calls.map(async (call, k) => {
      // The entry the stand-in records into and the answer it gives: the first call's, then the second's.
      let entry = entries[k]!;
      let answer = lengthened(call);
      let input = structuredClone(call.input);
      const spy: Record<string, unknown> = { root };
      for (const method of request.methods) {
        spy[method] = function (this: unknown, ...args: unknown[]) {
          entry.calls.push({
            method,
            // The stand-in's root as the cases' results show a sandbox: `<sandbox>`, never this machine's path.
            args: args.map((a) => hidePaths(encode(a, input), roots)),
            ...(this === spy ? {} : { unbound: true }),
          });
          return Promise.resolve(structuredClone(answer));
        };
      }
      // makeExecute throwing for the stand-in is each call's throw (the judge then infers nothing).
      let execute: Execute;
      try {
        execute = factory(spy);
      } catch (error) {
        entry.threw = describeThrow(error);
        return;
      }
      // Calls made first through the same execute: only what they leave behind counts, not what they record.
      entry.pending = true;
      for (const earlier of call.first ?? []) {
        entry = { calls: [] };
        await Promise.resolve(execute(earlier.tool, structuredClone(earlier.input))).catch(() => undefined);
      }
      entry = entries[k]!;
      await settle(execute, call.tool, input, entry, roots);
      if (!('again' in call) || entry.threw !== undefined) return;
      entry = entries[k]!.again = { calls: [] };
      answer = call.again;
      input = structuredClone(call.input);
      await settle(execute, call.tool, input, entry, roots);
    });
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(done), new Promise((ready) => (timer = setTimeout(ready, PROBE_WAIT_MS)))]);
    clearTimeout(timer);
    return entries.map(snapshot);
  } finally {
    unmute();
    await removeSandbox(root);
  }
}

// One call of the probe, its result or throw recorded in `entry` (pending until it settles).
async function settle(
  execute: Execute,
  tool: string,
  input: Record<string, unknown>,
  entry: Observed,
  roots: string[],
): Promise<void> {
  entry.pending = true;
  try {
    entry.result = hidePaths(encode(await execute(tool, input), input), roots);
  } catch (error) {
    entry.threw = hidePaths(describeThrow(error), roots) as string;
  }
  delete entry.pending;
}

// An entry as it is when the probe stops waiting (a call still pending may record more later).
function snapshot(entry: Observed): Observed {
  return { ...entry, calls: [...entry.calls], ...(entry.again === undefined ? {} : { again: snapshot(entry.again) }) };
}

// A call's answer, its content padded when the call asks for a long one.
function lengthened(call: ObserveCall): unknown {
  const { answer, long } = call;
  if (typeof long !== 'number' || !isObject(answer) || typeof answer.content !== 'string') return answer;
  return { ...answer, content: padded(answer.content, long) };
}

function isObserveRequest(value: unknown): value is ObserveRequest {
  return (
    isObject(value) &&
    Array.isArray(value.methods) &&
    value.methods.every((m) => typeof m === 'string') &&
    Array.isArray(value.calls) &&
    value.calls.every(
      (c: unknown) =>
        isObject(c) &&
        typeof c.tool === 'string' &&
        isObject(c.input) &&
        (c.first === undefined ||
          (Array.isArray(c.first) &&
            c.first.every((f: unknown) => isObject(f) && typeof f.tool === 'string' && isObject(f.input)))),
    )
  );
}
// A value as JSON can carry it, saying what JSON cannot: `{"$":"undefined"}`, the call's own input object
// (`{"$":"input"}`), a promise, a function, an instance of a class, an object that has a key "$" of its own; a
// text past 500 characters by its ends and its length (`{"$":"text",…}`).
function encode(value: unknown, input: unknown, depth = 0): unknown {
  try {
    if (value === input) return { $: 'input' };
    if (value === undefined) return { $: 'undefined' };
    if (value === null || typeof value === 'boolean') return value;
    if (typeof value === 'string') return value.length > 500 ? abbreviate(value) : value;
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

// The mode as the driver runs it. The stage's modules load before any case is read, so that code which does not
// load fails at once; execute's throws are recorded per call, so what fails outside them is seeding: the case's
// `files` are wrong.
export const driver: DriverMode = {
  preload: courseTools,
  start: async (course, code) => {
    oneCallAtATime();
    await dispatcher(course, code);
    return {
      parse: parseCase,
      run: (testCase, beforeCall) => dispatch(testCase as Case, undefined, beforeCall, course, code),
      cannot: 'cannot seed case',
      probe: (request) => observe(request, undefined, course, code),
      serve: (channel) => serveDispatch(channel, course, code),
    };
  },
};

// The cases the grader hands out over the channel (./serve.ts): each is seeded and its calls made as on stdin, the
// grader told before each call (without waiting for its answer: once the message has left) and given the results at
// its end. The case after the one running is asked for before it runs, and each end asks for the case after that,
// whose answer is awaited only once the queued case has run: the process never waits on the grader between cases.
// Then the probe, when the grader has one. Resolves to the exit code. What a case started and left running is
// killed before its results are given, so that it cannot burn CPU through the cases after it.
async function serveDispatch(channel: Channel, course: URL, code: StudentCode): Promise<number> {
  let running = processesBelow();
  type Reply = Record<string, unknown>;
  const isCase = (reply: Reply): boolean => typeof reply.case === 'string' && Array.isArray(reply.calls);
  let next = await channel.ask({ op: 'next' });
  // The answer that brings the case after `next`: asked before `next` runs.
  let queued: Promise<Reply> | undefined = isCase(next) ? channel.ask({ op: 'next' }, 'ahead') : undefined;
  for (;;) {
    if (isCase(next)) {
      const testCase = { files: isObject(next.files) ? next.files : {}, calls: next.calls } as Case;
      const key = next.case as string;
      let results: unknown[];
      try {
        results = await dispatch(
          testCase,
          undefined,
          (call) => channel.tell({ op: 'calling', case: key, call }),
          course,
          code,
        );
      } catch (error) {
        process.stderr.write(`error: cannot seed case on stdin line ${key}: ${describeThrow(error)}\n`);
        queued?.catch(() => {});
        channel.close();
        return 2;
      } finally {
        running = killLeftovers(running).running;
      }
      const ended = channel.ask({ op: 'end', case: key, results, next: true }, 'ahead');
      const after = queued === undefined ? { later: true } : await channel.awaited(queued);
      // No case was queued (`later`: none is left): this case's end answers what comes once every case has ended.
      [next, queued] = after.later === true ? [await channel.awaited(ended), undefined] : [after, ended];
    } else if ('probe' in next) {
      await channel.ask({ op: 'observed', observed: await observe(next.probe, undefined, course, code) });
      // What the probe started and never finished (a timer its code keeps waiting on) must not keep the process up.
      process.exit(0);
    } else {
      if (typeof next.error === 'string') process.stderr.write(`error: ${next.error}\n`);
      // A case's end still on its way when a refusal came first is failed by the close, unheard.
      queued?.catch(() => {});
      channel.close();
      return next.error === undefined ? 0 : 2;
    }
  }
}
