// The driver's mode `loop` (stage "Run the loop"). For each case: a fake Messages API on 127.0.0.1 (this process's
// loopback; in the grader's sandbox, a network of its own), a real Anthropic client pointed at it, and the stage's
// loop, `runLoop(client, execute, request)` from the course's src/agent-loop.ts (the module and export its row in
// src/course/stages.ts names). Another loop-kind mode is this one parameterised (`loopDriver`, `LoopOptions`). The API answers the case's turns in order,
// one per POST /v1/messages: the turn's message as JSON or, when the request streams, as server-sent events (the
// bytes the case recorded, else events made from the message). It records what each request asked for; a request
// past the script is answered with an error, and recorded too. The scripted execute answers the tool_use blocks of
// the turns served, in order, with the case's output for each. Results: `{"request":{…}}` per request, then
// `{"returned":[…]}` (the conversation) or `{"threw":"…"}`, with `request_changed` and `unasked_calls` beside it
// when the loop changed its request, or made calls no tool_use asked for whose answers show nowhere else. Reading
// stdin, the driver prints `{"calling":{"call":k,"of":n,"tool":"request"}}` as the loop heads for request k (before
// runLoop starts, then as each turn is served), so that the grader can say after which turn a loop hung.
//
// Probe: the grader's first case may carry `observe`, here `{"scripts":[…]}`, each a case of its own (request,
// turns, outputs). Once every case has printed its results, runLoop runs each script at once, against a fake API of
// its own: `{"observed":[…]}`, for each script the requests it sent (whole) and how it ended.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { firstStageIn, type StudentCode, studentCode } from '../../course/stages.ts';
import { LOOP_REQUEST_KEYS } from './case.ts';
import { callText, type ExecuteCallMade, type Refusal, unaskedCalls } from './unasked-calls.ts';
import type { DriverMode } from '../driver-mode.ts';
import {
  type BeforeCall,
  canonical,
  courseExports,
  courseUrl,
  describeThrow,
  type Execute,
  isObject,
  type Json,
  mute,
} from '../kit.ts';

type Turn = { message: Json & { content: Json[]; stop_reason?: unknown }; stream?: string };
// `delay_ms`: how long the scripted execute takes to answer (a case's calls may then finish in another order than
// they were made, for a loop that runs them at once).
type Scripted = ({ content: string; is_error?: boolean } | { throws: string }) & { delay_ms?: number };
// A case as parsed: the keys the loop mode reads, and any other the case file holds (a mode built on this one reads
// its own).
export type LoopCase = Json & { request?: Json; turns: Turn[]; outputs: Record<string, Scripted>; observe?: unknown };
type RunLoop = (client: unknown, execute: Execute, request: Json) => Promise<unknown>;
type Client = new (options: {
  apiKey: string;
  baseURL: string;
  maxRetries: number;
  timeout: number;
  fetch: typeof fetch;
}) => unknown;

// The SDK the fake API's client is made with: the package's own (the course's code imports only its types).
async function anthropicClient(): Promise<Client> {
  return ((await import('@anthropic-ai/sdk')) as { default: Client }).default;
}

// What a mode built on this one changes of it (src/modes/<mode>/driver.ts imports this file and parameterises it,
// never copies it). Each is absent for the loop mode itself.
export type LoopOptions = {
  // The keys of a request the fake API records and the results give, in this order: LOOP_REQUEST_KEYS when absent.
  requestKeys?: readonly string[];
  // What the loop is given for a case (it may change it; the results say so): a copy of the case's request when
  // absent. A mode whose cases hold more for the loop (a setting beside the request) gives it here.
  given?: (testCase: LoopCase) => Json;
  // Around each run of the loop, a case's or a probe script's: what the run needs set up first, and what its end
  // says beyond how the loop ended (a file the loop wrote, say), added to `run()`'s end.
  around?: (testCase: LoopCase, run: () => Promise<Json>) => Promise<Json>;
  // The tools whose calls the loop answers itself, never through execute (the plan mode's todo, the compact mode's compact): the scripted
  // execute expects none of them, and a case scripts no output for one.
  ownTools?: readonly string[];
  // The tool_use blocks the loop answers itself rather than through execute (a task call: src/modes/task/): the
  // scripted execute waits for none of them, and refuses a call of one.
  own?: (block: Json) => boolean;
  // A tool_use may have no output in the case: a call the contract never makes (the script refuses it if made).
  outputsOptional?: boolean;
  // A turn served while calls of an earlier one still wait is a loop's inside that call's (a child's): its calls
  // come first.
  nested?: boolean;
};

