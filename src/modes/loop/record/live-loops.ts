// A live capture (`theinference record --live --keep-transcript`, src/record/live/capture-format.ts) read as loops.
// It holds every request and response whole, so a loop case is taken as recorded: the first request of a loop (its
// model, max_tokens, system, tools and messages), each response as the agent received it (a streamed one as its
// bytes, and as the message the SDK builds from them), and each tool's output from the tool_result the next request
// carried. A request continues a loop when it answers every tool_use of the loop's last turn; any other starts one
// (an agent's side requests, a title or a summary, are loops of their own, with no tool called).
import Anthropic from '@anthropic-ai/sdk';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import {
  type ApiObject,
  LOOP_REQUEST_KEYS,
  type LoopRequestData,
  type LoopTurn,
  type ScriptedOutput,
} from '../case.ts';
import { isLiveCaptureLine } from '../../../record/formats/live.ts';
import { isDeepStrictEqual } from 'node:util';
import { firstLine, isObject, type LoopSession, parseObject, type RecordedLoop, toolUses } from './recorded-loop.ts';

// A loop as read so far: its request, its turns, the outputs, and the messages its last request sent.
type Open = RecordedLoop & { sent: ApiObject[]; differs: number[] };

// One Messages API exchange as a loop reads it: the request body, the turn it was answered with, and when it
// started (when the recording says).
export type LoopExchange = { body: ApiObject; turn: LoopTurn; startedAt?: string };

export async function readLiveLoops(file: string): Promise<LoopSession> {
  const session: LoopSession = { format: 'live', loops: [], skipped: [] };
  const exchanges: LoopExchange[] = [];
  let first = true;
  for await (const text of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    if (text.trim() === '') continue;
    const entry = parseObject(text);
    if (first && !isLiveCaptureLine(entry)) throw new Error('not a live capture (its first line is no session line)');
    first = false;
    if (entry?.type === 'session' && typeof entry.workspace === 'string') session.cwd = entry.workspace;
    if (entry?.type !== 'exchange') continue;
    const exchange = await messagesExchange(entry);
    if (exchange === undefined) continue;
    exchanges.push(typeof entry.startedAt === 'string' ? { ...exchange, startedAt: entry.startedAt } : exchange);
  }
  return addLoops(session, exchanges);
}

// The loops of a recording's exchanges, in order, added to `session`: every recording that holds whole requests
// and responses (a live capture, an API log) is read so.
export function addLoops(session: LoopSession, exchanges: LoopExchange[]): LoopSession {
  const open: Open[] = [];
  for (const { body, turn, startedAt } of exchanges) {
    const messages = Array.isArray(body.messages) ? body.messages.filter(isObject) : [];
    const loop = open.find((l) => continues(l, messages));
    if (loop === undefined) {
      const request = requestOf(body);
      const prompt = firstLine(textOf(messages.at(-1)));
      if (request === undefined) {
        session.skipped.push({ prompt, why: 'its request has no model, max_tokens, tools or messages to replay' });
        continue;
      }
      const recorded = startedAt === undefined ? {} : { recorded: startedAt };
      open.push({
        request,
        turns: [turn],
        outputs: {},
        defaults: [],
        prompt,
        sent: messages,
        differs: [],
        ...recorded,
      });
      continue;
    }
    const last = loop.turns.at(-1)!;
    const answers = resultBlocks(messages.at(-1));
    for (const use of toolUses(last.message)) loop.outputs[use.id] = outputOf(answers.get(use.id)!);
    // As a loop keeping to the contract sends it: what it sent before, the turn as received, one message of results.
    const contract = [...loop.sent, { role: 'assistant', content: last.message.content }, contractResults(loop)];
    if (!isDeepStrictEqual(contract, messages) || !sameFields(loop.request, body)) {
      loop.differs.push(loop.turns.length + 1);
    }
    loop.sent = messages;
    loop.turns.push(turn);
  }
  for (const { sent: _, differs, ...loop } of open) {
    const why = brokenBecause(loop);
    if (why !== undefined) session.skipped.push({ prompt: loop.prompt, why });
    else session.loops.push(differs.length === 0 ? loop : { ...loop, differs });
  }
  return session;
}

