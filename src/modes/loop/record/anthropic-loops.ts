// An Anthropic Messages API log read as loops: what an agent's own logging or a proxy keeps of each call, JSON lines
// of request bodies each followed by its response (a Message, or the stream's text as received), or of
// `{ "request": body, "response": … }` pairs (the stream's text as a JSON string). Like a live capture it holds whole requests and responses, so its loops
// are taken as recorded (live-loops.ts's addLoops): a response that is a stream keeps its bytes.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { ApiObject } from '../case.ts';
import { addLoops, asTurn, type LoopExchange, streamedMessage } from './live-loops.ts';
import { isObject, type LoopSession } from './recorded-loop.ts';

export async function readAnthropicLoops(file: string): Promise<LoopSession> {
  const exchanges: LoopExchange[] = [];
  let pending: ApiObject | undefined;
  let lineNo = 0;
  for await (const text of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    lineNo += 1;
    if (text.trim() === '') continue;
    const value = jsonValue(text);
    // A response may be the stream's text, as a JSON string.
    if (typeof value === 'string' && pending !== undefined) {
      const exchange = await exchangeOf(pending, value);
      if (exchange !== undefined) exchanges.push(exchange);
      pending = undefined;
      continue;
    }
    if (!isObject(value)) throw new Error(`line ${lineNo} is not a JSON object: an API log has one per line`);
    const entry: ApiObject = value;
    if (isRequestBody(entry.request)) {
      const exchange = await exchangeOf(entry.request as ApiObject, entry.response);
      if (exchange !== undefined) exchanges.push(exchange);
      pending = undefined;
    } else if (isRequestBody(entry)) {
      pending = entry;
    } else if (pending !== undefined) {
      const exchange = await exchangeOf(pending, entry);
      if (exchange !== undefined) exchanges.push(exchange);
      pending = undefined;
    }
  }
  if (exchanges.length === 0)
    throw new Error('no request with its response: an API log holds request bodies each followed by its response');
  return addLoops({ format: 'anthropic', loops: [], skipped: [] }, exchanges);
}

// Whether a line is a Messages API log line: a request body, or a pair holding one.
export function isApiLogLine(entry: ApiObject | undefined): boolean {
  if (entry === undefined) return false;
  return isRequestBody(entry) || isRequestBody(entry.request);
}

function isRequestBody(value: unknown): boolean {
  return isObject(value) && typeof value.model === 'string' && Array.isArray(value.messages);
}

// A request and its response, when the response is a whole Message or the text of a stream that builds one.
async function exchangeOf(body: ApiObject, response: unknown): Promise<LoopExchange | undefined> {
  if (isObject(response))
    return response.type === 'message' ? { body, turn: { message: asTurn(response) } } : undefined;
  if (typeof response !== 'string') return undefined;
  const message = await streamedMessage(response).catch(() => undefined);
  return message === undefined ? undefined : { body, turn: { message: asTurn(message), stream: response } };
}

function jsonValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
