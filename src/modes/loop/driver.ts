// The driver's mode `loop` (stage "Run the loop"), the loop's side of a case: runLoop(client, execute, request)
// from the course's src/agent-loop.ts (the module and export its row in src/course/stages.ts names), with a real Anthropic client pointed at a local HTTP server on 127.0.0.1 (this
// process's loopback; in the grader's sandbox, a network of its own) and an execute. Both only forward: each request
// the SDK sends, and each call of execute, goes to the case's fake Messages API (./fake-api.ts), which answers with
// the case's turns in order (the turn's message as JSON or, when the request streams, as server-sent events) and the
// scripted outputs, records both, and makes the case's results from its records. Run by the grader
// (`<driver> loop -` with a channel: ./serve.ts), that API lives in the grader's process, across the sandbox, and
// this process never holds a turn not yet served, another case, or a line the grader reads as a result: it asks
// for its next case, runs it, and says how runLoop ended, `{"returned":[…]}` (the conversation, as JSON carries it)
// or `{"threw":"…"}`, with the request as runLoop left it. Run on case files (`program.ts loop <case.json>`) or
// in-process (the audit), the API is beside it, in this process. Another loop-kind mode is this one parameterised
// (`loopDriver`, ./options.ts `LoopOptions`, and `loopServe` of ./serve.ts).
//
// Probe: the grader's first case may carry `observe`, here `{"scripts":[…]}`, each a case of its own (request,
// turns, outputs). Once every case has run, runLoop runs each script at once, against a fake API of its own: the
// grader observes, for each script, the requests it sent (whole), its calls and how it ended.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { firstStageIn, type StudentCode, studentCode } from '../../course/stages.ts';
import type { Channel } from '../channel.ts';
import type { DriverMode } from '../driver-mode.ts';
import {
  type BeforeCall,
  courseExports,
  courseUrl,
  describeThrow,
  type Execute,
  isObject,
  type Json,
  mute,
} from '../kit.ts';
import { killLeftovers, processesBelow } from '../leftovers.ts';
import { type LoopCase, type LoopObserved, openFakeApi } from './fake-api.ts';
import { givenAsJson, type LoopEnd, type LoopLink } from './link.ts';
import type { LoopOptions } from './options.ts';
import { describeLoopThrow } from './loop-throw.ts';
import { parseLoopCase } from './parse-case.ts';

export type { LoopCase } from './fake-api.ts';
export type { LoopOptions } from './options.ts';
export { parseLoopCase } from './parse-case.ts';

export type RunLoop = (client: unknown, execute: Execute, request: Json) => Promise<unknown>;
type Client = new (options: { apiKey: string; baseURL: string; maxRetries: number; timeout: number }) => unknown;

// The SDK the fake API's client is made with: the package's own (the course's code imports only its types).
async function anthropicClient(): Promise<Client> {
  return ((await import('@anthropic-ai/sdk')) as { default: Client }).default;
}

// The loop a case runs when the caller gives none: the course's, the module and export of the loop mode's first
// stage (tests of the suite run the reference this way, from the package root).
const FIRST_LOOP: StudentCode = studentCode(firstStageIn('loop')!);

async function studentLoop(course: URL, code: StudentCode = FIRST_LOOP): Promise<RunLoop> {
  return (await courseExports<Record<string, RunLoop>>(course, code.module, [code.export]))[code.export]!;
}

// Runs one case's loop against its script, in this process, and returns its results, ready to print. `runLoop` is
// the loop under test: the student's own by default (tests of the suite pass others). A case without turns runs
// nothing. `options`: the mode's, for a mode built on this one.
export async function runLoopCase(
  testCase: LoopCase,
  runLoop?: RunLoop,
  beforeTurn?: BeforeCall,
  course: URL = courseUrl(),
  options: LoopOptions = {},
): Promise<unknown[]> {
  if (testCase.turns.length === 0) return [];
  const [Anthropic, loop] = await Promise.all([anthropicClient(), runLoop ?? studentLoop(course)]);
  const api = openFakeApi(testCase, beforeTurn, options);
  await beforeTurn?.(1, testCase.turns.length, 'request');
  return api.results(await loopEnd(Anthropic, loop, api, options.around));
}

// What a mode's `around` does on the loop's side: sets up each run, and says what it adds to the run's end.
type Around = LoopOptions['around'];

