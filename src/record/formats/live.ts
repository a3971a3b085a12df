// The capture `theinference record --live` writes (src/record/live/capture-format.ts): JSONL of a session line, the
// workspace (the transcript's `workspace`, the seeds' --files-from), one line per HTTP exchange through the proxy
// (request and response bodies as text) and an end line. Messages API calls come from the responses the agent
// received whole, their results from the requests that followed; Chat Completions and Responses bodies are read as
// theirs.
import type { FileSpec } from '../../course/types.ts';
import type { ImportedCall, Skip } from '../types.ts';
import { CallBook } from './call-book.ts';
import { addMessages, anthropicMessagesOf } from './anthropic.ts';
import { parseSseText } from './anthropic-sse.ts';
import { isObject, type JsonObject, objectAt, parseJson, stringAt } from './json-values.ts';
import { createOpenAiChatValues } from './openai-chat.ts';
import { createOpenAiResponsesValues } from './openai-responses.ts';
import { type LineParser, type ParsedFile, SessionFacts, tooLongSkip } from './parsed-file.ts';
import { linesOfText } from './read-lines.ts';
import { SseFramer } from './sse-framer.ts';
import type { ValueHandler } from './values.ts';

// The `format` of a capture's first line (CAPTURE_FORMAT in src/record/live/capture-format.ts).
const CAPTURE_FORMAT = 'theinference-live-capture';

// Whether a parsed line is a live capture's session line.
export function isLiveCaptureLine(value: unknown): boolean {
  return isObject(value) && value.type === 'session' && value.format === CAPTURE_FORMAT;
}

// A parser for one live capture file.
export function createLiveParser(file: string): LineParser {
  const skipped: Skip[] = [];
  const book = new CallBook(skipped);
  const facts = new SessionFacts();
  const openai: { chat?: ValueHandler; responses?: ValueHandler } = {};
  let workspace: Record<string, FileSpec> | undefined;

  const exchange = (entry: JsonObject, line: number): void => {
    const request = objectAt(entry, 'request') ?? {};
    const response = objectAt(entry, 'response');
    const path = stringAt(request, 'path') ?? '';
    const timestamp = stringAt(entry, 'startedAt');
    const label = `exchange ${String(entry.id)} (${stringAt(request, 'method') ?? '?'} ${path})`;
    const status = response === undefined ? undefined : response.status;
    // A response the agent did not receive whole (cut short, broken off, an error status) holds no call it ran.
    const problem = stringAt(entry, 'aborted') ?? stringAt(entry, 'error');
    const usable = typeof status === 'number' && status < 400 && problem === undefined;
    if (!usable) {
      const why = problem ?? (typeof status === 'number' ? `status ${status}` : 'no response');
      skipped.push({ file, line, reason: `${label}: no usable response (${why})` });
    }
    const requestBody = parseJson(stringAt(request, 'body') ?? '');
    const responseText = response === undefined ? '' : (stringAt(response, 'body') ?? '');
    if (/\/chat\/completions/.test(path) || /\/responses/.test(path)) {
      const which = /\/chat\/completions/.test(path) ? 'chat' : 'responses';
      const handler = (openai[which] ??=
        which === 'chat' ? createOpenAiChatValues(file) : createOpenAiResponsesValues(file));
      if (requestBody.ok) handler.value(requestBody.value, line);
      if (!usable || responseText.trim() === '') return;
      const body = parseJson(responseText);
      if (body.ok) handler.value(body.value, line);
      else {
        // A streamed response: its chunks (Chat Completions) or events (Responses), which the importer reads too.
        const framer = new SseFramer(file, skipped, (event) => handler.value(event, line));
        for (const streamed of linesOfText(responseText)) framer.line(streamed);
        framer.dispatch();
      }
      return;
    }
    if (!/\/messages/.test(path)) return;
    const place = { file, line, ...(timestamp !== undefined ? { timestamp } : {}) };
    // Calls come from the responses alone: a request's history repeats them as the agent's SDK rebuilt them (a
    // max_tokens cut parsed into a truncated input) and, in a resumed session, holds calls made before the recording.
    if (requestBody.ok) addMessages(book, skipped, withoutCalls(anthropicMessagesOf(requestBody.value) ?? []), place);
    if (responseText.trim() === '' || !usable) return;
    const json = parseJson(responseText);
    if (json.ok) addMessages(book, skipped, anthropicMessagesOf(json.value) ?? [], place);
    else {
      const streamed = parseSseText(responseText, file);
      for (const skip of streamed.skipped)
        skipped.push({ file, line, reason: `${label}: ${skip.reason} (stream line ${skip.line})` });
      addMessages(book, skipped, streamed.messages, place);
    }
  };

  return {
    line(line): void {
      if ('tooLong' in line) {
        skipped.push(tooLongSkip(file, line));
        return;
      }
      if (line.text.trim() === '') return;
      const parsed = parseJson(line.text);
      if (!parsed.ok || !isObject(parsed.value)) {
        skipped.push({
          file,
          line: line.line,
          reason: parsed.ok ? 'not a JSON object' : `not valid JSON (${parsed.error})`,
        });
        return;
      }
      const entry = parsed.value;
      if (entry.type === 'session') facts.see({ cwd: entry.workspace, timestamp: entry.startedAt });
      else if (entry.type === 'workspace' && isObject(entry.files))
        workspace ??= entry.files as Record<string, FileSpec>;
      else if (entry.type === 'exchange') {
        facts.see({ timestamp: entry.endedAt });
        exchange(entry, line.line);
      } else if (entry.type === 'end') facts.see({ timestamp: entry.endedAt });
    },
    finish(): ParsedFile {
      const calls: ImportedCall[] = book.finish();
      for (const handler of [openai.chat, openai.responses]) {
        if (handler === undefined) continue;
        const done = handler.finish();
        calls.push(...done.calls);
        skipped.push(...done.skipped);
      }
      calls.sort((a, b) => a.line - b.line);
      const cwd = facts.cwd;
      return {
        calls: cwd === undefined ? calls : calls.map((c) => ({ ...c, cwd })),
        skipped,
        ...facts.toParsed(),
        ...(workspace === undefined ? {} : { workspace }),
      };
    },
  };
}

// Messages with their tool_use blocks left out: what a request adds is its results.
function withoutCalls(messages: unknown[]): unknown[] {
  return messages.map((m) =>
    isObject(m) && Array.isArray(m.content)
      ? { ...m, content: m.content.filter((b) => !(isObject(b) && b.type === 'tool_use')) }
      : m,
  );
}
