// The grader's half of a loop case: the fake Messages API and the scripted execute, as one session that holds the
// case's turns and outputs, answers each request and each call in order, records both, and makes the case's results
// from its own records. It runs in the grader's process (src/modes/loop/serve.ts, across the sandbox) or, for an
// in-process run (the audit, `program.ts loop <case.json>`), beside the loop; either way the loop reaches it only
// through a link (./link.ts) that asks one thing at a time, so the turns not yet served never reach the loop's side.
// No IO but the timers of a scripted delay.
import { canonical, type Json, jsonValues } from '../kit.ts';
import { type ApiErrorScript, LOOP_REQUEST_KEYS } from './case.ts';
import { type LoopOptions, ownBlock } from './options.ts';
import { callText, type ExecuteCallMade, type Refusal, unaskedCalls } from './unasked-calls.ts';
import type { ExecuteAnswer, HttpAnswer, HttpAsked, LoopEnd } from './link.ts';

// The JSON values a case's requests may hold together, as the session keeps them to judge. The requests' bytes are
// bounded by the channel's (src/grade/run/channel-server.ts), but not what they hold on the grader's heap: `{}` is 3
// bytes of text and about 50 of heap, and a trial's loop that added 2.5 million of them to each request ran the
// grader out of memory, its class's reports lost. The course's largest case sends about 117,000 in all
// (compact-context's); this is seventeen times that. A request past it is kept as a line that says so, and answered
// as the Messages API answers one too large (413), unparsed once one has been.
export const MAX_CASE_REQUEST_VALUES = 2_000_000;

export type Turn = { message: Json & { content: Json[]; stop_reason?: unknown }; stream?: string };
// `delay_ms`: how long the scripted execute takes to answer (a case's calls may then finish in another order than
// they were made, for a loop that runs them at once).
export type Scripted = ({ content: string; is_error?: boolean } | { throws: string }) & { delay_ms?: number };
// A case as parsed: the keys the loop mode reads, and any other the case file holds (a mode built on this one reads
// its own). `api_error`: what the request after the last turn is answered with.
export type LoopCase = Json & {
  request?: Json;
  turns: Turn[];
  outputs: Record<string, Scripted>;
  observe?: unknown;
  api_error?: ApiErrorScript;
};

// Each execute call in the order it was made, the tool_use it answered (null for a call no block asked for next)
// and when it finished, counted across the session (so a loop's results can be compared with the order its calls
// finished in); `overtaken`: the number of the first request that came while it was still running.
export type ExecuteCall = { id: string | null; finished?: number; overtaken?: number };

// What one script of the loop probe saw: every request whole (as the API received it), then `{"returned":…}`,
// `{"threw":…}` or, not settled in time, `{"pending":true}`.
export type LoopObserved = { requests: unknown[]; calls: ExecuteCall[]; end: unknown };

export type FakeApi = {
  // The request runLoop is given: the case's own, a copy.
  request: Json;
  // What the mode's `around` sets up before the run, from the case (LoopOptions `setup`).
  setup?: Json;
  turns: number;
  http: (asked: HttpAsked) => Promise<HttpAnswer>;
  execute: (name: unknown, input: unknown) => Promise<ExecuteAnswer>;
  // The loop's end as the grader words it, made from the end the loop's side reported and the session's records.
  end: (reported: LoopEnd) => unknown;
  // The case's results: every request (compacted), then the end.
  results: (reported: LoopEnd) => unknown[];
  observed: (end: unknown) => LoopObserved;
};

