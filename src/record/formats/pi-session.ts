// pi's own session files (badlogic/pi-mono's coding agent, `~/.pi/agent/sessions/--<path>--/<timestamp>_<uuid>.jsonl`,
// its session documentation): a `session` header (`id`, `cwd`, `version`), then entries with an `id` and a `parentId`.
// A `message` entry holds one of pi's messages: an assistant's `toolCall` blocks (`id`, `name`, `arguments`), a
// `toolResult` message (`toolCallId`, `content`, `isError`). Model and thinking-level changes, compactions, labels
// and extension entries are entries of the same tree and hold no calls.
//
// The entries form a tree, not a list: when the user re-edits an earlier message (`/tree`, `/fork` in place), pi
// appends the new branch as children of an earlier entry and never removes the old one. The session's current
// position is its last entry (pi itself reopens a file there), so the branch read is the one from the root to that
// leaf, in parent order: the conversation the model had when the session ended. An abandoned branch's calls ran
// too, but the model of the kept branch never saw them; they are left out and counted, and a file one of them
// changed shows it in the kept branch's own results, which the replay checks. Version 1 files have no ids: each
// entry's parent is the one before it, as pi's own migration reads them.
//
// A line that is not JSON is skipped with its line, as in every format. When the kept branch runs through it (an
// entry names a parent no line holds), the branch cannot be followed, and the file is a problem naming both lines.
import type { ImportProblem, ImportedResult, Skip } from '../types.ts';
import { CallBook, type CallSighting } from './call-book.ts';
import { contentText, isObject, type JsonObject, parseToolInput, stringAt, toolInputValue } from './json-values.ts';
import { type LineParser, lineObject, type ParsedFile, SessionFacts } from './parsed-file.ts';
import type { Line } from './read-lines.ts';

// Entry types of pi's tree besides `message`, which only pi's session files write with a parentId.
const TREE_ENTRY_TYPES = new Set([
  'model_change',
  'thinking_level_change',
  'compaction',
  'branch_summary',
  'custom',
  'custom_message',
  'label',
  'session_info',
]);

// Whether a parsed line is a pi session file's: a header, a `message` entry wrapping a pi message, or another entry
// of the tree. pi's print mode (`pi --mode json`) writes the same header; its other lines are named as unread first.
export function isPiSessionLine(value: unknown): boolean {
  if (!isObject(value)) return false;
  if (value.type === 'session') return typeof value.cwd === 'string' && typeof value.id === 'string';
  if (value.type === 'message')
    return isObject(value.message) && typeof value.message.role === 'string' && typeof value.timestamp === 'string';
  return (
    TREE_ENTRY_TYPES.has(String(value.type)) &&
    ('parentId' in value || (value.type === 'model_change' && typeof value.modelId === 'string'))
  );
}

// One entry of the tree, with what it holds of calls and results.
type Entry = {
  parent: string | null;
  line: number;
  calls: CallSighting[];
  results: { id: string; result: ImportedResult }[];
};