// A Messages API exchange the agent received whole: its request body and the turn it was answered with.
async function messagesExchange(entry: ApiObject): Promise<{ body: ApiObject; turn: LoopTurn } | undefined> {
  const request = isObject(entry.request) ? entry.request : {};
  const response = isObject(entry.response) ? entry.response : undefined;
  const path = String(request.path ?? '').split('?')[0];
  if (request.method !== 'POST' || path !== '/v1/messages') return undefined;
  if (response === undefined || typeof response.status !== 'number' || response.status >= 400) return undefined;
  if (entry.aborted !== undefined || entry.error !== undefined || response.omitted !== undefined) return undefined;
  const body = parseObject(String(request.body ?? ''));
  const text = String(response.body ?? '');
  if (body === undefined) return undefined;
  const json = parseObject(text);
  if (json !== undefined) return json.type === 'message' ? { body, turn: { message: asTurn(json) } } : undefined;
  const message = await streamedMessage(text).catch(() => undefined);
  return message === undefined ? undefined : { body, turn: { message: asTurn(message), stream: text } };
}

// The message the real SDK builds from a recorded stream: what a student's streaming loop receives from those bytes.
export async function streamedMessage(text: string): Promise<ApiObject> {
  const served = async () => new Response(text, { headers: { 'content-type': 'text/event-stream' } });
  const client = new Anthropic({ apiKey: 'theinference-recorder', fetch: served, maxRetries: 0 });
  const stream = client.messages.stream({ model: 'recorded', max_tokens: 1, messages: [] });
  return JSON.parse(JSON.stringify(await stream.finalMessage())) as ApiObject;
}

export function asTurn(message: ApiObject): LoopTurn['message'] {
  const content = Array.isArray(message.content) ? message.content.filter(isObject) : [];
  const stop = typeof message.stop_reason === 'string' ? message.stop_reason : null;
  return { ...message, content, stop_reason: stop };
}

function requestOf(body: ApiObject): LoopRequestData | undefined {
  const ok =
    typeof body.model === 'string' &&
    typeof body.max_tokens === 'number' &&
    Array.isArray(body.tools) &&
    Array.isArray(body.messages);
  if (!ok) return undefined;
  return Object.fromEntries(LOOP_REQUEST_KEYS.filter((k) => k in body).map((k) => [k, body[k]])) as LoopRequestData;
}

// Whether a request answers every tool_use of the loop's last turn, right after it.
function continues(loop: Open, messages: ApiObject[]): boolean {
  const last = loop.turns.at(-1)!;
  const uses = toolUses(last.message);
  if (last.message.stop_reason !== 'tool_use' || uses.length === 0) return false;
  if (messages.length !== loop.sent.length + 2) return false;
  const answers = resultBlocks(messages.at(-1));
  return uses.every((u) => answers.has(u.id));
}

// The tool_result blocks of a user message, by tool_use_id.
function resultBlocks(message: ApiObject | undefined): Map<string, ApiObject> {
  const content = message?.role === 'user' && Array.isArray(message.content) ? message.content : [];
  return new Map(
    content.filter(isObject).flatMap((b) => (b.type === 'tool_result' ? [[String(b.tool_use_id), b] as const] : [])),
  );
}

// A tool_result as the ToolOutput it came from: text blocks joined by newlines, is_error kept only when true.
function outputOf(block: ApiObject): ScriptedOutput {
  const content = textOf({ content: block.content });
  return block.is_error === true ? { content, is_error: true } : { content };
}

// The user message of results the contract's loop sends after the loop's last turn.
function contractResults(loop: Open): ApiObject {
  const uses = toolUses(loop.turns.at(-1)!.message);
  const content = uses.map((u) => {
    const out = loop.outputs[u.id] as { content: string; is_error?: boolean };
    return {
      type: 'tool_result',
      tool_use_id: u.id,
      content: out.content,
      ...(out.is_error ? { is_error: true } : {}),
    };
  });
  return { role: 'user', content };
}

// Whether a later request sent the loop's fields (all but messages) as its first did.
function sameFields(request: LoopRequestData, body: ApiObject): boolean {
  return LOOP_REQUEST_KEYS.every((k) => k === 'messages' || isDeepStrictEqual((request as ApiObject)[k], body[k]));
}

function brokenBecause(loop: RecordedLoop): string | undefined {
  if (loop.turns.every((t) => toolUses(t.message).length === 0))
    return 'the model called no tool in it: nothing of a loop to replay';
  if (loop.turns.at(-1)!.message.stop_reason === 'tool_use')
    return 'it stops at a turn that calls a tool (the recording ended there)';
  return undefined;
}

// A message's text: its string content, or its text blocks joined by newlines.
function textOf(message: ApiObject | undefined): string {
  const content = message?.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter(isObject)
    .filter((b) => b.type === 'text')
    .map((b) => String(b.text))
    .join('\n');
}