// Opens a session for one case (or one script of the probe); `beforeTurn` hears each turn served, as the loop
// heads for its next request. `options`: the mode's, when it is built on the loop mode.
export function openFakeApi(
  testCase: LoopCase,
  beforeTurn?: (call: number, of: number, tool: string) => unknown,
  options: LoopOptions = {},
): FakeApi {
  const keys = options.requestKeys ?? LOOP_REQUEST_KEYS;
  const own = ownBlock(options);
  const requests: unknown[] = [];
  // The tool_use blocks of the turns served that execute has not answered yet, in order.
  const waiting: Json[] = [];
  const turns = testCase.turns.length;
  const calls: ExecuteCall[] = [];
  let sent = 0;
  // The values of the requests kept so far, and whether one went past MAX_CASE_REQUEST_VALUES.
  let held = 0;
  let tooLarge = false;
  const http = async (asked: HttpAsked): Promise<HttpAnswer> => {
    // A request arriving while a call is still running went without that call's result.
    for (const call of calls) if (call.id !== null && call.finished === undefined) call.overtaken ??= sent + 1;
    if (asked.method !== 'POST' || asked.url.split('?')[0] !== '/v1/messages') {
      requests.push({ other: `${asked.method} ${asked.url}` });
      const only = `theinference's fake Messages API answers POST /v1/messages only, not ${asked.method} ${asked.url}`;
      return apiError(404, 'not_found_error', only);
    }
    const body = tooLarge ? {} : parseObject(asked.body);
    held += jsonValues(body);
    if (tooLarge || held > MAX_CASE_REQUEST_VALUES) {
      tooLarge = true;
      const over = `over ${MAX_CASE_REQUEST_VALUES.toLocaleString('en-US')} JSON values`;
      requests.push({ other: `${asked.method} ${asked.url}, its case's requests holding ${over} together` });
      const why = `theinference's fake Messages API keeps no more of a case's requests: together they hold ${over}`;
      return apiError(413, 'request_too_large', why);
    }
    // The graded keys, and any the loop added that the request it was given lacks (`tool_choice`, `temperature`):
    // a request is what runLoop was given, its messages the conversation. `stream` is how it asked, not what.
    const added = Object.keys(body).filter((k) => !keys.includes(k) && k !== 'stream' && !(k in request));
    requests.push({
      request: Object.fromEntries([...keys, ...added].filter((k) => k in body).map((k) => [k, body[k]])),
    });
    sent += 1;
    const turn = testCase.turns[sent - 1];
    await beforeTurn?.(sent + 1, turns, 'request');
    if (turn === undefined) return pastTheTurns(sent, turns, testCase.api_error);
    if (turn.message.stop_reason === 'tool_use') {
      const asks = turn.message.content.filter((b) => isToolUse(b) && !own(b));
      // A nested loop's turn (a child's, served while its parent's turn still has calls to run) is run first.
      if (options.nested === true) waiting.unshift(...asks);
      else waiting.push(...asks);
    }
    const stream = body.stream === true;
    return {
      status: 200,
      type: stream ? 'text/event-stream' : 'application/json',
      body: stream ? (turn.stream ?? eventStream(turn.message)) : JSON.stringify(turn.message),
    };
  };
  const { execute, refused } = scriptedExecute(testCase, waiting, calls);
  const request = options.given === undefined ? (testCase.request ?? {}) : options.given(testCase);
  const end = (reported: LoopEnd): unknown => {
    let said: Json = 'returned' in reported ? { returned: reported.returned } : { threw: reported.threw };
    const changed = requestChanged(request, reported.given);
    if (changed !== undefined) said = { ...said, request_changed: changed };
    const unasked = unaskedCalls(refused, [...requests, said]);
    if (unasked.length > 0) said = { ...said, unasked_calls: unasked };
    // What the mode's `around` added, under its keys only (the loop's side says it: a file the loop wrote).
    const added = Object.entries(reported.added ?? {}).filter(([k]) => (options.endKeys ?? []).includes(k));
    return added.length === 0 ? said : { ...said, ...Object.fromEntries(added) };
  };
  const setup = options.setup?.(testCase);
  return {
    request: structuredClone(request),
    ...(setup === undefined ? {} : { setup }),
    turns,
    http,
    execute,
    end,
    results: (reported) => [...compacted(requests, keys), end(reported)],
    observed: (ended) => ({ requests: [...requests], calls: calls.map((c) => ({ ...c })), end: ended }),
  };
}

