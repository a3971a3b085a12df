// The loop mode's results as program.ts prints them (`program.ts loop`), read back: one entry per request the loop
// sent, `{"request":{…}}` (or `{"other":"GET /x"}` for one that was not POST /v1/messages), then how the loop ended,
// `{"returned":[…]}` or `{"threw":"…"}`. Pure.
import type { LoopCaseFile } from '../../../course/types.ts';

type Entry = Record<string, unknown>;

// A run's results split: the requests, and the end (undefined when the program printed none).
export type LoopRun = { requests: unknown[]; end: unknown };

export function splitLoopResults(results: unknown[]): LoopRun {
  const last = results.at(-1);
  const ended = isEntry(last) && ('returned' in last || 'threw' in last);
  return { requests: ended ? results.slice(0, -1) : results, end: ended ? last : undefined };
}

// The request a `{"request":…}` entry holds, or undefined for another entry.
export function requestOf(entry: unknown): Entry | undefined {
  return isEntry(entry) && isEntry(entry.request) ? entry.request : undefined;
}

// The conversation a `{"returned":[…]}` end holds, or undefined.
export function returnedOf(end: unknown): unknown[] | undefined {
  return isEntry(end) && Array.isArray(end.returned) ? end.returned : undefined;
}

// What runLoop threw, or undefined.
export function threwOf(end: unknown): string | undefined {
  return isEntry(end) && typeof end.threw === 'string' ? end.threw : undefined;
}

// The stop_reason of turn k (from 1) of the case, as JSON text for a message.
export function stopReason(data: LoopCaseFile, k: number): string {
  return JSON.stringify(data.turns[k - 1]?.message.stop_reason ?? null);
}

export function isEntry(value: unknown): value is Entry {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
