// OpenAI Responses API: calls are `function_call` items (`call_id`, `name`, `arguments` as a JSON string), results
// are `function_call_output` items naming the same `call_id`. Read from a request body (`input`), a response
// (`output`), a bare array of items, one item, JSONL of these, and a stream of `response.*` events (a call's
// arguments gathered from its deltas when the stream ends before the call is done).
import type { ImportedResult, Skip } from '../types.ts';
import { CallBook } from './call-book.ts';
import { codexResult } from './codex.ts';
import { expandShellCall, type ShellRun } from './shell-call.ts';
import {
  arrayAt,
  contentText,
  isObject,
  type JsonObject,
  objectAt,
  parseToolInput,
  stringAt,
  toolInputValue,
} from './json-values.ts';
import type { ParsedFile } from './parsed-file.ts';
import type { ValueHandler } from './values.ts';

const CALL_ITEMS = new Set([
  'function_call',
  'function_call_output',
  'local_shell_call',
  'local_shell_call_output',
  'shell_call',
  'shell_call_output',
]);
// Items for tools the course has no counterpart for, or whose input is not JSON: counted, not imported.
const OTHER_TOOL_ITEMS = new Set([
  'custom_tool_call',
  'apply_patch_call',
  'computer_call',
  'web_search_call',
  'file_search_call',
  'code_interpreter_call',
  'mcp_call',
]);

// The items of one Responses value, with the response id they came in (for a response).
function itemsOf(value: unknown): { items: unknown[]; messageId?: string } | undefined {
  if (Array.isArray(value)) return { items: value };
  if (!isObject(value)) return undefined;
  const output = arrayAt(value, 'output');
  if (output !== undefined) {
    const id = stringAt(value, 'id');
    return { items: output, ...(id !== undefined ? { messageId: id } : {}) };
  }
  const input = arrayAt(value, 'input');
  if (input !== undefined) return { items: input };
  if (typeof value.type === 'string') return { items: [value] };
  return undefined;
}

const isStreamEvent = (value: unknown): value is JsonObject =>
  isObject(value) && typeof value.type === 'string' && value.type.startsWith('response.');

// Whether a value is recognisably Responses: a response object or stream event, or function_call items.
export function looksOpenAiResponses(value: unknown): boolean {
  if ((isObject(value) && value.object === 'response') || isStreamEvent(value)) return true;
  return (itemsOf(value)?.items ?? []).some(
    (item) => isObject(item) && typeof item.type === 'string' && CALL_ITEMS.has(item.type),
  );
}

type At = { file: string; line: number; messageId?: string | undefined };
type Pending = {
  callId?: string | undefined;
  name?: string | undefined;
  parts: string[];
  line: number;
  messageId?: string | undefined;
};

// What one file's reader gathers into: its skips and its calls with their results.
type Reading = { file: string; skipped: Skip[]; book: CallBook };

// A call, or a skip when it has no call_id or no name.
function readCall(
  { file, skipped, book }: Reading,
  callId: string | undefined,
  name: string | undefined,
  input: ReturnType<typeof parseToolInput>,
  at: At,
): void {
  if (callId === undefined || name === undefined)
    skipped.push({ file, line: at.line, reason: 'a function_call without a call_id or a name' });
  else
    book.addCall({
      id: callId,
      name,
      ...input,
      file,
      line: at.line,
      ...(at.messageId !== undefined ? { messageId: at.messageId } : {}),
    });
}

// One item: a call, a call's output, a tool the course cannot replay (skipped), or anything else (ignored).
function readItem(reading: Reading, item: unknown, at: At): void {
  const { file, skipped, book } = reading;
  if (!isObject(item) || typeof item.type !== 'string') return;
  const callId = stringAt(item, 'call_id');
  if (item.type === 'function_call') {
    const input = typeof item.arguments === 'string' ? parseToolInput(item.arguments) : toolInputValue(item.arguments);
    readCall(reading, callId, stringAt(item, 'name'), input, at);
  } else if (item.type === 'function_call_output') {
    if (callId === undefined)
      skipped.push({ file, line: at.line, reason: 'a function_call_output item without a call_id' });
    else book.addResult(callId, { content: contentText(item.output), isError: false, line: at.line }, file);
  } else if (item.type === 'local_shell_call' || item.type === 'shell_call') {
    // Built-in shell tools: `local_shell_call` runs `action.command` (an argv, as Codex's local_shell: the name
    // map-codex.ts reads), `shell_call` runs `action.commands`, one after another (one is a bash call; several are
    // one each, shell-call.ts).
    const action = objectAt(item, 'action') ?? {};
    const commands = arrayAt(action, 'commands');
    const [name, input] =
      item.type === 'local_shell_call'
        ? ['local_shell', action]
        : commands?.length === 1 && typeof commands[0] === 'string'
          ? ['bash', { command: commands[0] }]
          : ['shell_call', action];
    readCall(reading, callId, name, { input }, at);
  } else if (item.type === 'local_shell_call_output') {
    const id = callId ?? stringAt(item, 'id');
    if (id !== undefined) book.addResult(id, codexResult(item.output, at.line), file);
  } else if (item.type === 'shell_call_output') {
    if (callId !== undefined) book.addResult(callId, shellCallResult(item.output, at.line), file);
  } else if (OTHER_TOOL_ITEMS.has(item.type)) {
    skipped.push({
      file,
      line: at.line,
      reason: `a ${item.type} item: not a function call the course's tools can replay`,
    });
  }
}

