// The driver's mode `loop` (stage "Run the loop"), the loop's side of a case: runLoop(client, execute, request)
// from the course's src/agent-loop.ts, with a real Anthropic client pointed at a local HTTP server on 127.0.0.1 (this
// process's loopback; in the grader's sandbox, a network of its own) and an execute. Both only forward: each request
// the SDK sends, and each call of execute, goes to the case's fake Messages API (./fake-api.ts), which answers with
// the case's turns in order (the turn's message as JSON or, when the request streams, as server-sent events) and the
// scripted outputs, records both, and makes the case's results from its records. Run by the grader
// (`<driver> loop -` with a channel: ./serve.ts), that API lives in the grader's process, across the sandbox, and
// this process never holds a turn not yet served, another case, or a line the grader reads as a result: it asks
// for its next case, runs it, and says how runLoop ended, `{"returned":[…]}` (the conversation, as JSON carries it)
// or `{"threw":"…"}`, with the request as runLoop left it. Run on case files (`program.ts loop <case.json>`) or
// in-process (the audit), the API is beside it, in this process.
//
// Probe: the grader's first case may carry `observe`, here `{"scripts":[…]}`, each a case of its own (request,
// turns, outputs). Once every case has run, runLoop runs each script at once, against a fake API of its own: the
// grader observes, for each script, the requests it sent (whole), its calls and how it ended.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
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

export type RunLoop = (client: unknown, execute: Execute, request: Json) => Promise<unknown>;
type Client = new (options: { apiKey: string; baseURL: string; maxRetries: number; timeout: number }) => unknown;

// The SDK the fake API's client is made with: the package's own (the course's code imports only its types).
async function anthropicClient(): Promise<Client> {
  return ((await import('@anthropic-ai/sdk')) as { default: Client }).default;
}

async function studentLoop(course: URL): Promise<RunLoop> {
  return (await courseExports<{ runLoop: RunLoop }>(course, './src/agent-loop.ts', ['runLoop'])).runLoop;
}

// Runs one case's loop against its script, in this process, and returns its results, ready to print. `runLoop` is
// the loop under test: the student's own by default (tests of the suite pass others). A case without turns runs
// nothing.
export async function runLoopCase(
  testCase: LoopCase,
  runLoop?: RunLoop,
  beforeTurn?: BeforeCall,
  course: URL = courseUrl(),
): Promise<unknown[]> {
  if (testCase.turns.length === 0) return [];
  const [Anthropic, loop] = await Promise.all([anthropicClient(), runLoop ?? studentLoop(course)]);
  const api = openFakeApi(testCase, beforeTurn);
  await beforeTurn?.(1, testCase.turns.length, 'request');
  return api.results(await loopEnd(Anthropic, loop, api));
}

// Runs the loop once against a fake API reached through `link`, with a real client pointed at a local server that
// forwards to it: how it ended, and the request as it left it.
export async function loopEnd(Anthropic: Client, loop: RunLoop, link: LoopLink): Promise<LoopEnd> {
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
      end = { threw: describeThrow(error) };
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
): Promise<LoopObserved[] | { error: string }> {
  const scripts = isObject(request) && Array.isArray(request.scripts) ? request.scripts : undefined;
  if (scripts === undefined) return { error: 'the request is not { scripts }' };
  let parsed: LoopCase[];
  try {
    parsed = scripts.map((script) => parseLoopCase(JSON.stringify(script)));
  } catch (error) {
    return { error: `a script is not a loop case: ${describeThrow(error)}` };
  }
  const [Anthropic, loop] = await Promise.all([anthropicClient(), runLoop ?? studentLoop(course)]);
  const apis = parsed.map((script) => openFakeApi(script));
  const ends: unknown[] = apis.map(() => ({ pending: true }));
  try {
    await probeLoops(Anthropic, loop, apis, (k, end) => {
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
  ended: (k: number, end: LoopEnd) => unknown,
): Promise<void> {
  const unmute = mute();
  // A promise of the loop's own left rejected with no one to hear it (a request it never awaited, say): the probe
  // only watches, so that must not end the process before it has said what it saw. (Execute's are heard already.)
  const unheard = (): void => {};
  process.on('unhandledRejection', unheard);
  try {
    const done = links.map(async (link, k) => ended(k, await loopEnd(Anthropic, loop, link)));
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

// The longest an output may keep execute waiting: enough to answer a turn's calls in any order, short of the
// case timeout (the schema says the same).
const MAX_DELAY_MS = 1000;

// Checks one loop case's JSON (the grader validates it against cases/agent-loop.schema.json too); the error says
// which field is wrong so the author can fix it.
export function parseLoopCase(text: string): LoopCase {
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
      const delay = output.delay_ms;
      if (
        delay !== undefined &&
        !(Number.isInteger(delay) && (delay as number) >= 0 && (delay as number) <= MAX_DELAY_MS)
      )
        throw new Error(
          `"outputs"."${block.id}".delay_ms must be a whole number of milliseconds from 0 to ${MAX_DELAY_MS}`,
        );
    }
  });
  return { request, turns, outputs, ...observe } as LoopCase;
}

// The mode as the driver runs it. The SDK and the student's loop load before any case is read; runLoop's throws
// are its results, so what fails outside it is the fake API (no loopback to listen on).
export const driver: DriverMode = {
  start: async (course) => {
    const [Anthropic, loop] = await Promise.all([anthropicClient(), studentLoop(course)]);
    return {
      parse: parseLoopCase,
      run: (testCase, beforeCall) => runLoopCase(testCase as LoopCase, loop, beforeCall),
      cannot: 'cannot run case',
      probe: (request) => observeLoops(request, loop),
      serve: (channel) => serveLoops(channel, Anthropic, loop),
    };
  },
};

// The cases the grader hands out over the channel (./serve.ts), one at a time, each run against the fake API across
// it; then the probe's scripts, when the grader has them. Resolves to the exit code. What a case started and left
// running is killed before its end is said, so that it cannot burn CPU through the cases after it.
export async function serveLoops(channel: Channel, Anthropic: Client, loop: RunLoop): Promise<number> {
  let running = processesBelow();
  for (;;) {
    const next = await channel.ask({ op: 'next' });
    if (typeof next.case === 'string' && isObject(next.request)) {
      const end = await loopEnd(Anthropic, loop, channelLink(channel, next.case, next.request));
      running = killLeftovers(running).running;
      await channel.ask({ op: 'end', case: next.case, end });
    } else if (Array.isArray(next.probe)) {
      const scripts = next.probe.filter(isObject);
      const links = scripts.map((s) => channelLink(channel, String(s.case), isObject(s.request) ? s.request : {}));
      await probeLoops(Anthropic, loop, links, (k, end) => channel.ask({ op: 'end', case: scripts[k]!.case, end }));
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
function channelLink(channel: Channel, key: string, request: Json): LoopLink {
  const ask = async (message: Json): Promise<never> => {
    const reply = await channel.ask({ ...message, case: key });
    if (typeof reply.error === 'string') throw new Error(`theinference: ${reply.error}`);
    return reply as never;
  };
  return {
    request,
    http: (asked) => ask({ op: 'http', ...asked }),
    execute: (name, input) => ask({ op: 'execute', name, ...(input === undefined ? {} : { input }) }),
  };
}

function isToolUse(block: Json): boolean {
  return block.type === 'tool_use';
}
