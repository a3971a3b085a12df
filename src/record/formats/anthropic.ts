// Anthropic Messages API: calls are `tool_use` blocks of assistant messages, results are `tool_result` blocks of
// user messages, paired by id. Read from a request body (`messages`), a bare messages array, a response Message,
// JSONL of any of these (a log of successive requests repeats the history: each call is kept once), and the
// messages that anthropic-sse.ts rebuilds from a stream.
import type { ImportedCall, Skip } from '../types.ts';
import { CallBook } from './call-book.ts';
import { arrayAt, contentText, isObject, type JsonObject, stringAt, toolInputValue } from './json-values.ts';
import type { ParsedFile } from './parsed-file.ts';
import type { ValueHandler } from './values.ts';

// Blocks for tools that run at Anthropic, not in the agent: there is nothing of the agent's to replay.
const SERVER_TOOL_BLOCKS = new Set(['server_tool_use', 'mcp_tool_use']);

// Where a message's calls are reported: the file, and the line of each block (a request body's first line, a JSONL
// line, an SSE content_block_start).
export type MessagePlace = {
  file: string;
  line: number;
  lineOf?: (block: JsonObject) => number | undefined;
  timestamp?: string;
};

// Adds a list of messages' calls and results to `book`; blocks that cannot be used become skips.
export function addMessages(book: CallBook, skipped: Skip[], messages: unknown[], place: MessagePlace): void {
  for (const message of messages) {
    if (!isObject(message)) continue;
    const content = arrayAt(message, 'content');
    if (content === undefined) continue;
    const messageId = stringAt(message, 'id');
    for (const block of content) {
      if (!isObject(block)) continue;
      const line = place.lineOf?.(block) ?? place.line;
      if (block.type === 'tool_use')
        addToolUse(book, skipped, block, { file: place.file, line, messageId, timestamp: place.timestamp });
      else if (block.type === 'tool_result') {
        const id = stringAt(block, 'tool_use_id');
        if (id === undefined) continue;
        book.addResult(id, { content: contentText(block.content), isError: block.is_error === true, line }, place.file);
      } else if (typeof block.type === 'string' && SERVER_TOOL_BLOCKS.has(block.type)) {
        const name = stringAt(block, 'name') ?? 'unnamed';
        skipped.push({
          file: place.file,
          line,
          reason: `${block.type} ${name}: a tool that runs at Anthropic, not in the agent`,
        });
      }
    }
  }
}

type BlockPlace = { file: string; line: number; messageId: string | undefined; timestamp: string | undefined };

function addToolUse(book: CallBook, skipped: Skip[], block: JsonObject, at: BlockPlace): void {
  const id = stringAt(block, 'id');
  const name = stringAt(block, 'name');
  if (id === undefined || name === undefined) {
    skipped.push({ file: at.file, line: at.line, reason: 'tool_use block without an id or a name' });
    return;
  }
  const malformed = stringAt(block, 'malformed');
  const input = malformed !== undefined ? { malformed } : toolInputValue(block.input);
  book.addCall({
    id,
    name,
    ...input,
    file: at.file,
    line: at.line,
    ...(at.messageId !== undefined ? { messageId: at.messageId } : {}),
    ...(at.timestamp !== undefined ? { timestamp: at.timestamp } : {}),
  });
}

// The calls in a list of Messages API messages, e.g. a captured request's `messages` with its response appended
// (a streamed response rebuilt by parseSseText). Each call is paired with its result by id; `file` names the source
// in the calls and skips (default "messages").
export function messagesToCalls(
  messages: unknown[],
  place: Partial<MessagePlace> = {},
): { calls: ImportedCall[]; skipped: Skip[] } {
  const skipped: Skip[] = [];
  const book = new CallBook(skipped);
  addMessages(book, skipped, messages, {
    file: place.file ?? 'messages',
    line: place.line ?? 1,
    ...(place.lineOf ? { lineOf: place.lineOf } : {}),
  });
  return { calls: book.finish(), skipped };
}

// The messages in one Anthropic value: a request body's `messages`, a bare array, a response Message, one message.
export function anthropicMessagesOf(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (!isObject(value)) return undefined;
  const messages = arrayAt(value, 'messages');
  if (messages !== undefined) return messages;
  if (typeof value.role === 'string' && 'content' in value) return [value];
  return undefined;
}

// Whether a value is recognisably Anthropic's: a response Message, or messages holding tool_use/tool_result blocks.
export function looksAnthropic(value: unknown): boolean {
  if (isObject(value) && value.type === 'message' && value.role === 'assistant' && Array.isArray(value.content))
    return true;
  const messages = anthropicMessagesOf(value);
  return (messages ?? []).some(
    (m) =>
      isObject(m) &&
      (arrayAt(m, 'content') ?? []).some((b) => isObject(b) && (b.type === 'tool_use' || b.type === 'tool_result')),
  );
}

// Reads Anthropic values one at a time into one transcript.
export function createAnthropicValues(file: string): ValueHandler {
  const skipped: Skip[] = [];
  const book = new CallBook(skipped);
  return {
    value(value: unknown, line: number): void {
      if (isObject(value) && value.type === 'error') {
        skipped.push({
          file,
          line,
          reason: `an API error, not a message: ${contentText(JSON.stringify(value.error ?? value))}`,
        });
        return;
      }
      const messages = anthropicMessagesOf(value);
      if (messages === undefined)
        skipped.push({ file, line, reason: 'not a Messages API request, messages array, response or message' });
      else addMessages(book, skipped, messages, { file, line });
    },
    finish(): ParsedFile {
      return { calls: book.finish(), skipped };
    },
  };
}