// Reads Responses values one at a time into one transcript.
export function createOpenAiResponsesValues(file: string): ValueHandler {
  const skipped: Skip[] = [];
  const book = new CallBook(skipped);
  const pending = new Map<string, Pending>();
  let responseId: string | undefined;

  const reading: Reading = { file, skipped, book };
  const addCall = (
    callId: string | undefined,
    name: string | undefined,
    input: ReturnType<typeof parseToolInput>,
    at: At,
  ): void => readCall(reading, callId, name, input, at);
  const addItem = (item: unknown, at: At): void => readItem(reading, item, at);

  const streamEvent = (event: JsonObject, line: number): void => {
    const item = objectAt(event, 'item');
    const key = String(
      stringAt(event, 'item_id') ?? (item === undefined ? undefined : stringAt(item, 'id')) ?? event.output_index,
    );
    const response = objectAt(event, 'response');
    if (response !== undefined) responseId = stringAt(response, 'id') ?? responseId;
    if (event.type === 'response.output_item.added' && item?.type === 'function_call') {
      pending.set(key, {
        callId: stringAt(item, 'call_id'),
        name: stringAt(item, 'name'),
        parts: [],
        line,
        messageId: responseId,
      });
    } else if (event.type === 'response.function_call_arguments.delta') {
      pending.get(key)?.parts.push(stringAt(event, 'delta') ?? '');
    } else if (event.type === 'response.output_item.done' && item !== undefined) {
      const started = pending.get(key);
      pending.delete(key);
      addItem(item, { file, line: started?.line ?? line, messageId: responseId });
    } else if (response !== undefined) {
      for (const done of arrayAt(response, 'output') ?? [])
        if (isObject(done) && done.type === 'function_call') addItem(done, { file, line, messageId: responseId });
    }
  };

  return {
    value(value: unknown, line: number): void {
      if (isStreamEvent(value)) {
        streamEvent(value, line);
        return;
      }
      const found = itemsOf(value);
      if (found === undefined)
        skipped.push({ file, line, reason: 'not a Responses request, response, items array or item' });
      else for (const item of found.items) addItem(item, { file, line, messageId: found.messageId });
    },
    finish(): ParsedFile {
      for (const call of pending.values()) {
        const input = parseToolInput(call.parts.join(''));
        const unfinished =
          'malformed' in input
            ? { malformed: `streamed ${input.malformed} (the stream ended before the call was done)` }
            : input;
        addCall(call.callId, call.name, unfinished, { file, line: call.line, messageId: call.messageId });
      }
      pending.clear();
      return { calls: book.finish().flatMap(expandShellCall), skipped };
    },
  };
}

// A shell_call's output: per command `{stdout, stderr, outcome: {type: "exit", exit_code} | {type: "timeout"}}`.
// One command's is the result; with several, each command's report is kept beside the whole (`runs`), and the
// call becomes one Bash call per command (shell-call.ts).
function shellCallResult(output: unknown, line: number): ImportedResult {
  const runs: ShellRun[] = (Array.isArray(output) ? output.filter(isObject) : []).map((r) => {
    const outcome = objectAt(r, 'outcome');
    const code = outcome?.type === 'exit' && typeof outcome.exit_code === 'number' ? outcome.exit_code : undefined;
    return {
      output: `${stringAt(r, 'stdout') ?? ''}${stringAt(r, 'stderr') ?? ''}`,
      ...(code !== undefined ? { exitCode: code } : {}),
    };
  });
  const code = runs.at(-1)?.exitCode;
  const details = { ...(code !== undefined ? { exit_code: code } : {}), ...(runs.length > 1 ? { runs } : {}) };
  return {
    content: runs.map((r) => r.output).join(''),
    isError: code === undefined || code !== 0,
    ...(Object.keys(details).length > 0 ? { details } : {}),
    line,
  };
}
