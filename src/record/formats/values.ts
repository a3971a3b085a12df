// Transcripts made of JSON values rather than of an agent's own log: API request bodies, responses and message
// arrays, either one per line (JSONL) or one (pretty-printed) document. Which API they speak is decided from the
// first value that shows it (tool_use blocks, tool_calls, function_call items), unless --format forced one.
import type { Skip } from '../types.ts';
import { createAiSdkValues, looksAiSdk } from './ai-sdk.ts';
import { createAnthropicValues, looksAnthropic } from './anthropic.ts';
import { LOOKED_FOR } from './looked-for.ts';
import { recogniseUnsupported } from './unsupported-formats.ts';
import { isObject, parseJson } from './json-values.ts';
import { createOpenAiChatValues, looksOpenAiChat } from './openai-chat.ts';
import { createOpenAiResponsesValues, looksOpenAiResponses } from './openai-responses.ts';
import { type LineParser, type ParsedFile, tooLongSkip } from './parsed-file.ts';
import type { Line } from './read-lines.ts';

export type ValueFormat = 'anthropic' | 'openai-chat' | 'openai-responses' | 'ai-sdk';

// Reads one API's values into one transcript.
export type ValueHandler = { value(value: unknown, line: number): void; finish(): ParsedFile };

// The importer of each API's values.
export const HANDLERS: Record<ValueFormat, (file: string) => ValueHandler> = {
  anthropic: createAnthropicValues,
  'openai-chat': createOpenAiChatValues,
  'openai-responses': createOpenAiResponsesValues,
  'ai-sdk': createAiSdkValues,
};

// A document is parsed whole, so it is capped; a larger transcript must come as JSONL.
export const MAX_DOCUMENT_CHARS = 64 * 1024 * 1024;
// Values held while no value has shown the API yet.
const MAX_UNDECIDED = 10_000;

// Which API a value speaks, when it shows it.
export function classifyValue(value: unknown): ValueFormat | undefined {
  if (looksAnthropic(value)) return 'anthropic';
  // Before Chat Completions: an AI SDK tool message has `role: "tool"` too.
  if (looksAiSdk(value)) return 'ai-sdk';
  if (looksOpenAiChat(value)) return 'openai-chat';
  if (looksOpenAiResponses(value)) return 'openai-responses';
  return undefined;
}

export type ValuesParser = LineParser & { format(): ValueFormat | undefined };

// JSONL of values (`mode: 'lines'`) or one JSON document (`'document'`), read with `forced` or the detected API.
export function createValuesParser(file: string, mode: 'lines' | 'document', forced?: ValueFormat): ValuesParser {
  const skipped: Skip[] = [];
  let handler: ValueHandler | undefined;
  let format = forced;
  if (forced !== undefined) handler = HANDLERS[forced](file);
  let undecided: Array<{ value: unknown; line: number }> = [];
  const document: string[] = [];
  let documentChars = 0;
  let documentTooLong = false;

  const take = (value: unknown, line: number): void => {
    if (handler === undefined) {
      const shown = classifyValue(value);
      if (shown === undefined) {
        if (undecided.length < MAX_UNDECIDED) undecided.push({ value, line });
        else skipped.push({ file, line, reason: 'a JSON value of no recognisable API' });
        return;
      }
      format = shown;
      handler = HANDLERS[shown](file);
      for (const held of undecided) handler.value(held.value, held.line);
      undecided = [];
    }
    handler.value(value, line);
  };

  return {
    format: () => format,
    line(line: Line): void {
      if ('tooLong' in line) {
        if (mode === 'document') documentTooLong = true;
        skipped.push(tooLongSkip(file, line));
        return;
      }
      if (mode === 'document') {
        documentChars += line.text.length + 1;
        if (documentChars > MAX_DOCUMENT_CHARS) documentTooLong = true;
        else document.push(line.text);
        return;
      }
      if (line.text.trim() === '') return;
      const parsed = parseJson(line.text);
      if (!parsed.ok) skipped.push({ file, line: line.line, reason: `not valid JSON (${parsed.error})` });
      else if (!isObject(parsed.value) && !Array.isArray(parsed.value))
        skipped.push({ file, line: line.line, reason: 'not a JSON object or array' });
      else take(parsed.value, line.line);
    },
    finish(): ParsedFile {
      if (mode === 'document') {
        if (documentTooLong) {
          return {
            calls: [],
            skipped,
            problem: {
              file,
              message: `a JSON document over ${MAX_DOCUMENT_CHARS / 1024 / 1024} MiB: give it as JSONL, one value per line`,
            },
          };
        }
        const text = document.join('\n');
        document.length = 0;
        const parsed = parseJson(text);
        if (!parsed.ok)
          return {
            calls: [],
            skipped,
            problem: { file, line: errorLine(text, parsed.error), message: `not valid JSON (${parsed.error})` },
          };
        take(parsed.value, 1);
      }
      if (handler === undefined) {
        const known = undecided.map((u) => recogniseUnsupported(u.value)).find((m) => m !== undefined);
        if (known !== undefined) return { calls: [], skipped, problem: { file, message: known } };
        const count = undecided.length;
        return {
          calls: [],
          skipped,
          problem: {
            file,
            message: `no known transcript format: ${count} JSON value${count === 1 ? '' : 's'}, none of them ${LOOKED_FOR}`,
          },
        };
      }
      const done = handler.finish();
      return { ...done, skipped: [...skipped, ...done.skipped] };
    },
  };
}

// The line of a JSON.parse error, from the position it names.
function errorLine(text: string, error: string): number {
  const position = /position (\d+)/.exec(error);
  if (position === null) return 1;
  const at = Number(position[1]);
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < at; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}
