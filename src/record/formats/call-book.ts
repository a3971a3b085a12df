// Pairs calls with their results by id, never by position: parallel calls' results arrive in any order, a result
// can come before its call is seen (a log that starts mid-session), and one call can be logged twice (a resumed
// session, a request body that repeats the whole history). The first sighting of a call wins.
import type { ImportedCall, ImportedResult, Skip } from '../types.ts';

// Texts this long are kept once per transcript however often they recur (see CallBook.keep).
const SHARED_TEXT_CHARS = 1024;

export type CallSighting = Omit<ImportedCall, 'result' | 'notRun'>;

export class CallBook {
  private readonly calls = new Map<string, ImportedCall>();
  private readonly orphans = new Map<string, { result: ImportedResult; file: string }>();
  private readonly notRun = new Map<string, string>();
  private readonly texts = new Map<string, string>();

  constructor(private readonly skipped: Skip[]) {}

  // A call as the model made it. A repeat of a known id only fills in an input the first sighting lacked.
  addCall(call: CallSighting): void {
    const known = this.calls.get(call.id);
    if (known !== undefined) {
      if (known.input === undefined && call.input !== undefined) {
        known.input = call.input;
        delete known.malformed;
      }
      return;
    }
    const entry: ImportedCall = this.keep({ ...call });
    const orphan = this.orphans.get(call.id);
    if (orphan !== undefined) {
      entry.result = orphan.result;
      this.orphans.delete(call.id);
    }
    this.calls.set(call.id, entry);
  }

  // What came back for the call with this id; the first result recorded for an id is kept.
  addResult(id: string, result: ImportedResult, file: string): void {
    const call = this.calls.get(id);
    if (call === undefined) {
      if (!this.orphans.has(id)) this.orphans.set(id, { result: this.keep(result), file });
    } else if (call.result === undefined) call.result = this.keep(result);
  }

  // What is stored, with every long text replaced by the one copy of it this book holds. A session repeats long
  // texts (every Edit carries its file's whole original, a file is read again and again, a resumed log repeats its
  // history): held once each, a transcript's memory grows with what it says, not with how often it says it.
  private keep<T>(value: T): T {
    if (typeof value === 'string') {
      if (value.length < SHARED_TEXT_CHARS) return value;
      const held = this.texts.get(value);
      if (held !== undefined) return held as T;
      this.texts.set(value, value);
      return value;
    }
    if (Array.isArray(value)) return value.map((v: unknown) => this.keep(v)) as T;
    if (value !== null && typeof value === 'object') {
      const copy: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) copy[k] = this.keep(v);
      return copy as T;
    }
    return value;
  }

  // Marks a call as never run (rejected, blocked, cancelled, denied), whether or not it is known yet.
  markNotRun(id: string, reason: string): void {
    if (!this.notRun.has(id)) this.notRun.set(id, reason);
  }

  has(id: string): boolean {
    return this.calls.has(id);
  }

  // Every call in the order first seen; results whose call never appeared become skips.
  finish(): ImportedCall[] {
    for (const [id, orphan] of this.orphans) {
      this.skipped.push({
        file: orphan.file,
        line: orphan.result.line,
        reason: `result for tool call ${id}, which the transcript never shows`,
      });
    }
    this.orphans.clear();
    this.texts.clear();
    const calls = [...this.calls.values()];
    for (const call of calls) {
      const reason = this.notRun.get(call.id);
      if (reason !== undefined) call.notRun = reason;
    }
    return calls;
  }
}
