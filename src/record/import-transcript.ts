// The recorder's one way in: a transcript file (or text already in memory) -> every tool call the agent made,
// paired with its result, or a problem that names the file, the line and what to do. Never throws on content.
// A Claude Code main session brings its <session>/subagents/*.jsonl along (a subagent file given alone imports
// alone); the importers themselves are pure over lines (src/record/formats/).
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isTranscriptFormat, unknownFormat } from './formats/detect-format.ts';
import { mergeSessionCalls } from './formats/merge-session-calls.ts';
import type { ParsedFile } from './formats/parsed-file.ts';
import { type LineLimits, linesOfFile, linesOfText, looksBinary, readStart } from './formats/read-lines.ts';
import { type ReadFile, TranscriptReader } from './formats/transcript-reader.ts';
import type { ImportedTranscript, ImportProblem, Skip, TranscriptFormat } from './types.ts';

export type ImportOptions = LineLimits & { format?: TranscriptFormat };

// Imports a transcript file: detects its format (or reads it as `options.format`), streams it line by line.
export async function importTranscript(
  file: string,
  options: ImportOptions = {},
): Promise<ImportedTranscript | ImportProblem> {
  if (options.format !== undefined && !isTranscriptFormat(options.format)) return unknownFormat(options.format, file);
  const problem = await transcriptFileProblem(file);
  if (problem !== undefined) return { file, message: problem };
  try {
    const main = await readFileLines(file, options);
    if (!('parsed' in main)) return main;
    if (main.format !== 'claude-code' || isSubagentFile(file)) return assemble([file], main, []);
    const subagents = await readSubagents(file, options);
    return assemble([file, ...subagents.files], main, subagents.parsed, subagents.skipped);
  } catch (error) {
    return { file, message: failure(error) };
  }
}

// Why `file` cannot be a transcript before a line of it is read (no such file, a directory, empty, binary), if so.
export async function transcriptFileProblem(file: string): Promise<string | undefined> {
  try {
    const info = await stat(file);
    if (!info.isFile()) return 'not a file: give the path of a transcript file';
    if (info.size === 0) return 'empty file';
    if (looksBinary(await readStart(file))) return BINARY;
    return undefined;
  } catch (error) {
    return failure(error);
  }
}

const BINARY = 'a binary file, not a transcript: it holds NUL bytes (UTF-16 text does too: save it as UTF-8)';

// A file system error says the file cannot be read; anything else is the importer's own fault, said as such.
function failure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return 'no such file: check the path';
  if (error instanceof Error && 'code' in error && String(error.code).startsWith('Z_'))
    return `a gzip file that does not decompress (${message}): check that it was copied whole, or give it uncompressed`;
  if (error instanceof Error && 'code' in error) return `cannot read the file: ${message}`;
  return `the importer failed on this file (a bug in theinference, please report it with the file): ${message}`;
}

// Imports a transcript held in memory, as importTranscript would the file `name` holding it (without subagents).
export function importText(
  text: string,
  name: string,
  options: ImportOptions = {},
): ImportedTranscript | ImportProblem {
  if (options.format !== undefined && !isTranscriptFormat(options.format)) return unknownFormat(options.format, name);
  if (text.length === 0) return { file: name, message: 'empty file' };
  if (looksBinary(text)) return { file: name, message: BINARY };
  const reader = new TranscriptReader(name, options.format);
  for (const line of linesOfText(text, options)) reader.line(line);
  const read = reader.finish();
  return 'parsed' in read ? assemble([name], read, []) : read;
}

async function readFileLines(file: string, options: ImportOptions): Promise<ReadFile | ImportProblem> {
  const reader = new TranscriptReader(file, options.format);
  for await (const line of linesOfFile(file, options)) reader.line(line);
  return reader.finish();
}

function isSubagentFile(file: string): boolean {
  return basename(dirname(file)) === 'subagents' || basename(file).startsWith('agent-');
}

// <dir>/<session>.jsonl keeps its subagents in <dir>/<session>/subagents/agent-*.jsonl; `agent-acompact-*` files
// are Claude Code's compaction summariser, not part of the session's work. A session compressed as a whole
// (<session>.jsonl.gz, its folder beside it) brings them the same way, and so does a subagent file compressed
// (agent-*.jsonl.gz): each is read through gunzip as any file is.
async function readSubagents(
  file: string,
  options: ImportOptions,
): Promise<{ files: string[]; parsed: ParsedFile[]; skipped: Skip[] }> {
  const session = basename(file)
    .replace(/\.gz$/i, '')
    .replace(/\.jsonl$/, '');
  const dir = join(dirname(file), session, 'subagents');
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => /\.jsonl(?:\.gz)?$/i.test(n)).sort();
  const found = { files: [] as string[], parsed: [] as ParsedFile[], skipped: [] as Skip[] };
  for (const name of names) {
    const path = join(dir, name);
    if (name.startsWith('agent-acompact-')) {
      found.skipped.push({ file: path, line: 0, reason: 'a compaction summariser, not part of the session' });
      continue;
    }
    const read = await readFileLines(path, { ...options, format: 'claude-code' }).catch(
      (error: unknown): ImportProblem => ({ file: path, message: failure(error) }),
    );
    if ('parsed' in read) {
      found.files.push(path);
      found.parsed.push(read.parsed);
    } else found.skipped.push({ file: path, line: read.line ?? 0, reason: `subagent file left out: ${read.message}` });
  }
  return found;
}

function assemble(
  files: string[],
  main: ReadFile,
  subagents: ParsedFile[],
  extraSkips: Skip[] = [],
): ImportedTranscript | ImportProblem {
  const { parsed, format } = main;
  const calls =
    subagents.length === 0
      ? parsed.calls
      : mergeSessionCalls(
          parsed.calls,
          subagents.map((s) => s.calls),
        );
  const skipped = [...parsed.skipped, ...subagents.flatMap((s) => s.skipped), ...extraSkips];
  if (calls.length === 0) return noCalls(files[0] as string, main, skipped);
  const times = [parsed, ...subagents]
    .flatMap((p) => [p.startedAt, p.endedAt])
    .filter((t): t is string => t !== undefined)
    .sort();
  return {
    format,
    files,
    ...(parsed.sessionId !== undefined ? { sessionId: parsed.sessionId } : {}),
    ...(times.length > 0 ? { startedAt: times[0] as string, endedAt: times[times.length - 1] as string } : {}),
    ...(parsed.cwd !== undefined ? { cwd: parsed.cwd } : {}),
    calls,
    skipped,
    ...(parsed.workspace !== undefined ? { workspace: parsed.workspace } : {}),
  };
}

// No calls at all: say what the file was read as and, when lines were skipped, the first of them. Read as --format
// said, the file may simply be of another format.
function noCalls(file: string, main: ReadFile, skipped: Skip[]): ImportProblem {
  const first = skipped.find((s) => s.file === file && s.line > 0);
  const read = `read as ${main.format}${main.forced ? ', as --format said' : ''}`;
  const hint = main.forced ? `; if the file is of another format, leave --format out to have it detected` : '';
  if (first === undefined)
    return {
      file,
      message: `no tool calls (${read})${main.forced ? hint : ': the agent made none, so there is nothing to record'}`,
    };
  return {
    file,
    line: first.line,
    message: `no tool calls (${read}); ${skipped.length} line${skipped.length === 1 ? '' : 's'} skipped, the first at line ${first.line}: ${first.reason}${hint}`,
  };
}
