// Reads a loop case's JSON (the grader validates it against cases/agent-loop.schema.json too, and both the grader's
// side, ./serve.ts, and the loop's, ./driver.ts, read cases with it); the error says which field is wrong so the
// author can fix it. Pure.
import { isObject, type Json } from '../kit.ts';
import type { LoopCase } from './fake-api.ts';
import { type LoopOptions, ownBlock } from './options.ts';

// The longest an output may keep execute waiting: enough to answer a turn's calls in any order, short of the
// case timeout (the schema says the same).
const MAX_DELAY_MS = 1000;

// Checks one loop case's JSON, as `loop` (a mode's options) reads it.
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
  checkApiError(parsed.api_error);
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

// The HTTP statuses an API error may have: the client's errors and the server's (the schema says the same).
const API_ERROR_STATUS = { min: 400, max: 599 };

// A case's `api_error`, when it has one: an HTTP error status and the API's words for the error.
function checkApiError(value: unknown): void {
  if (value === undefined) return;
  const shape =
    '"api_error" must be { "status": an HTTP error status, "type": the API\'s error type (e.g. "overloaded_error"), "message": string }';
  if (!isObject(value)) throw new Error(shape);
  const { status, type, message } = value;
  if (
    !Number.isInteger(status) ||
    (status as number) < API_ERROR_STATUS.min ||
    (status as number) > API_ERROR_STATUS.max
  )
    throw new Error(
      `"api_error".status must be a whole number from ${API_ERROR_STATUS.min} to ${API_ERROR_STATUS.max} (an HTTP error status, 529 for overloaded_error), not ${JSON.stringify(status)}`,
    );
  if (typeof type !== 'string' || type === '')
    throw new Error(
      `"api_error".type must be the API's error type, a string such as "overloaded_error", not ${JSON.stringify(type)}`,
    );
  if (typeof message !== 'string')
    throw new Error(`"api_error".message must be a string, not ${JSON.stringify(message)}`);
  const extra = Object.keys(value).filter((k) => !['status', 'type', 'message'].includes(k));
  if (extra.length > 0) throw new Error(`${shape}: it has ${extra.map((k) => `"${k}"`).join(', ')} too`);
}

function isToolUse(block: Json): boolean {
  return block.type === 'tool_use';
}
