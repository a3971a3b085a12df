// Claude Code's session JSONL (~/.claude/projects/<project>/<session>.jsonl and its subagents/*.jsonl) and the
// `claude -p --output-format stream-json` output, one line at a time. Calls are `tool_use` blocks of assistant
// lines, results are `tool_result` blocks of user lines, paired by id: one API message is spread over several
// lines with results in between, and parallel calls' results come back in any order.
import type { Skip } from '../types.ts';
import { CallBook } from './call-book.ts';
import { leanDetails } from './claude-code-details.ts';
import { notRunReason } from './claude-code-not-run.ts';
import { expandMultiEdit } from './multi-edit.ts';
import {
  arrayAt,
  contentText,
  isObject,
  type JsonObject,
  objectAt,
  parseJson,
  stringAt,
  toolInputValue,
} from './json-values.ts';
import { type LineParser, type ParsedFile, SessionFacts, tooLongSkip } from './parsed-file.ts';
import type { Line } from './read-lines.ts';

// The line types Claude Code writes; detection looks for one of these with a session id.
export const CLAUDE_CODE_LINE_TYPES = new Set([
  'user',
  'assistant',
  'system',
  'progress',
  'summary',
  'result',
  'queue-operation',
  'file-history-snapshot',
]);

// Whether a parsed line is Claude Code's: a known line type and a session (or message) identity.
export function isClaudeCodeLine(value: unknown): boolean {
  if (!isObject(value)) return false;
  const type = stringAt(value, 'type');
  if (type === undefined || !CLAUDE_CODE_LINE_TYPES.has(type)) return false;
  return (
    'sessionId' in value ||
    'session_id' in value ||
    'uuid' in value ||
    'leafUuid' in value ||
    (type === 'file-history-snapshot' && 'messageId' in value)
  );
}

type Where = { line: number; agent: string | undefined; cwd: string | undefined; timestamp: string | undefined };

// What one file's parser has gathered so far, for the steps that read a message's blocks.
type Parsing = {
  file: string;
  skipped: Skip[];
  book: CallBook;
  facts: SessionFacts;
  errorResults: Array<{ id: string; content: string }>;
};

// An assistant message's `tool_use` blocks, each a call.
function readCalls(p: Parsing, content: unknown[], message: JsonObject | undefined, where: Where): void {
  const messageId = message === undefined ? undefined : stringAt(message, 'id');
  for (const block of content) {
    if (!isObject(block) || block.type !== 'tool_use') continue;
    const id = stringAt(block, 'id');
    const name = stringAt(block, 'name');
    if (id === undefined || name === undefined) {
      p.skipped.push({ file: p.file, line: where.line, reason: 'tool_use block without an id or a name' });
      continue;
    }
    p.book.addCall({
      id,
      name,
      ...toolInputValue(block.input),
      file: p.file,
      line: where.line,
      ...(where.cwd !== undefined ? { cwd: p.facts.intern(where.cwd) } : {}),
      ...(where.timestamp !== undefined ? { timestamp: where.timestamp } : {}),
      ...(where.agent !== undefined ? { agent: p.facts.intern(where.agent) } : {}),
      ...(messageId !== undefined ? { messageId } : {}),
    });
  }
}

// A user message's `tool_result` blocks, each paired with its call by id; an error kept to tell later whether the
// call ran at all.
function readResults(p: Parsing, content: unknown[], where: Where, toolUseResult: unknown): void {
  const results = content.filter((block) => isObject(block) && block.type === 'tool_result') as JsonObject[];
  for (const block of results) {
    const id = stringAt(block, 'tool_use_id');
    if (id === undefined) continue;
    const text = contentText(block.content);
    const isError = block.is_error === true;
    // toolUseResult belongs to the line, so it is only the result's own when the line holds one result.
    const details = results.length === 1 ? leanDetails(toolUseResult) : undefined;
    p.book.addResult(
      id,
      { content: text, isError, ...(details !== undefined ? { details } : {}), line: where.line },
      p.file,
    );
    if (isError) p.errorResults.push({ id, content: text });
  }
}

