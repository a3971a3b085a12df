// Codex CLI rollouts (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl), one line at a time: each line is
// `{timestamp, type, payload}`. `session_meta` holds the session's id and cwd (`turn_context` a later cwd); a
// `response_item` payload is a Responses API item: calls are `function_call` (`shell` with `command` as an argv,
// `exec_command` with `cmd` as a shell line), `local_shell_call` (its `action.command`) and `custom_tool_call`
// (`exec` with the shell line as its input; `apply_patch`, whose patch the course has no tool for: imported, then
// dropped and counted by the mapper);
// results are `function_call_output` / `custom_tool_call_output` items naming the same `call_id`.
import type { ImportedResult, Skip } from '../types.ts';
import { CallBook } from './call-book.ts';
import {
  contentText,
  isObject,
  type JsonObject,
  objectAt,
  parseJson,
  parseToolInput,
  stringAt,
} from './json-values.ts';
import { type LineParser, lineObject, type ParsedFile, SessionFacts } from './parsed-file.ts';
import type { Line } from './read-lines.ts';

const LINE_TYPES = new Set(['session_meta', 'response_item', 'turn_context', 'event_msg', 'compacted']);

// Whether a parsed line is a Codex rollout's: a known line type with an object payload.
export function isCodexLine(value: unknown): boolean {
  return isObject(value) && LINE_TYPES.has(String(value.type)) && isObject(value.payload);
}

// A parser for one rollout file.
export function createCodexParser(file: string): LineParser {
  const skipped: Skip[] = [];
  const book = new CallBook(skipped);
  const facts = new SessionFacts();
  let cwd: string | undefined;

  const addCall = (payload: JsonObject, line: number, timestamp: string | undefined, name: string, input: unknown) => {
    const id = stringAt(payload, 'call_id') ?? stringAt(payload, 'id');
    if (id === undefined) {
      skipped.push({ file, line, reason: `a ${String(payload.type)} item without a call_id` });
      return;
    }
    const parsed = typeof input === 'string' ? parseToolInput(input) : isObject(input) ? { input } : { input: {} };
    book.addCall({
      id,
      name,
      ...parsed,
      file,
      line,
      ...(cwd !== undefined ? { cwd: facts.intern(cwd) } : {}),
      ...(timestamp !== undefined ? { timestamp } : {}),
    });
  };

  const item = (payload: JsonObject, line: number, timestamp: string | undefined): void => {
    switch (payload.type) {
      case 'function_call':
        addCall(payload, line, timestamp, stringAt(payload, 'name') ?? '', payload.arguments);
        return;
      case 'local_shell_call':
        addCall(payload, line, timestamp, 'local_shell', objectAt(payload, 'action') ?? {});
        return;
      case 'custom_tool_call':
        addCall(payload, line, timestamp, stringAt(payload, 'name') ?? '', { input: payload.input });
        return;
      case 'function_call_output':
      case 'custom_tool_call_output': {
        const id = stringAt(payload, 'call_id');
        if (id === undefined) skipped.push({ file, line, reason: `a ${payload.type} item without a call_id` });
        else {
          const result = codexResult(payload.output, line);
          book.addResult(id, result, file);
          if (/^exec command rejected by user/i.test(result.content)) book.markNotRun(id, 'rejected by the user');
        }
      }
    }
  };

  return {
    line(entry: Line): void {
      const record = lineObject(file, entry, skipped);
      if (record === undefined || !isObject(record.payload)) return;
      const timestamp = stringAt(record, 'timestamp');
      const payload = record.payload;
      if (record.type === 'session_meta') {
        facts.see({ sessionId: payload.id, cwd: payload.cwd, timestamp });
        cwd = stringAt(payload, 'cwd') ?? cwd;
      } else if (record.type === 'turn_context') cwd = stringAt(payload, 'cwd') ?? cwd;
      else if (record.type === 'compacted') skipped.push({ file, line: entry.line, reason: 'a compaction line' });
      if (timestamp !== undefined) facts.see({ timestamp });
      if (record.type === 'response_item') item(payload, entry.line, timestamp);
    },
    finish(): ParsedFile {
      return { calls: book.finish(), skipped, ...facts.toParsed() };
    },
  };
}

// A command's output as Codex handed it to the model, taken out of its wrapper, with the exit code beside it:
// `{"output": …, "metadata": {"exit_code": N}}` (older rollouts), `Exit code: N\nWall time: …\nOutput:\n…` (the
// shell tool), `…Process exited with code N\n…Output:\n…` (exec_command). A command still running when Codex
// answered (`Process running with session ID N`) has no exit code (`running`). Anything else is kept as it is.
export function codexResult(output: unknown, line: number): ImportedResult {
  // Newer rollouts give the output as content items (`[{type: "input_text", text}]`).
  const text =
    typeof output === 'string' ? output : Array.isArray(output) ? contentText(output) : JSON.stringify(output ?? '');
  const wrapped = parseJson(text);
  if (wrapped.ok && isObject(wrapped.value) && typeof wrapped.value.output === 'string') {
    const code = objectAt(wrapped.value, 'metadata')?.exit_code;
    return shellResult(wrapped.value.output, typeof code === 'number' ? code : undefined, line);
  }
  const shell = /^Exit code: (-?\d+)\n(?:Wall time: [^\n]*\n)?(?:Total output lines: \d+\n)?Output:\n([\s\S]*)$/.exec(
    text,
  );
  if (shell !== null) return shellResult(shell[2] ?? '', Number(shell[1]), line);
  const exec = /(?:^|\n)Process exited with code (-?\d+)\n(?:[^\n]*\n)*?Output:\n([\s\S]*)$/.exec(text);
  if (exec !== null) return shellResult(exec[2] ?? '', Number(exec[1]), line);
  if (/(?:^|\n)Process running with session ID \d+/.test(text))
    return { content: text, isError: false, details: { running: true }, line };
  return { content: text, isError: false, line };
}

function shellResult(output: string, exitCode: number | undefined, line: number): ImportedResult {
  return {
    content: output,
    isError: exitCode !== undefined && exitCode !== 0,
    ...(exitCode !== undefined ? { details: { exit_code: exitCode } } : {}),
    line,
  };
}
