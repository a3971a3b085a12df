// Gemini CLI sessions (~/.gemini/tmp/<project hash>/chats/session-*.json, or .jsonl in newer versions), one record
// at a time: the session's own record (`sessionId`, `projectHash`, `startTime`), then messages (`type` "user",
// "gemini", "info"…), a message written again as it is updated (same `id`, its tool calls now with results), and
// `{"$set": …}` updates. A call is an entry of a gemini message's `toolCalls` (`id`, `name`, `args`); its result
// is its `result[].functionResponse.response` (`output`, or `error`), paired by the call's id. A whole .json session
// (`{sessionId, …, messages: [...]}`) is read as these records (json-array-lines.ts).
//
// The file does not say where the session ran (only a hash of it): the session's directory is taken to be the
// deepest directory holding every absolute path the calls name and every directory a search says it searched.
import { posix, win32 } from 'node:path';
import type { ImportedResult, Skip } from '../types.ts';
import { CallBook } from './call-book.ts';
import { arrayAt, contentText, isObject, type JsonObject, objectAt, stringAt } from './json-values.ts';
import { type LineParser, lineObject, type ParsedFile, SessionFacts } from './parsed-file.ts';
import type { Line } from './read-lines.ts';
import { comparable, isWindowsPath } from './windows-paths.ts';

// Whether a parsed record is a Gemini session's: its own record, or a gemini message.
export function isGeminiRecord(value: unknown): boolean {
  if (!isObject(value)) return false;
  if (typeof value.sessionId === 'string' && typeof value.projectHash === 'string') return true;
  return value.type === 'gemini' && typeof value.id === 'string' && 'content' in value;
}

// The records of a whole session document, its own record first.
export function geminiDocumentRecords(value: unknown): unknown[] | undefined {
  if (!isObject(value) || !isGeminiRecord(value)) return undefined;
  const messages = arrayAt(value, 'messages');
  if (messages === undefined) return undefined;
  const { messages: _, ...session } = value;
  return [session, ...messages];
}

// Keys of a call's args that hold a path, absolute where Gemini requires it.
const PATH_KEYS = ['absolute_path', 'file_path', 'path', 'dir_path'];

// A parser for one Gemini session.
export function createGeminiParser(file: string): LineParser {
  const skipped: Skip[] = [];
  const book = new CallBook(skipped);
  const facts = new SessionFacts();
  const dirs: string[] = [];

  const toolCall = (call: unknown, line: number, timestamp: string | undefined): void => {
    if (!isObject(call)) return;
    const id = stringAt(call, 'id');
    const name = stringAt(call, 'name');
    if (id === undefined || name === undefined) {
      skipped.push({ file, line, reason: 'a tool call without an id or a name' });
      return;
    }
    const args = isObject(call.args) ? call.args : {};
    if (!book.has(id)) {
      for (const key of PATH_KEYS) {
        const path = args[key];
        if (typeof path !== 'string') continue;
        const dirname = isWindowsPath(path) ? win32.dirname : posix.isAbsolute(path) ? posix.dirname : undefined;
        if (dirname !== undefined) dirs.push(key === 'dir_path' ? path : dirname(path));
      }
    }
    const at = stringAt(call, 'timestamp') ?? timestamp;
    book.addCall({ id, name, input: args, file, line, ...(at !== undefined ? { timestamp: at } : {}) });
    const result = geminiResult(call, line);
    if (result !== undefined) book.addResult(id, result, file);
    // A search names the directory it searched: `Found 2 file(s) matching "*.ts" within /p, …` (`C:\p` on Windows).
    const head = result?.content.split('\n', 1)[0] ?? '';
    const within = / within ((?:\/|[A-Za-z]:[\\/])[^\s,"]*?)[,:]? /.exec(head)?.[1];
    if (within !== undefined) dirs.push(within);
    // Its search names the directory searched relative to the session's: `… in path "src" …` for `/p/src`.
    const searched = / in path "([^"]+)"/.exec(head)?.[1];
    const searchedDir = args.dir_path ?? args.path;
    if (searched !== undefined && typeof searchedDir === 'string') {
      const root = above(searchedDir, searched);
      if (root !== undefined) dirs.push(root);
    }
    if (call.status === 'cancelled') book.markNotRun(id, 'cancelled by the user');
  };

  return {
    line(entry: Line): void {
      const record = lineObject(file, entry, skipped);
      if (record === undefined) return;
      const timestamp = stringAt(record, 'timestamp') ?? stringAt(record, 'startTime');
      facts.see({ sessionId: record.sessionId, timestamp });
      if (typeof record.lastUpdated === 'string') facts.see({ timestamp: record.lastUpdated });
      if (record.type !== 'gemini') return;
      for (const call of arrayAt(record, 'toolCalls') ?? []) toolCall(call, entry.line, timestamp);
    },
    finish(): ParsedFile {
      const cwd = commonDirectory(dirs);
      return { calls: book.finish(), skipped, ...facts.toParsed(), ...(cwd !== undefined ? { cwd } : {}) };
    },
  };
}