// A parser for one Claude Code file (the main session, one subagent file, or a stream-json capture).
export function createClaudeCodeParser(file: string): LineParser {
  const skipped: Skip[] = [];
  const book = new CallBook(skipped);
  const facts = new SessionFacts();
  const hookRan = new Set<string>();
  const errorResults: Array<{ id: string; content: string }> = [];
  const parsing: Parsing = { file, skipped, book, facts, errorResults };

  const readMessage = (entry: JsonObject, where: Where, toolUseResult: unknown): void => {
    const message = objectAt(entry, 'message');
    const content = message === undefined ? undefined : arrayAt(message, 'content');
    if (content === undefined) return;
    const type = stringAt(entry, 'type');
    if (type === 'assistant') readCalls(parsing, content, message, where);
    else if (type === 'user') readResults(parsing, content, where, toolUseResult);
  };

  const readLine = (entry: JsonObject, line: number): void => {
    const type = stringAt(entry, 'type');
    facts.see({ sessionId: entry.sessionId ?? entry.session_id, cwd: entry.cwd, timestamp: entry.timestamp });
    const where: Where = {
      line,
      agent: stringAt(entry, 'agentId') ?? stringAt(entry, 'parent_tool_use_id'),
      cwd: stringAt(entry, 'cwd') ?? facts.cwd,
      timestamp: stringAt(entry, 'timestamp'),
    };
    if (type === 'assistant' || type === 'user') {
      if (entry.isCompactSummary === true) {
        skipped.push({ file, line, reason: 'compact summary (the conversation so far, retold after a compaction)' });
        return;
      }
      readMessage(entry, where, entry.toolUseResult ?? entry.tool_use_result);
    } else if (type === 'system' && entry.subtype === 'compact_boundary') {
      skipped.push({ file, line, reason: 'compact boundary (the conversation was compacted here)' });
    } else if (type === 'progress') {
      readProgress(entry, where);
    } else if (type === 'result') {
      for (const denial of arrayAt(entry, 'permission_denials') ?? []) {
        const id = isObject(denial) ? stringAt(denial, 'tool_use_id') : undefined;
        if (id !== undefined) book.markNotRun(id, "denied by Claude Code's permission settings");
      }
    }
  };

  // agent_progress repeats a subagent's messages in the main session (the subagents/ file usually has them too);
  // a PreToolUse hook_progress line says a hook ran before the call it names.
  const readProgress = (entry: JsonObject, where: Where): void => {
    const data = objectAt(entry, 'data');
    if (data === undefined) return;
    if (data.type === 'hook_progress' && data.hookEvent === 'PreToolUse') {
      const id = stringAt(entry, 'toolUseID') ?? stringAt(entry, 'parentToolUseID');
      if (id !== undefined) hookRan.add(id);
    } else if (data.type === 'agent_progress') {
      const inner = objectAt(data, 'message');
      if (inner === undefined) return;
      const agent = stringAt(data, 'agentId') ?? where.agent ?? 'subagent';
      readMessage(
        inner,
        { ...where, agent, timestamp: stringAt(inner, 'timestamp') ?? where.timestamp },
        inner.toolUseResult,
      );
    }
  };

  return {
    line(line: Line): void {
      if ('tooLong' in line) {
        skipped.push(tooLongSkip(file, line));
        return;
      }
      if (line.text.trim() === '') return;
      const parsed = parseJson(line.text);
      if (!parsed.ok) skipped.push({ file, line: line.line, reason: `not valid JSON (${parsed.error})` });
      else if (!isObject(parsed.value)) skipped.push({ file, line: line.line, reason: 'not a JSON object' });
      else readLine(parsed.value, line.line);
    },
    finish(): ParsedFile {
      for (const { id, content } of errorResults) {
        const reason = notRunReason(content, hookRan.has(id));
        if (reason !== undefined) book.markNotRun(id, reason);
      }
      return { calls: book.finish().flatMap(expandMultiEdit), skipped, ...facts.toParsed() };
    },
  };
}
