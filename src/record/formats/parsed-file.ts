// What an importer makes of one file, before the files of a transcript are put together, and the interface every
// line-based importer shares: fed one line at a time (from a file stream or from text), asked for the result once.
import type { ImportedCall, ImportedTranscript, ImportProblem, Skip } from '../types.ts';
import { isObject, parseJson } from './json-values.ts';
import type { Line } from './read-lines.ts';

export type ParsedFile = {
  calls: ImportedCall[];
  skipped: Skip[];
  sessionId?: string;
  cwd?: string;
  startedAt?: string;
  endedAt?: string;
  // The session's directory as it was when it started, when the file holds it (a live capture's workspace line).
  workspace?: ImportedTranscript['workspace'];
  // Set when the file as a whole cannot be used (a JSON document that does not parse, a shape no importer knows).
  problem?: ImportProblem;
};

export type LineParser = {
  line(line: Line): void;
  finish(): ParsedFile;
};

// Session facts gathered line by line: the first session id and cwd, the first and last timestamps. Equal strings
// are shared, so a call's `cwd` costs nothing however many calls there are.
export class SessionFacts {
  sessionId: string | undefined;
  cwd: string | undefined;
  startedAt: string | undefined;
  endedAt: string | undefined;
  private readonly interned = new Map<string, string>();

  see(facts: { sessionId?: unknown; cwd?: unknown; timestamp?: unknown }): void {
    if (this.sessionId === undefined && typeof facts.sessionId === 'string') this.sessionId = facts.sessionId;
    if (this.cwd === undefined && typeof facts.cwd === 'string') this.cwd = this.intern(facts.cwd);
    const at = facts.timestamp;
    if (typeof at === 'string' && !Number.isNaN(Date.parse(at))) {
      if (this.startedAt === undefined || at < this.startedAt) this.startedAt = at;
      if (this.endedAt === undefined || at > this.endedAt) this.endedAt = at;
    }
  }

  intern(text: string): string {
    const known = this.interned.get(text);
    if (known !== undefined) return known;
    if (this.interned.size < 10_000) this.interned.set(text, text);
    return text;
  }

  // The facts for a ParsedFile (only those seen).
  toParsed(): Pick<ParsedFile, 'sessionId' | 'cwd' | 'startedAt' | 'endedAt'> {
    return {
      ...(this.sessionId !== undefined ? { sessionId: this.sessionId } : {}),
      ...(this.cwd !== undefined ? { cwd: this.cwd } : {}),
      ...(this.startedAt !== undefined ? { startedAt: this.startedAt } : {}),
      ...(this.endedAt !== undefined ? { endedAt: this.endedAt } : {}),
    };
  }
}

// A JSONL line's object: undefined for a blank line, a value that is no object, or a line that cannot be used
// (over the limit, not JSON), which is skipped with its reason.
export function lineObject(file: string, entry: Line, skipped: Skip[]): Record<string, unknown> | undefined {
  if ('tooLong' in entry) {
    skipped.push(tooLongSkip(file, entry));
    return undefined;
  }
  if (entry.text.trim() === '') return undefined;
  const parsed = parseJson(entry.text);
  if (!parsed.ok) {
    skipped.push({ file, line: entry.line, reason: `not valid JSON (${parsed.error})` });
    return undefined;
  }
  return isObject(parsed.value) ? parsed.value : undefined;
}

// The skip for a line over the length limit.
export function tooLongSkip(file: string, line: { line: number; tooLong: number }): Skip {
  return { file, line: line.line, reason: `line of ${line.tooLong} bytes is over the limit of one line` };
}