// Whether a tool_use block is one the loop answers itself (a mode's own tools by name, or its own test of a block).
function ownBlock(options: LoopOptions): (block: Json) => boolean {
  const named = options.ownTools ?? [];
  return (block) => named.includes(String(block.name)) || (options.own?.(block) ?? false);
}

// The loop a case runs when the caller gives none: the course's, the module and export of the loop mode's first
// stage (tests of the suite run the reference this way, from the package root).
const FIRST_LOOP: StudentCode = studentCode(firstStageIn('loop')!);

async function studentLoop(course: URL, code: StudentCode = FIRST_LOOP): Promise<RunLoop> {
  return (await courseExports<Record<string, RunLoop>>(course, code.module, [code.export]))[code.export]!;
}

// Runs one case's loop against its script and returns its results, ready to print. `runLoop` is the loop under
// test: the student's own by default (tests of the suite pass others). A case without turns runs nothing.
export async function runLoopCase(
  testCase: LoopCase,
  runLoop?: RunLoop,
  beforeTurn?: BeforeCall,
  course: URL = courseUrl(),
  options: LoopOptions = {},
): Promise<unknown[]> {
  if (testCase.turns.length === 0) return [];
  const [Anthropic, loop] = await Promise.all([anthropicClient(), runLoop ?? studentLoop(course)]);
  const api = await startFakeApi(testCase, beforeTurn, options);
  try {
    await beforeTurn?.(1, testCase.turns.length, 'request');
    // The SDK warns at every request naming a model it lists as deprecated: a recorded case's model is the
    // recording's, not the student's choice, so that warning is not shown as the program's output.
    const warn = console.warn;
    console.warn = (...args: unknown[]) => {
      if (!/^The model '[^']*' is deprecated/.test(String(args[0]))) warn(...args);
    };
    try {
      const end = await loopEnd(Anthropic, loop, api, testCase, options);
      return [...compacted(api.requests, options), end];
    } finally {
      console.warn = warn;
    }
  } finally {
    await api.close();
  }
}

// Runs the loop once against a fake API, with a real client pointed at it: how it ended, `{"returned":[…]}` (the
// conversation, as JSON carries it) or `{"threw":"…"}`, with `request_changed` when it changed the request it was
// given, and `unasked_calls` when execute refused calls whose answers are in no request and not in the end (a
// call the reference never makes, so a snapshot never has either); run within the mode's `around`, when it has one.
async function loopEnd(
  Anthropic: Client,
  loop: RunLoop,
  api: FakeApi,
  testCase: LoopCase,
  options: LoopOptions,
): Promise<Json> {
  const run = async (): Promise<Json> => {
    // No retries: a request the script refuses is the loop's to handle, once.
    const client = new Anthropic({
      apiKey: 'theinference-fake-api-key',
      baseURL: api.url,
      maxRetries: 0,
      timeout: 60_000,
      // The SDK calls fetch once the request's body is written: a call still running then was not in it.
      fetch: (input, init) => {
        api.sending();
        return fetch(input, init);
      },
    });
    const request = options.given === undefined ? (testCase.request ?? {}) : options.given(testCase);
    const given = structuredClone(request);
    let end: Json;
    try {
      const returned = await loop(client, api.execute, given);
      end = { returned: JSON.parse(JSON.stringify(returned ?? null)) };
    } catch (error) {
      end = { threw: describeThrow(error) };
    }
    const changed = requestChanged(request, given);
    if (changed !== undefined) end = { ...end, request_changed: changed };
    const unasked = unaskedCalls(api.refused, [...api.requests, end]);
    return unasked.length === 0 ? end : { ...end, unasked_calls: unasked };
  };
  return options.around === undefined ? run() : options.around(testCase, run);
}

