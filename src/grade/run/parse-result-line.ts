// One stdout line of `program.ts dispatch -`, read as `{"results":[…]}` or explained as not being one, or read as
// the call about to run (`{"calling":{"call":2,"of":3,"tool":"echo"}}`), or as the probe's observation after the
// last result line (`{"observed":[…]}`). Pure.
import { markTooLarge, RESULT_LIMITS, tooLarge } from './result-size.ts';

// The results, or why the line is not a result line.
type ParsedLine = { ok: true; results: unknown[] } | { ok: false; reason: string };

// Characters of a bad line quoted back to the student.
const PREVIEW_CHARS = 200;

// Parses a result line; a result too large to compare comes back as its marker (result-size.ts).
export function parseResultLine(text: string): ParsedLine {
  if (text.trim() === '') return { ok: false, reason: 'printed an empty line where a result line was expected' };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, reason: `printed a line that is not JSON: ${preview(text)}` };
  }
  const results = (data as { results?: unknown } | null)?.results;
  if (data === null || typeof data !== 'object' || Array.isArray(data) || !Array.isArray(results)) {
    return { ok: false, reason: `printed JSON without a "results" array: ${preview(text)}` };
  }
  return { ok: true, results: markTooLarge(results) };
}

// Where a progress line starts: program.ts prints it in exactly this form, and a result line never starts so.
const CALLING_PREFIX = '{"calling":';

// The number (from 1) of the call a progress line says is about to run, or undefined when the line is not one.
export function parseCallingLine(text: string): number | undefined {
  if (!text.startsWith(CALLING_PREFIX)) return undefined;
  try {
    const call = (JSON.parse(text) as { calling?: { call?: unknown } }).calling?.call;
    return typeof call === 'number' && Number.isSafeInteger(call) && call >= 1 ? call : undefined;
  } catch {
    return undefined;
  }
}

// Where the probe's line starts (program.ts prints it after the last result line when the first case asked for it):
// what the student's makeExecute did with the probe's calls.
const OBSERVED_PREFIX = '{"observed":';

// The probe's observation on a line, or undefined when the line is not one. What it holds is the program's word,
// checked by whoever reads it (src/modes/dispatch/judge/read-observation.ts): it can only ever choose hints, never verdicts.
// One nested deeper than any real observation is none: its readers recurse, and it would take them past the stack.
export function parseObservedLine(text: string): { observed: unknown } | undefined {
  if (!text.startsWith(OBSERVED_PREFIX)) return undefined;
  let observed: unknown;
  try {
    observed = (JSON.parse(text) as { observed: unknown }).observed;
  } catch {
    return undefined;
  }
  return tooLarge(observed, OBSERVED_LIMITS) === undefined ? { observed } : { observed: undefined };
}

// An observation holds every probe call's arguments and result, a few levels each: as deep as a result, and as
// long as the probe's calls make it.
const OBSERVED_LIMITS = { depth: 2 * RESULT_LIMITS.depth, lines: Number.POSITIVE_INFINITY };

// A line cut for display, quoted so that whitespace and control characters show.
function preview(text: string): string {
  const cut = text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
  return JSON.stringify(cut);
}