// A parser for one pi session file.
export function createPiSessionParser(file: string): LineParser {
  const skipped: Skip[] = [];
  const facts = new SessionFacts();
  const entries = new Map<string, Entry>();
  let last: string | undefined;
  let cwd: string | undefined;

  const message = (record: JsonObject, entry: Entry, timestamp: string | undefined, id: string): void => {
    const msg = record.message;
    if (!isObject(msg)) return;
    if (msg.role === 'assistant' && Array.isArray(msg.content)) {
      for (const block of msg.content) {
        if (!isObject(block) || block.type !== 'toolCall') continue;
        const callId = stringAt(block, 'id');
        if (callId === undefined) {
          skipped.push({ file, line: entry.line, reason: 'a toolCall block without an id' });
          continue;
        }
        const args = block.arguments;
        entry.calls.push({
          id: callId,
          name: stringAt(block, 'name') ?? '',
          ...(typeof args === 'string' ? parseToolInput(args) : toolInputValue(args ?? {})),
          file,
          line: entry.line,
          messageId: id,
          ...(cwd !== undefined ? { cwd: facts.intern(cwd) } : {}),
          ...(timestamp !== undefined ? { timestamp } : {}),
        });
      }
    } else if (msg.role === 'toolResult') {
      const callId = stringAt(msg, 'toolCallId');
      if (callId === undefined) skipped.push({ file, line: entry.line, reason: 'a toolResult without a toolCallId' });
      else entry.results.push({ id: callId, result: piResult(msg, entry.line) });
    }
  };

  return {
    line(line: Line): void {
      const record = lineObject(file, line, skipped);
      if (record === undefined) return;
      const timestamp = stringAt(record, 'timestamp');
      if (record.type === 'session') {
        facts.see({ sessionId: record.id, cwd: record.cwd, timestamp });
        cwd = stringAt(record, 'cwd') ?? cwd;
        return;
      }
      if (typeof record.type !== 'string') return;
      facts.see({ timestamp });
      // Version 1 entries have no id: each one follows the entry before it.
      const id = stringAt(record, 'id') ?? `line ${line.line}`;
      const parentId = record.parentId;
      const parent = 'parentId' in record ? (typeof parentId === 'string' ? parentId : null) : (last ?? null);
      const entry: Entry = { parent, line: line.line, calls: [], results: [] };
      if (record.type === 'message') message(record, entry, timestamp, id);
      entries.set(id, entry);
      last = id;
    },
    finish(): ParsedFile {
      const book = new CallBook(skipped);
      const branch = branchTo(last, entries);
      if ('problem' in branch) {
        const broken = skipped.find((s) => /^not valid JSON/.test(s.reason));
        const because = broken === undefined ? '' : `; line ${broken.line} is ${broken.reason}`;
        const problem: ImportProblem = {
          file,
          line: branch.problem.line,
          message:
            `the pi session's branch cannot be followed: the entry on line ${branch.problem.line} names parent ` +
            `${branch.problem.parent}, which no line holds${because}. The file is damaged; restore the line ` +
            'from a copy, or record the session again',
        };
        return { calls: [], skipped, problem };
      }
      for (const id of branch.ids) {
        const entry = entries.get(id) as Entry;
        for (const call of entry.calls) book.addCall(call);
        for (const { id: callId, result } of entry.results) book.addResult(callId, result, file);
      }
      const kept = new Set(branch.ids);
      for (const [id, entry] of entries) {
        if (kept.has(id) || entry.calls.length === 0) continue;
        for (const _ of entry.calls)
          skipped.push({ file, line: entry.line, reason: 'a call on a branch the pi session left (not on its last)' });
      }
      return { calls: book.finish(), skipped, ...facts.toParsed() };
    },
  };
}

// The ids from the root to the leaf, in parent order, or the entry whose parent is missing.
function branchTo(
  leaf: string | undefined,
  entries: Map<string, Entry>,
): { ids: string[] } | { problem: { line: number; parent: string } } {
  const ids: string[] = [];
  const seen = new Set<string>();
  let at = leaf ?? null;
  while (at !== null && !seen.has(at)) {
    const entry = entries.get(at);
    if (entry === undefined) {
      const child = entries.get(ids.at(-1) ?? '');
      return { problem: { line: child?.line ?? 0, parent: at } };
    }
    seen.add(at);
    ids.push(at);
    at = entry.parent;
  }
  return { ids: ids.reverse() };
}

// A toolResult message as the model read it. pi's read that stopped short of the end notes it after the lines
// (`[Showing lines 11-20 of 120. Use offset=21 to continue.]`, `[100 more lines in file. Use offset=21 …]`): the
// lines are the result, and the ones it says it showed are beside it as `shown` (the Read's range). pi's bash ends a failing command's output with `\n\nCommand exited
// with code N` and says `(no output)` for none; the output is taken out of those words, with the exit code beside
// it, as for Codex's shell.
export function piResult(msg: JsonObject, line: number): ImportedResult {
  const content = contentText(msg.content);
  const isError = msg.isError === true;
  if (msg.toolName === 'read' && !isError) return readResult(content, line);
  if (msg.toolName !== 'bash') return { content, isError, line };
  const failed = /\n*Command exited with code (\d+)$/.exec(content);
  if (failed !== null) {
    const output = content.slice(0, failed.index);
    return {
      content: output === '(no output)' ? '' : output,
      isError: true,
      details: { exit_code: Number(failed[1]) },
      line,
    };
  }
  if (isError) return { content, isError, line };
  return { content: content === '(no output)' ? '' : content, isError, details: { exit_code: 0 }, line };
}

// A read's lines without pi's note, and the lines the note says were shown.
function readResult(content: string, line: number): ImportedResult {
  const range = /\n\n\[Showing lines (\d+)-(\d+) of (\d+)(?: \([^)]*\))?\. Use offset=\d+ to continue\.\]$/.exec(
    content,
  );
  if (range !== null) {
    const [start, end, total] = [Number(range[1]), Number(range[2]), Number(range[3])];
    return { content: content.slice(0, range.index), isError: false, details: { shown: { start, end, total } }, line };
  }
  const more = /\n\n\[(\d+) more lines in file\. Use offset=(\d+) to continue\.\]$/.exec(content);
  if (more === null) return { content, isError: false, line };
  const lines = content.slice(0, more.index);
  const next = Number(more[2]);
  const start = next - lines.split('\n').length;
  const shown = { start, end: next - 1, total: next - 1 + Number(more[1]) };
  return { content: lines, isError: false, details: { shown }, line };
}