// The fields of the request runLoop was given that it changed (pushed onto its messages, set a field), each as it
// was when runLoop ended; undefined when it left the request as given (a loop that keeps the contract does: the
// conversation is the caller's). Said in the loop's end, so a case shows it.
function requestChanged(original: Json, given: Json): Json | undefined {
  const keys = [...new Set([...Object.keys(original), ...Object.keys(given)])].sort();
  // A value JSON cannot write (a cycle, a BigInt) is changed, and said as what writing it threw.
  const json = (value: unknown): string => {
    try {
      return canonical(value);
    } catch (error) {
      return JSON.stringify(`not JSON: ${describeThrow(error)}`);
    }
  };
  const changed = keys.filter((k) => json(original[k]) !== json(given[k]));
  if (changed.length === 0) return undefined;
  // A field the loop deleted is null here (JSON has no undefined).
  return Object.fromEntries(changed.map((k) => [k, JSON.parse(k in given ? json(given[k] ?? null) : 'null')]));
}

// What one script of the loop probe saw: every request whole (as the API received it), then `{"returned":…}`,
// `{"threw":…}` or, not settled by LOOP_PROBE_WAIT_MS, `{"pending":true}`.
// `calls`: each execute call in the order it was made, the tool_use it answered (null for a call no block asked
// for next) and when it finished, counted across the script (so a loop's results can be compared with the order
// its calls finished in); `overtaken`: the number of the first request that came while it was still running.
type LoopObserved = { requests: unknown[]; calls: ExecuteCall[]; end: unknown };
type ExecuteCall = { id: string | null; finished?: number; overtaken?: number };

// How long the loop probe waits for its scripts: a few requests to 127.0.0.1 each, all at once, so only a loop that
// never returns takes longer.
const LOOP_PROBE_WAIT_MS = 3000;

