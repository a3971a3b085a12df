// OpenAI Chat Completions: calls are an assistant message's `tool_calls` (`function.arguments` is a JSON string),
// results are `role: "tool"` messages naming the call by `tool_call_id`. Read from a request body (`messages`), a
// bare messages array, a response (`choices[].message`), one message, JSONL of these, and streamed
// `chat.completion.chunk`s (a call's arguments joined from its deltas, parsed when its choice finishes).
import type { Skip } from '../types.ts';
import { CallBook } from './call-book.ts';
import {
  arrayAt,
  contentText,
  isObject,
  type JsonObject,
  objectAt,
  stringAt,
  toolInputValue,
  parseToolInput,
} from './json-values.ts';
import type { ParsedFile } from './parsed-file.ts';
import type { ValueHandler } from './values.ts';

// The messages of one Chat Completions value, each with the response id it came in (for a response).
function chatMessagesOf(value: unknown): Array<{ message: unknown; messageId?: string }> | undefined {
  if (Array.isArray(value)) return value.map((message) => ({ message }));
  if (!isObject(value)) return undefined;
  const messages = arrayAt(value, 'messages');
  if (messages !== undefined) return messages.map((message) => ({ message }));
  const choices = arrayAt(value, 'choices');
  if (choices !== undefined) {
    const id = stringAt(value, 'id');
    return choices
      .filter(isObject)
      .map((choice) => ({ message: choice.message, ...(id !== undefined ? { messageId: id } : {}) }));
  }
  if (typeof value.role === 'string') return [{ message: value }];
  return undefined;
}

// Whether a value is recognisably Chat Completions: a (chunk) response, or messages with tool_calls or role "tool".
export function looksOpenAiChat(value: unknown): boolean {
  if (isObject(value) && typeof value.object === 'string' && value.object.startsWith('chat.completion')) return true;
  return (chatMessagesOf(value) ?? []).some(
    ({ message }) => isObject(message) && (Array.isArray(message.tool_calls) || message.role === 'tool'),
  );
}

function addChatMessage(
  book: CallBook,
  skipped: Skip[],
  message: JsonObject,
  at: { file: string; line: number; messageId?: string },
): void {
  for (const call of arrayAt(message, 'tool_calls') ?? []) {
    if (!isObject(call)) continue;
    const fn = objectAt(call, 'function');
    const id = stringAt(call, 'id');
    const name = fn === undefined ? undefined : stringAt(fn, 'name');
    if (fn === undefined || id === undefined || name === undefined) {
      skipped.push({
        file: at.file,
        line: at.line,
        reason: `tool call of type ${String(call.type)} without an id or a function name`,
      });
      continue;
    }
    const input = typeof fn.arguments === 'string' ? parseToolInput(fn.arguments) : toolInputValue(fn.arguments);
    book.addCall({
      id,
      name,
      ...input,
      file: at.file,
      line: at.line,
      ...(at.messageId !== undefined ? { messageId: at.messageId } : {}),
    });
  }
  if (isObject(message.function_call) && message.tool_calls === undefined) {
    skipped.push({ file: at.file, line: at.line, reason: 'a legacy function_call (no call id to pair its result by)' });
  }
  if (message.role === 'tool') {
    const id = stringAt(message, 'tool_call_id');
    if (id === undefined)
      skipped.push({ file: at.file, line: at.line, reason: 'a role "tool" message without a tool_call_id' });
    else book.addResult(id, { content: contentText(message.content), isError: false, line: at.line }, at.file);
  }
}

type Streamed = { id?: string; name?: string; parts: string[]; line: number; messageId?: string };

// Reads Chat Completions values one at a time into one transcript.
export function createOpenAiChatValues(file: string): ValueHandler {
  const skipped: Skip[] = [];
  const book = new CallBook(skipped);
  // Streamed calls by response id, choice index and tool call index, until their choice finishes.
  const streamed = new Map<string, Streamed>();

  const flush = (key: string, why: string | undefined): void => {
    const call = streamed.get(key);
    streamed.delete(key);
    if (call === undefined) return;
    if (call.id === undefined || call.name === undefined) {
      skipped.push({ file, line: call.line, reason: 'a streamed tool call without an id or a function name' });
      return;
    }
    const input = parseToolInput(call.parts.join(''));
    const shown =
      'malformed' in input && why !== undefined ? { malformed: `streamed ${input.malformed} (${why})` } : input;
    book.addCall({
      id: call.id,
      name: call.name,
      ...shown,
      file,
      line: call.line,
      ...(call.messageId !== undefined ? { messageId: call.messageId } : {}),
    });
  };

  const chunk = (value: JsonObject, line: number): void => {
    const responseId = stringAt(value, 'id') ?? '';
    for (const choice of arrayAt(value, 'choices') ?? []) {
      if (!isObject(choice)) continue;
      const prefix = `${responseId}/${String(choice.index ?? 0)}/`;
      for (const call of arrayAt(objectAt(choice, 'delta') ?? {}, 'tool_calls') ?? []) {
        if (!isObject(call)) continue;
        const key = `${prefix}${String(call.index ?? 0)}`;
        const entry = streamed.get(key) ?? { parts: [], line, ...(responseId !== '' ? { messageId: responseId } : {}) };
        streamed.set(key, entry);
        const fn = objectAt(call, 'function') ?? {};
        const id = stringAt(call, 'id');
        const name = stringAt(fn, 'name');
        if (id !== undefined) entry.id ??= id;
        if (name !== undefined) entry.name ??= name;
        const args = stringAt(fn, 'arguments');
        if (args !== undefined) entry.parts.push(args);
      }
      const finished = stringAt(choice, 'finish_reason');
      if (finished === undefined) continue;
      for (const key of [...streamed.keys()].filter((k) => k.startsWith(prefix)))
        flush(key, finished === 'length' ? 'the response stopped at the length limit' : undefined);
    }
  };

  return {
    value(value: unknown, line: number): void {
      if (isObject(value) && value.object === 'chat.completion.chunk') {
        chunk(value, line);
        return;
      }
      const messages = chatMessagesOf(value);
      if (messages === undefined) {
        skipped.push({ file, line, reason: 'not a Chat Completions request, messages array, response or message' });
        return;
      }
      for (const { message, messageId } of messages) {
        if (isObject(message))
          addChatMessage(book, skipped, message, { file, line, ...(messageId !== undefined ? { messageId } : {}) });
      }
    },
    finish(): ParsedFile {
      for (const key of [...streamed.keys()]) flush(key, 'the stream ended before the choice finished');
      return { calls: book.finish(), skipped };
    },
  };
}
