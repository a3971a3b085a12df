// Vercel AI SDK message arrays, as apps keep their chats: `ModelMessage`s (an assistant message's `tool-call`
// parts, `toolCallId`, `toolName`, `input` (`args` before v5); a `tool` message's `tool-result` parts, `output`
// `{type: "text" | "json" | "error-text" | "error-json" | "content", value}` (`result` before v5)) and
// `UIMessage`s (`parts` of type `tool-<name>` or `dynamic-tool` with `state`, `input`, `output`, `errorText`; v4's
// `tool-invocation` parts with `toolInvocation: {state, toolCallId, toolName, args, result}`). Read from an array of
// messages, one message, `{messages: [...]}`, or JSONL of these; paired by toolCallId.
import type { ImportedResult, Skip } from '../types.ts';
import { CallBook } from './call-book.ts';
import { arrayAt, contentText, isObject, type JsonObject, objectAt, stringAt, toolInputValue } from './json-values.ts';
import type { ParsedFile } from './parsed-file.ts';
import type { ValueHandler } from './values.ts';

// The messages of one value.
function messagesOf(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (!isObject(value)) return [];
  return arrayAt(value, 'messages') ?? (typeof value.role === 'string' ? [value] : []);
}

// The parts of a message that carry a call or a result.
function toolParts(message: unknown): JsonObject[] {
  if (!isObject(message)) return [];
  const parts = arrayAt(message, 'parts') ?? arrayAt(message, 'content') ?? [];
  return parts.filter(
    (p): p is JsonObject =>
      isObject(p) &&
      typeof p.type === 'string' &&
      (p.type === 'tool-invocation' ||
        (p.type.startsWith('tool-') && typeof p.toolCallId === 'string') ||
        p.type === 'dynamic-tool'),
  );
}

// Whether a value is recognisably the AI SDK's: a message with tool-call, tool-result or tool UI parts.
export function looksAiSdk(value: unknown): boolean {
  return messagesOf(value).some((m) => toolParts(m).length > 0);
}

// Reads AI SDK values one at a time into one transcript.
export function createAiSdkValues(file: string): ValueHandler {
  const skipped: Skip[] = [];
  const book = new CallBook(skipped);
  const call = (id: unknown, name: unknown, input: unknown, line: number, messageId?: string): void => {
    if (typeof id !== 'string' || typeof name !== 'string') {
      skipped.push({ file, line, reason: 'a tool call part without a toolCallId or a toolName' });
      return;
    }
    book.addCall({
      id,
      name,
      ...toolInputValue(input ?? {}),
      file,
      line,
      ...(messageId !== undefined ? { messageId } : {}),
    });
  };
  const result = (id: unknown, content: string, isError: boolean, line: number): void => {
    if (typeof id === 'string') book.addResult(id, { content, isError, line } satisfies ImportedResult, file);
  };

  const part = (p: JsonObject, line: number, messageId: string | undefined): void => {
    if (p.type === 'tool-call') call(p.toolCallId, p.toolName, p.input ?? p.args, line, messageId);
    else if (p.type === 'tool-result') {
      const output = objectAt(p, 'output');
      if (output !== undefined && typeof output.type === 'string')
        result(p.toolCallId, outputText(output), output.type.startsWith('error'), line);
      else result(p.toolCallId, valueText(p.result ?? p.output), p.isError === true, line);
    } else if (p.type === 'tool-invocation') {
      const invocation = objectAt(p, 'toolInvocation') ?? {};
      call(invocation.toolCallId, invocation.toolName, invocation.args, line, messageId);
      if (invocation.state === 'result') result(invocation.toolCallId, valueText(invocation.result), false, line);
    } else {
      const name = p.type === 'dynamic-tool' ? p.toolName : String(p.type).slice('tool-'.length);
      call(p.toolCallId, name, p.input, line, messageId);
      if (p.state === 'output-available') result(p.toolCallId, valueText(p.output), false, line);
      else if (p.state === 'output-error') result(p.toolCallId, stringAt(p, 'errorText') ?? '', true, line);
    }
  };

  return {
    value(value: unknown, line: number): void {
      for (const message of messagesOf(value)) {
        const messageId = isObject(message) ? stringAt(message, 'id') : undefined;
        for (const p of toolParts(message)) part(p, line, messageId);
      }
    },
    finish(): ParsedFile {
      return { calls: book.finish(), skipped };
    },
  };
}

// A v5 tool output's text: text as is, JSON as JSON, content parts' text joined.
function outputText(output: JsonObject): string {
  if (output.type === 'content') return contentText(output.value);
  return valueText(output.value);
}

function valueText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}
