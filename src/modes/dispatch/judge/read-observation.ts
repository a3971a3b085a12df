// What program.ts's probe mode printed (`{"observed":[…]}`), checked: it comes from the process under test, so
// anything malformed makes the whole observation void rather than a wrong finding. Values are as program.ts's
// `encode` writes them: JSON, with `{"$":"undefined"}`, `{"$":"input"}` (the call's own input object),
// `{"$":"promise"}`, `{"$":"function"}`, `{"$":"instance","name":…}` and `{"$":"object","value":…}` for what JSON
// cannot say. Pure.

// One call the stand-in Tools received: the method, its arguments (encoded), and whether `this` was the Tools.
export type ObservedCall = { method: string; args: unknown[]; unbound: boolean };

// What happened in one probe call: the stand-in's calls, then the result (encoded), the error thrown, or that it
// never settled; `again`, the same for the call made a second time with the same input.
export type ObservedEntry = {
  calls: ObservedCall[];
  result?: unknown;
  threw?: string;
  pending: boolean;
  again?: ObservedEntry;
};

// The observation of `count` probe calls, or undefined when the payload is not one.
export function readObservation(payload: unknown, count: number): ObservedEntry[] | undefined {
  if (!Array.isArray(payload) || payload.length !== count) return undefined;
  const entries: ObservedEntry[] = [];
  for (const item of payload) {
    const entry = readEntry(item);
    if (entry === undefined) return undefined;
    entries.push(entry);
  }
  return entries;
}

function readEntry(item: unknown, nested = false): ObservedEntry | undefined {
  if (!isRecord(item) || !Array.isArray(item.calls)) return undefined;
  const again = item.again === undefined || nested ? undefined : readEntry(item.again, true);
  if (item.again !== undefined && again === undefined) return undefined;
  const second = again === undefined ? {} : { again };
  const calls: ObservedCall[] = [];
  for (const call of item.calls) {
    if (!isRecord(call) || typeof call.method !== 'string' || !Array.isArray(call.args)) return undefined;
    calls.push({ method: call.method, args: call.args, unbound: call.unbound === true });
  }
  const pending = item.pending === true;
  if (typeof item.threw === 'string') return { calls, threw: item.threw, pending, ...second };
  if (!pending && !('result' in item)) return undefined;
  return { calls, ...('result' in item ? { result: item.result } : {}), pending, ...second };
}

// `{"$":"undefined"}` and the like: what program.ts wrote for a value JSON has no word for.
export function tagOf(value: unknown): string | undefined {
  return isRecord(value) && typeof value.$ === 'string' ? value.$ : undefined;
}

// An encoded value as the grader sees the same value in a result line (through JSON): undefined and what JSON
// drops left out (null in an array), a promise as {}, the input as the input.
export function asPrinted(value: unknown, input: unknown): unknown {
  const tag = tagOf(value);
  if (tag === 'undefined' || tag === 'function') return undefined;
  if (tag === 'input') return input;
  if (tag === 'promise' || tag === 'instance') return {};
  // A long text, by its ends (compare-probe.ts reads it whole where it knows the text).
  if (tag === 'text') {
    const { head, tail } = value as { head?: unknown; tail?: unknown };
    return `${String(head)}…${String(tail)}`;
  }
  if (tag === 'object') return asPrinted((value as { value: unknown }).value, input);
  if (tag !== undefined) return null;
  if (Array.isArray(value)) return value.map((v) => asPrinted(v, input) ?? null);
  if (!isRecord(value)) return value;
  const entries = Object.entries(value).map(([k, v]) => [k, asPrinted(v, input)] as const);
  return Object.fromEntries(entries.filter(([, v]) => v !== undefined));
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