// What came back for a call, when it has come back: its functionResponse's `output` (an `error` is an error
// result). A shell command's output is taken out of Gemini's report (`Command: …\nDirectory: …\nOutput: …\nError:
// …\nExit Code: N\n…`), with the exit code beside it.
export function geminiResult(call: JsonObject, line: number): ImportedResult | undefined {
  const responses = (arrayAt(call, 'result') ?? [])
    .map((part) => (isObject(part) ? objectAt(part, 'functionResponse') : undefined))
    .map((response) => (response === undefined ? undefined : objectAt(response, 'response')))
    .filter((response): response is JsonObject => response !== undefined);
  const response = responses[0];
  if (response === undefined) return undefined;
  const failed = 'error' in response || call.status === 'error';
  const text = contentText(response.output ?? response.error);
  if (call.name === 'read_file' && !failed) return readResult(text, line);
  if (call.name !== 'run_shell_command') return { content: text, isError: failed, line };
  const report = shellReport(text);
  if (report === undefined) return { content: text, isError: failed, line };
  const exitCode = report.exitCode ?? (failed ? undefined : 0);
  return {
    content: report.output,
    isError: failed || (exitCode !== undefined && exitCode !== 0),
    ...(exitCode !== undefined ? { details: { exit_code: exitCode } } : {}),
    line,
  };
}

// A read of part of a file is headed by Gemini's note (`IMPORTANT: The file content has been truncated.\nStatus:
// Showing lines 11-20 of 120 total lines.\nAction: …\n\n--- FILE CONTENT (truncated) ---\n`, lines counted from 1,
// as many as `split('\n')` gives). The lines are the result; where they are in the file goes beside them, in the
// shape of Claude Code's `toolUseResult.file`, which the mapping and the seeds read.
const READ_NOTE =
  /^\n?IMPORTANT: The file content has been truncated\.\nStatus: Showing lines (\d+)-(\d+) of (\d+) total lines\.\n[\s\S]*?\n--- FILE CONTENT \(truncated\) ---\n/;

function readResult(text: string, line: number): ImportedResult {
  const note = READ_NOTE.exec(text);
  if (note === null) return { content: text, isError: false, line };
  const [start, end, total] = [Number(note[1]), Number(note[2]), Number(note[3])];
  const file = { startLine: start, numLines: end - start + 1, totalLines: total };
  return { content: text.slice(note[0].length), isError: false, details: { file }, line };
}

// The fields Gemini writes after the output, one line each.
const TAIL = /^(Error|Exit Code|Signal|Background PIDs|Process Group PGID): ?/;
const TAIL_ORDER = ['Error', 'Exit Code', 'Signal', 'Background PIDs', 'Process Group PGID'];

// The output and exit code of Gemini's shell report, or undefined when the text is no such report. The output runs
// from `Output: ` to the fields after it (read from the end, so an output line that starts `Error: ` stays output);
// `Exit Code` may come before it or after.
function shellReport(text: string): { output: string; exitCode?: number } | undefined {
  const lines = text.replace(/^<untrusted_context>\n?|\n?<\/untrusted_context>$/g, '').split('\n');
  const start = lines.findIndex((l) => /^Output: ?/.test(l));
  if (start === -1) return undefined;
  // Each field once, in Gemini's order, read backwards from the end.
  let end = lines.length;
  let before = TAIL_ORDER.length;
  for (; end - 1 > start; end--) {
    const at = TAIL_ORDER.indexOf(TAIL.exec(lines[end - 1] as string)?.[1] ?? '');
    if (at === -1 || at >= before) break;
    before = at;
  }
  const fields = [...lines.slice(0, start), ...lines.slice(end)];
  const code = fields.map((l) => /^Exit Code: (-?\d+)$/.exec(l)?.[1]).find((c) => c !== undefined);
  const output = [(lines[start] as string).replace(/^Output: ?/, ''), ...lines.slice(start + 1, end)].join('\n');
  return { output: output === '(empty)' ? '' : output, ...(code !== undefined ? { exitCode: Number(code) } : {}) };
}

// The directory `relative` is in, given its absolute path: `/p` for `/p/src` and `src`.
function above(absolute: string, relative: string): string | undefined {
  const windows = isWindowsPath(absolute);
  if (!windows && !posix.isAbsolute(absolute)) return undefined;
  const parts = (windows ? absolute.split(/[\\/]+/) : absolute.split('/')).filter((p, i) => p !== '' || i === 0);
  const tail = relative.split(/[\\/]+/).filter((p) => p !== '' && p !== '.');
  const same = (a: string, b: string) => (windows ? a.toLowerCase() === b.toLowerCase() : a === b);
  if (tail.length === 0 || tail.length >= parts.length) return undefined;
  if (!tail.every((p, i) => same(p, parts[parts.length - tail.length + i] ?? ''))) return undefined;
  const root = parts.slice(0, parts.length - tail.length).join(windows ? '\\' : '/');
  return root === '' ? '/' : root;
}

// The deepest directory holding all of these, spelled as the first. Windows paths (a drive letter, `\` or `/`) are
// compared as Windows compares them, without regard to case; a session naming both kinds has none.
function commonDirectory(dirs: string[]): string | undefined {
  const first = dirs[0];
  if (first === undefined) return undefined;
  const windows = isWindowsPath(first);
  if (dirs.some((d) => isWindowsPath(d) !== windows)) return undefined;
  const segments = (dir: string) => (windows ? comparable(dir).split('/') : dir.split('/'));
  const spelled = windows ? first.split(/[\\/]+/) : first.split('/');
  let parts = segments(first);
  for (const dir of dirs.slice(1)) {
    const other = segments(dir);
    let n = 0;
    while (n < parts.length && n < other.length && parts[n] === other[n]) n++;
    parts = parts.slice(0, n);
  }
  if (windows) {
    // Two drives have no directory in common; a drive's root is `C:\`.
    if (parts.length === 0) return undefined;
    const common = spelled.slice(0, parts.length).join('\\');
    return parts.length === 1 ? `${common}\\` : common;
  }
  const common = parts.join('/');
  return common === '' ? '/' : common;
}
