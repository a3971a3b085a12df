// The loop mode's results as program.ts prints them (`program.ts loop`), read back: one entry per request the loop
// sent, `{"request":{…}}` (or `{"other":"GET /x"}` for one that was not POST /v1/messages), then how the loop ended,
// `{"returned":[…]}` or `{"threw":"…"}`, with `request_changed` beside it when runLoop changed the request it was
// given (the fields it changed, as they were when it ended), and `unasked_calls` when execute was called for what no
// tool_use waiting asked for, its answer in no request and not in the end (each call as `{ tool, input }`).
// A request after the first names in `as_before` the fields it sent as the request before it did, and gives as `new_messages` the messages after all of that request's (`rewritten_messages`: those of that request's it changed, by index): read back, every
// request is whole again. Pure.
import type { LoopCaseData } from '../case.ts';
import type { ExecuteCallMade } from '../unasked-calls.ts';

type Entry = Record<string, unknown>;

// A run's results split: the requests, and the end (undefined when the program printed none).
export type LoopRun = { requests: unknown[]; end: unknown };

export function splitLoopResults(results: unknown[]): LoopRun {
  const last = results.at(-1);
  const ended = isEntry(last) && ('returned' in last || 'threw' in last);
  return { requests: wholeRequests(ended ? results.slice(0, -1) : results), end: ended ? last : undefined };
}

// Each request entry with every field it sent, `as_before` and `new_messages` expanded from the request before it.
export function wholeRequests(entries: unknown[]): unknown[] {
  let before: Entry | undefined;
  return entries.map((entry) => {
    const request = requestOf(entry);
    if (request === undefined) return entry;
    const { as_before: same, new_messages: added, rewritten_messages: rewritten, ...sent } = request;
    const whole: Entry = { ...sent };
    for (const key of Array.isArray(same) ? same : []) {
      if (typeof key === 'string' && before !== undefined && key in before) whole[key] = before[key];
    }
    if (Array.isArray(added)) {
      const earlier = [...(Array.isArray(before?.messages) ? before.messages : [])];
      for (const [i, m] of Object.entries(isEntry(rewritten) ? rewritten : {}))
        if (Number(i) < earlier.length) earlier[Number(i)] = m;
      whole.messages = [...earlier, ...added];
    }
    before = whole;
    return { request: whole };
  });
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
export function stopReason(data: LoopCaseData, k: number): string {
  return JSON.stringify(data.turns[k - 1]?.message.stop_reason ?? null);
}

export function isEntry(value: unknown): value is Entry {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

// The fields of its request runLoop changed, as the end says them, or undefined.
export function requestChangedOf(end: unknown): Entry | undefined {
  return isEntry(end) && isEntry(end.request_changed) ? end.request_changed : undefined;
}

// The end without what it says of the request.
export function withoutChange(end: unknown): unknown {
  if (!isEntry(end)) return end;
  const { request_changed: _, ...rest } = end;
  return rest;
}

// The calls no tool_use asked for whose answers show nowhere else, as the end says them, or undefined.
export function unaskedCallsOf(end: unknown): ExecuteCallMade[] | undefined {
  if (!isEntry(end) || !Array.isArray(end.unasked_calls)) return undefined;
  return end.unasked_calls.filter((call): call is ExecuteCallMade => isEntry(call) && 'tool' in call);
}

// The end without what it says of the calls no tool_use asked for.
export function withoutUnasked(end: unknown): unknown {
  if (!isEntry(end)) return end;
  const { unasked_calls: _, ...rest } = end;
  return rest;
}

// "request.messages had 1 message when runLoop was called, and 4 when it ended", for each field changed (`entry`:
// the loop's name, as its stage says it).
export function describeChange(data: LoopCaseData, changed: Entry, entry: string): string {
  const given = data.request as Entry;
  return Object.entries(changed)
    .map(([k, after]) => {
      const before = given[k];
      if (Array.isArray(before) && Array.isArray(after)) {
        const n = (a: unknown[]) => `${a.length} ${k === 'messages' ? 'message' : 'item'}${a.length === 1 ? '' : 's'}`;
        return `request.${k} had ${n(before)} when ${entry} was called, and ${n(after)} when it ended`;
      }
      const was = before === undefined ? 'had none' : `was ${JSON.stringify(before).slice(0, 60)}`;
      return `request.${k} ${was} when ${entry} was called, and ${JSON.stringify(after).slice(0, 60)} when it ended`;
    })
    .join('; ');
}