// Runs each of the probe's scripts through runLoop (the student's own by default), all at once, while whatever
// the code under test prints goes nowhere.
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
  const unmute = mute();
  // A promise of the loop's own left rejected with no one to hear it (a request it never awaited, say): the probe
  // only watches, so that must not end the process before it has said what it saw. (Execute's are heard already.)
  const unheard = (): void => {};
  process.on('unhandledRejection', unheard);
  let apis: FakeApi[] = [];
  try {
    // Every API listening before any loop starts, so that all are closed however the wait ends.
    const started = await Promise.allSettled(parsed.map((script) => startFakeApi(script, undefined, options)));
    apis = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const failed = started.find((s) => s.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    const seen = parsed.map((): LoopObserved => ({ requests: [], calls: [], end: { pending: true } }));
    const done = parsed.map(async (script, k) => {
      const entry = seen[k]!;
      entry.requests = apis[k]!.requests;
      entry.calls = apis[k]!.calls;
      entry.end = await loopEnd(Anthropic, loop, apis[k]!, script, options);
    });
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise((ready) => (timer = setTimeout(ready, LOOP_PROBE_WAIT_MS)));
    const all = Promise.all(done);
    all.catch(() => {}); // a script that fails after the wait is over is no one's to hear
    await Promise.race([all, waited]);
    clearTimeout(timer);
    return seen.map((e) => ({ requests: [...e.requests], calls: e.calls.map((c) => ({ ...c })), end: e.end }));
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
// after them (with `rewritten_messages`, by index, those of the request before's it sent changed). Lossless (the grader expands them back), and a long session's results grow with it, not its square.
function compacted(requests: unknown[], options: LoopOptions): unknown[] {
  const keys = options.requestKeys ?? LOOP_REQUEST_KEYS;
  let before: Json | undefined;
  return requests.map((entry) => {
    const request = isObject(entry) && isObject(entry.request) ? entry.request : undefined;
    if (request === undefined) return entry;
    const previous = before;
    before = request;
    if (previous === undefined) return entry;
    const same = (k: string) => k in previous && k in request && canonical(previous[k]) === canonical(request[k]);
    const kept: string[] = keys.filter((k) => k !== 'messages' && same(k));
    const out: Json = Object.fromEntries(Object.entries(request).filter(([k]) => !kept.includes(k)));
    const [had, has] = [previous.messages, request.messages];
    if (Array.isArray(had) && Array.isArray(has) && has.length >= had.length) {
      // A loop that rewrites earlier messages (a compacting one: a tool result become its placeholder) says only
      // those, by index, when they are fewer than half of them.
      const rewritten = had.flatMap((m, i) => (canonical(m) === canonical(has[i]) ? [] : [i]));
      if (rewritten.length === 0 || rewritten.length * 2 < had.length) {
        delete out.messages;
        if (rewritten.length > 0) out.rewritten_messages = Object.fromEntries(rewritten.map((i) => [i, has[i]]));
        out.new_messages = has.slice(had.length);
      }
    }
    return { request: { ...(kept.length > 0 ? { as_before: kept } : {}), ...out } };
  });
}

type FakeApi = {
  url: string;
  requests: unknown[];
  calls: ExecuteCall[];
  refused: Refusal[];
  execute: Execute;
  sending: () => void;
  close: () => Promise<void>;
};

async function startFakeApi(
  testCase: LoopCase,
  beforeTurn: BeforeCall | undefined,
  options: LoopOptions,
): Promise<FakeApi> {
  const keys = options.requestKeys ?? LOOP_REQUEST_KEYS;
  const own = ownBlock(options);
  const requests: unknown[] = [];
  // The tool_use blocks of the turns served that execute has not answered yet, in order.
  const waiting: Json[] = [];
  const turns = testCase.turns.length;
  const calls: ExecuteCall[] = [];
  let sent = 0;
  // A request about to be sent while a call is still running goes without that call's result.
  const sending = (): void => {
    for (const call of calls) if (call.id !== null && call.finished === undefined) call.overtaken ??= sent + 1;
  };
  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const text = await readBody(req);
    if (req.method !== 'POST' || (req.url ?? '').split('?')[0] !== '/v1/messages') {
      requests.push({ other: `${req.method} ${req.url}` });
      const only = `theinference's fake Messages API answers POST /v1/messages only, not ${req.method} ${req.url}`;
      return apiError(res, 404, 'not_found_error', only);
    }
    const body = parseObject(text);
    requests.push({ request: Object.fromEntries(keys.filter((k) => k in body).map((k) => [k, body[k]])) });
    sent += 1;
    const turn = testCase.turns[sent - 1];
    await beforeTurn?.(sent + 1, turns, 'request');
    if (turn === undefined) {
      const past = `theinference: request ${sent} is past the end of the script (${turns} turns): after a turn whose stop_reason is not "tool_use", the loop returns`;
      return apiError(res, 400, 'invalid_request_error', past);
    }
    if (turn.message.stop_reason === 'tool_use') {
      const asks = turn.message.content.filter((b) => isToolUse(b) && !own(b));
      // A nested loop's turn (a child's, served while its parent's turn still has calls to run) is run first.
      if (options.nested === true) waiting.unshift(...asks);
      else waiting.push(...asks);
    }
    const stream = body.stream === true;
    res.writeHead(200, { 'content-type': stream ? 'text/event-stream' : 'application/json' });
    res.end(stream ? (turn.stream ?? eventStream(turn.message)) : JSON.stringify(turn.message));
  };
  const server = createServer((req, res) => void answer(req, res).catch(() => res.destroy()));
  await new Promise<void>((listening, failed) => server.once('error', failed).listen(0, '127.0.0.1', listening));
  // A call that is not the next tool_use's is refused with an error result that says so (it shows in the results:
  // in the messages the loop sends, or in its end as an unasked call).
  const refused: Refusal[] = [];
  const refuse = (call: ExecuteCallMade, why: string) => {
    const answer = `theinference's scripted execute: ${callText(call)} ${why}`;
    refused.push({ call, answer });
    return { content: answer, is_error: true };
  };
  let finished = 0;
  // A loop that never awaits execute leaves a throwing tool's promise rejected with no one to hear it, and Node
  // ends the process for that. The mistake is the missing await, which the results already show (a tool_result
  // without content) and the hint names: so the promise is heard here, and whoever awaits it still gets the throw.
  const execute: Execute = (name, input) => {
    const output = answerCall(name, input);
    output.catch(() => {});
    return output;
  };
  const answerCall = async (name: string, input: unknown) => {
    const next = waiting[0];
    // As JSON carries it, so that the loop's end names it as it was when called.
    const call: ExecuteCallMade = {
      tool: name,
      input: input === undefined ? undefined : JSON.parse(JSON.stringify(input)),
    };
    const made: ExecuteCall = { id: null };
    calls.push(made);
    const done = () => {
      made.finished = finished;
      finished += 1;
    };
    if (next === undefined) {
      done();
      return refuse(call, 'was called, but no tool_use is waiting for a result');
    }
    const asks = (block: Json) => name === block.name && canonical(input) === canonical(block.input);
    if (!asks(next)) {
      done();
      const asked = callText({ tool: next.name, input: next.input });
      const later = waiting.find(asks);
      if (later === undefined) return refuse(call, `is not the call tool_use ${next.id} asks for, ${asked}`);
      return refuse(call, `is tool_use ${later.id}'s call, made before tool_use ${next.id}'s, ${asked}`);
    }
    // Taken off the queue as it is called, so that calls made at once are checked in the order they were made.
    waiting.shift();
    made.id = String(next.id);
    const scripted = testCase.outputs[String(next.id)];
    if (scripted === undefined) {
      done();
      return refuse(
        call,
        `answers tool_use ${next.id}, a call the case gives no output for: the contract never runs it`,
      );
    }
    const { delay_ms, ...output } = scripted;
    if (delay_ms !== undefined && delay_ms > 0) await new Promise((ready) => setTimeout(ready, delay_ms));
    done();
    if ('throws' in output) throw new Error(output.throws);
    return { ...output } as { content: string };
  };
  const close = async (): Promise<void> => {
    server.closeAllConnections();
    await new Promise((closed) => server.close(closed));
  };
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, requests, calls, refused, execute, sending, close };
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

// The longest an output may keep execute waiting: enough to answer a turn's calls in any order, short of the
// case timeout (the schema says the same).
const MAX_DELAY_MS = 1000;

// Checks one loop case's JSON (the grader validates it against cases/agent-loop.schema.json too); the error says
// which field is wrong so the author can fix it.
export function parseLoopCase(text: string, loop: LoopOptions = {}): LoopCase {
  const own = ownBlock(loop);
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
    for (const block of message.content.filter(isObject).filter((b) => isToolUse(b) && !own(b))) {
      const output = outputs[String(block.id)];
      if (output === undefined && loop.outputsOptional === true) continue;
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
  // The keys of a mode built on this one stay, for its own use.
  return { ...parsed, request, turns, outputs, ...observe } as LoopCase;
}

// A loop-kind mode as the driver runs it: the loop mode's, or a mode built on it with its options. The SDK and the
// student's loop (the stage's module and export) load before any case is read; the loop's throws are its results,
// so what fails outside it is the fake API (no loopback to listen on).
export function loopDriver(options: LoopOptions = {}): DriverMode {
  return {
    start: async (course, code) => {
      const [, loop] = await Promise.all([anthropicClient(), studentLoop(course, code)]);
      return {
        parse: (text) => parseLoopCase(text, options),
        run: (testCase, beforeCall) => runLoopCase(testCase as LoopCase, loop, beforeCall, course, options),
        cannot: 'cannot run case',
        probe: (request) => observeLoops(request, loop, course, options),
      };
    },
  };
}

export const driver: DriverMode = loopDriver();