// Runs the loop once against a fake API reached through `link`, with a real client pointed at a local server that
// forwards to it, within the mode's `around` when it has one: how it ended, the request as it left it, and what
// `around` adds.
export async function loopEnd(Anthropic: Client, loop: RunLoop, link: LoopLink, around?: Around): Promise<LoopEnd> {
  if (around === undefined) return runOnce(Anthropic, loop, link);
  let end: LoopEnd | undefined;
  const added = await around(async () => {
    end = await runOnce(Anthropic, loop, link);
  }, link.setup);
  return { ...end!, added };
}

async function runOnce(Anthropic: Client, loop: RunLoop, link: LoopLink): Promise<LoopEnd> {
  const server = await forwardingServer(link);
  // The SDK warns at every request naming a model it lists as deprecated: a recorded case's model is the
  // recording's, not the student's choice, so that warning is not shown as the program's output.
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (!/^The model '[^']*' is deprecated/.test(String(args[0]))) warn(...args);
  };
  try {
    // No retries: a request the script refuses is the loop's to handle, once.
    const client = new Anthropic({
      apiKey: 'theinference-fake-api-key',
      baseURL: server.url,
      maxRetries: 0,
      timeout: 60_000,
    });
    const given = structuredClone(link.request);
    let end: { returned: unknown } | { threw: string };
    try {
      const returned = await loop(client, forwardingExecute(link), given);
      end = { returned: JSON.parse(JSON.stringify(returned ?? null)) };
    } catch (error) {
      end = { threw: describeLoopThrow(error) };
    }
    let said: Record<string, string>;
    try {
      said = givenAsJson(given);
    } catch (error) {
      said = { messages: JSON.stringify(`not JSON: ${describeThrow(error)}`) };
    }
    return { ...end, given: said };
  } finally {
    console.warn = warn;
    await server.close();
  }
}

// The execute runLoop is given: each call goes to the fake API as JSON carries it, and its answer comes back as an
// output or a throw. A loop that never awaits execute leaves a throwing tool's promise rejected with no one to hear
// it, and Node ends the process for that. The mistake is the missing await, which the results already show (a
// tool_result without content) and the hint names: so the promise is heard here, and whoever awaits it still gets
// the throw.
function forwardingExecute(link: LoopLink): Execute {
  const call = async (name: string, input: unknown) => {
    const answer = await link.execute(name, input === undefined ? undefined : JSON.parse(JSON.stringify(input)));
    if ('throws' in answer) throw new Error(answer.throws);
    return answer.output;
  };
  return (name, input) => {
    const output = call(name, input);
    output.catch(() => {});
    return output;
  };
}

// The local HTTP server the client talks to: each request's method, path and body go to the fake API, and its
// answer is written back as it comes.
async function forwardingServer(link: LoopLink): Promise<{ url: string; close: () => Promise<void> }> {
  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readBody(req);
    const reply = await link.http({ method: req.method ?? '', url: req.url ?? '', body });
    res.writeHead(reply.status, { 'content-type': reply.type });
    res.end(reply.body);
  };
  const server = createServer((req, res) => void answer(req, res).catch(() => res.destroy()));
  await new Promise<void>((listening, failed) => server.once('error', failed).listen(0, '127.0.0.1', listening));
  const close = async (): Promise<void> => {
    server.closeAllConnections();
    await new Promise((closed) => server.close(closed));
  };
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close };
}

// How long the loop probe waits for its scripts: a few requests each, all at once, so only a loop that never
// returns takes longer.
export const LOOP_PROBE_WAIT_MS = 3000;

// Runs each of the probe's scripts through runLoop (the student's own by default), all at once, in this process,
// while whatever the code under test prints goes nowhere.
export async function observeLoops(
  request: unknown,
  runLoop?: RunLoop,
  course: URL = courseUrl(),
  options: LoopOptions = {},
): Promise<LoopObserved[] | { error: string }> {
  const scripts = isObject(request) && Array.isArray(request.scripts) ? request.scripts : undefined;
  if (scripts === undefined) return { error: 'the request is not { scripts }' };
  let parsed: LoopCase[];
  try {
    parsed = scripts.map((script) => parseLoopCase(JSON.stringify(script), options));
  } catch (error) {
    return { error: `a script is not a loop case: ${describeThrow(error)}` };
  }
  const [Anthropic, loop] = await Promise.all([anthropicClient(), runLoop ?? studentLoop(course)]);
  const apis = parsed.map((script) => openFakeApi(script, undefined, options));
  const ends: unknown[] = apis.map(() => ({ pending: true }));
  try {
    await probeLoops(Anthropic, loop, apis, options.around, (k, end) => {
      ends[k] = apis[k]!.end(end);
    });
    return apis.map((api, k) => api.observed(ends[k]));
  } catch (error) {
    // No local server could listen: the probe sees nothing, and the grader's hints stand alone.
    return { error: describeThrow(error) };
  }
}

