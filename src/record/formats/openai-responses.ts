// OpenAI Responses API: calls are `function_call` items (`call_id`, `name`, `arguments` as a JSON string), results
// are `function_call_output` items naming the same `call_id`. Read from a request body (`input`), a response
// (`output`), a bare array of items, one item, or JSONL of these.
import type { Skip } from '../types.ts';
import { CallBook } from './call-book.ts';
import { arrayAt, contentText, isObject, stringAt, toolInputValue, parseToolInput } from './json-values.ts';
import type { ParsedFile } from './parsed-file.ts';
import type { ValueHandler } from './values.ts';

const CALL_ITEMS = new Set(['function_call', 'function_call_output']);
// Items for tools the course has no counterpart for, or whose input is not JSON: counted, not imported.
const OTHER_TOOL_ITEMS = new Set(['custom_tool_call', 'local_shell_call', 'shell_call', 'apply_patch_call', 'computer_call', 'web_search_call', 'file_search_call', 'code_interpreter_call', 'mcp_call']);

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

// Whether a value is recognisably Responses: a response object, or function_call/function_call_output items.
export function looksOpenAiResponses(value: unknown): boolean {
  if (isObject(value) && value.object === 'response') return true;
  return (itemsOf(value)?.items ?? []).some((item) => isObject(item) && typeof item.type === 'string' && CALL_ITEMS.has(item.type));
}

// Reads Responses values one at a time into one transcript.
export function createOpenAiResponsesValues(file: string): ValueHandler {
  const skipped: Skip[] = [];
  const book = new CallBook(skipped);
  return {
    value(value: unknown, line: number): void {
      const found = itemsOf(value);
      if (found === undefined) {
        skipped.push({ file, line, reason: 'not a Responses request, response, items array or item' });
        return;
      }
      for (const item of found.items) {
        if (!isObject(item) || typeof item.type !== 'string') continue;
        const callId = stringAt(item, 'call_id');
        if (item.type === 'function_call') {
          const name = stringAt(item, 'name');
          if (callId === undefined || name === undefined) {
            skipped.push({ file, line, reason: 'a function_call item without a call_id or a name' });
            continue;
          }
          const input = typeof item.arguments === 'string' ? parseToolInput(item.arguments) : toolInputValue(item.arguments);
          book.addCall({ id: callId, name, ...input, file, line, ...(found.messageId !== undefined ? { messageId: found.messageId } : {}) });
        } else if (item.type === 'function_call_output') {
          if (callId === undefined) skipped.push({ file, line, reason: 'a function_call_output item without a call_id' });
          else book.addResult(callId, { content: contentText(item.output), isError: false, line }, file);
        } else if (OTHER_TOOL_ITEMS.has(item.type)) {
          skipped.push({ file, line, reason: `a ${item.type} item: not a function call the course's tools can replay` });
        }
      }
    },
    finish(): ParsedFile {
      return { calls: book.finish(), skipped };
    },
  };
}