// The scripted execute of a session: it answers the next tool_use waiting (`waiting`, in order) with the case's
// output for it, and refuses any other call; each call is added to `calls` as it is made and finishes.
function scriptedExecute(
  testCase: LoopCase,
  waiting: Json[],
  calls: ExecuteCall[],
): { execute: FakeApi['execute']; refused: Refusal[] } {
  // A call that is not the next tool_use's is refused with an error result that says so (it shows in the results:
  // in the messages the loop sends, or in its end as an unasked call).
  const refused: Refusal[] = [];
  const refuse = (call: ExecuteCallMade, why: string): ExecuteAnswer => {
    const answer = `theinference's scripted execute: ${callText(call)} ${why}`;
    refused.push({ call, answer });
    return { output: { content: answer, is_error: true } };
  };
  let finished = 0;
  const execute = async (name: unknown, input: unknown): Promise<ExecuteAnswer> => {
    const next = waiting[0];
    const call: ExecuteCallMade = { tool: name, input };
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
    // Sorting keys costs far more than writing them: an input is put in canonical form only once, and only when
    // written plainly it is as long as the one asked for (an input the program made huge is refused at that cost).
    const length = name === next.name || waiting.some((b) => b.name === name) ? JSON.stringify(input)?.length : 0;
    let given: string | undefined;
    const asks = (block: Json) =>
      name === block.name &&
      length === JSON.stringify(block.input)?.length &&
      (given ??= canonical(input)) === canonical(block.input);
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
    if ('throws' in output) return { throws: output.throws };
    return { output: { ...output } as { content: string } };
  };
  return { execute, refused };
}

// The fields of the request runLoop was given that it changed (pushed onto its messages, set a field), each as it
// was when runLoop ended; undefined when it left the request as given (a loop that keeps the contract does: the
// conversation is the caller's). `given`: each field as canonical JSON text (./link.ts `givenAsJson`).
function requestChanged(original: Json, given: Record<string, string>): Json | undefined {
  const keys = [...new Set([...Object.keys(original), ...Object.keys(given)])].sort();
  const changed = keys.filter((k) => (k in original ? canonical(original[k]) : undefined) !== given[k]);
  if (changed.length === 0) return undefined;
  // A field the loop deleted is null here (JSON has no undefined).
  return Object.fromEntries(changed.map((k) => [k, JSON.parse(given[k] ?? 'null')]));
}

// The requests as results, each said once: a field the same as in the request before it is named in `as_before`
// (not repeated), and messages that begin with all of the request before's are given as `new_messages`, the ones
// after them (with `rewritten_messages`, by index, those of the request before's it sent changed). Lossless (the
// grader expands them back), and a long session's results grow with it, not its square.
function compacted(requests: unknown[], keys: readonly string[]): unknown[] {
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

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isToolUse(block: Json): boolean {
  return block.type === 'tool_use';
}

function parseObject(text: string): Json {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : {};
  } catch {
    return {};
  }
}

// The answer to request `sent`, after the script's `turns`: the case's API error for the first request after them,
// when it has one, and an error that says the script is over for any other.
function pastTheTurns(sent: number, turns: number, scripted: ApiErrorScript | undefined): HttpAnswer {
  if (scripted !== undefined && sent === turns + 1) return apiError(scripted.status, scripted.type, scripted.message);
  const past =
    scripted === undefined
      ? `theinference: request ${sent} is past the end of the script (${turns} turns): after a turn whose stop_reason is not "tool_use", the loop returns`
      : `theinference: request ${sent} is past the end of the script (${turns} turn${turns === 1 ? '' : 's'}, then request ${turns + 1}'s API error): an API error the SDK throws leaves the loop`;
  return apiError(400, 'invalid_request_error', past);
}

// An error as the Messages API words one; the SDK throws it as an APIError of that status.
function apiError(status: number, type: string, message: string): HttpAnswer {
  return { status, type: 'application/json', body: JSON.stringify({ type: 'error', error: { type, message } }) };
}

// The events the Messages API streams for a message: each block started empty, its text, thinking, signature or
// input sent as one delta, and stopped; the SDK's accumulation of them gives back the message's blocks exactly.
function eventStream(message: Turn['message']): string {
  const { content, stop_reason, stop_sequence, usage, ...head } = message;
  const events: Json[] = [
    // A turn recorded without usage still starts with one: the SDK's stream sets fields on it.
    {
      type: 'message_start',
      message: {
        ...head,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: usage ?? { input_tokens: 0, output_tokens: 0 },
      },
    },
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