// Runs the loop on each link at once, muted, telling `ended` each end as it comes, until all have ended or
// LOOP_PROBE_WAIT_MS is over.
async function probeLoops(
  Anthropic: Client,
  loop: RunLoop,
  links: LoopLink[],
  around: Around,
  ended: (k: number, end: LoopEnd) => unknown,
): Promise<void> {
  const unmute = mute();
  // A promise of the loop's own left rejected with no one to hear it (a request it never awaited, say): the probe
  // only watches, so that must not end the process before it has said what it saw. (Execute's are heard already.)
  const unheard = (): void => {};
  process.on('unhandledRejection', unheard);
  try {
    const done = links.map(async (link, k) => ended(k, await loopEnd(Anthropic, loop, link, around)));
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise((ready) => (timer = setTimeout(ready, LOOP_PROBE_WAIT_MS)));
    const all = Promise.all(done);
    all.catch(() => {}); // a script that fails after the wait is over is no one's to hear
    await Promise.race([all, waited]);
    clearTimeout(timer);
  } finally {
    unmute();
    process.off('unhandledRejection', unheard);
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

// A loop-kind mode as the driver runs it: the loop mode's, or a mode built on it with its options. The SDK and the
// student's loop (the stage's module and export) load before any case is read; the loop's throws are its results,
// so what fails outside it is the fake API (no loopback to listen on).
export function loopDriver(options: LoopOptions = {}): DriverMode {
  return {
    start: async (course, code) => {
      const [Anthropic, loop] = await Promise.all([anthropicClient(), studentLoop(course, code)]);
      return {
        parse: options.parse ?? ((text) => parseLoopCase(text, options)),
        run: (testCase, beforeCall) => runLoopCase(testCase as LoopCase, loop, beforeCall, course, options),
        cannot: 'cannot run case',
        probe: (request) => observeLoops(request, loop, course, options),
        serve: (channel) => serveLoops(channel, Anthropic, loop, options.around),
      };
    },
  };
}

export const driver: DriverMode = loopDriver();

// The cases the grader hands out over the channel (./serve.ts), one at a time, each run against the fake API across
// it; then the probe's scripts, when the grader has them. Resolves to the exit code. What a case started and left
// running is killed before its end is said, so that it cannot burn CPU through the cases after it.
export async function serveLoops(channel: Channel, Anthropic: Client, loop: RunLoop, around?: Around): Promise<number> {
  let running = processesBelow();
  for (;;) {
    const next = await channel.ask({ op: 'next' });
    if (typeof next.case === 'string' && isObject(next.request)) {
      const link = channelLink(channel, next.case, next.request, isObject(next.setup) ? next.setup : undefined);
      const end = await loopEnd(Anthropic, loop, link, around);
      running = killLeftovers(running).running;
      await channel.ask({ op: 'end', case: next.case, end });
    } else if (Array.isArray(next.probe)) {
      const scripts = next.probe.filter(isObject);
      const links = scripts.map((s) => channelLink(channel, String(s.case), isObject(s.request) ? s.request : {}));
      await probeLoops(Anthropic, loop, links, around, (k, end) =>
        channel.ask({ op: 'end', case: scripts[k]!.case, end }),
      );
      await channel.ask({ op: 'probe-end' });
      // What the probe started and never finished (a timer its code keeps waiting on) must not keep the process up.
      process.exit(0);
    } else {
      if (typeof next.error === 'string') process.stderr.write(`error: ${next.error}\n`);
      channel.close();
      return next.error === undefined ? 0 : 2;
    }
  }
}

// One case's fake API across the channel, by the key the grader gave it.
function channelLink(channel: Channel, key: string, request: Json, setup?: Json): LoopLink {
  const ask = async (message: Json): Promise<never> => {
    const reply = await channel.ask({ ...message, case: key });
    if (typeof reply.error === 'string') throw new Error(`theinference: ${reply.error}`);
    return reply as never;
  };
  return {
    request,
    ...(setup === undefined ? {} : { setup }),
    http: (asked) => ask({ op: 'http', ...asked }),
    execute: (name, input) => ask({ op: 'execute', name, ...(input === undefined ? {} : { input }) }),
  };
}
