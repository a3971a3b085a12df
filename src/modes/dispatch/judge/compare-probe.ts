// One probe call, observed, against the contract: where the student's dispatcher did otherwise, as facts
// (find-mistakes.ts turns them into findings). An argument is told apart by its value, which no other key of the
// probe has; a difference where the contract passes nothing (an optional key left out or null) is no fact, since
// the Tools treat nothing and a default alike. Pure.
import { jsonEqual } from '../../../grade/judge/compare-results.ts';
import { ECHO, ECHO_KEY, keyFor, METHODS, methodOf, unknownAnswer } from '../../../course/dispatcher-contract.ts';
import { classOf, type ValueClass } from '../../../grade/judge/finding.ts';
import type { Probe } from './probe-calls.ts';
import { asPrinted, isRecord, type ObservedEntry, tagOf } from './read-observation.ts';

// What reached a place where the contract puts an input key's value: the whole input, nothing, another key's
// value, the value changed (a text holding it; a trimmed text; turned into a number or a text), or something else
// (a constant, mostly).
export type Got =
  | { kind: 'input' }
  | { kind: 'missing' }
  | { kind: 'key'; key: string }
  | { kind: 'changed'; value: unknown }
  | { kind: 'trimmed'; how: 'trim' | 'trimEnd' | 'trimStart' | 'newlines' }
  | { kind: 'converted'; to: 'number' | 'string'; value: unknown }
  | { kind: 'value'; value: unknown };

// How a probe call went otherwise than the contract says.
export type Fact =
  | { type: 'threw'; probe: Probe; message: string }
  | { type: 'pending'; probe: Probe }
  | { type: 'unbound'; probe: Probe; method: string }
  | { type: 'route'; probe: Probe; reached: string[]; printed: unknown; threw?: string }
  // `weak`: something reached the place of a key the call left out, where the contract passes nothing (a default
  // the Tools would take alike, or a conversion of nothing: NaN, "undefined").
  | { type: 'arg'; probe: Probe; index: number; key: string; class: ValueClass; got: Got; weak?: true }
  | { type: 'result'; probe: Probe; want: Record<string, unknown>; encoded: unknown; printed: unknown }
  | { type: 'unknown'; probe: Probe; reached: string[]; printed: unknown; threw?: string };

// The facts of one probe call. `unwired` tells whether a call that reached no method got what the default branch
// gives names outside the contract (for echo, which reaches none when it is wired).
export function compareProbe(probe: Probe, entry: ObservedEntry, unwired: (entry: ObservedEntry) => boolean): Fact[] {
  const printed = entry.result === undefined ? undefined : asPrinted(entry.result, probe.input);
  const reached = entry.calls.map((c) => c.method);
  const method = methodOf(probe.tool);
  if (probe.tool === ECHO && reached.length === 0 && !entry.pending && unwired(entry)) {
    return [{ type: 'route', probe, reached, printed, ...threw(entry) }];
  }
  if (method === undefined && probe.tool !== ECHO) {
    if (entry.pending) return [{ type: 'pending', probe }];
    const fine = reached.length === 0 && entry.threw === undefined && jsonEqual(printed, unknownAnswer(probe.tool));
    return fine ? [] : [{ type: 'unknown', probe, reached, printed, ...threw(entry) }];
  }
  const target = entry.calls.find((c) => c.method === method);
  if (method === undefined ? reached.length > 0 : target === undefined) {
    return [{ type: 'route', probe, reached, printed, ...threw(entry) }];
  }
  const facts: Fact[] = [];
  if (target?.unbound === true) facts.push({ type: 'unbound', probe, method: target.method });
  if (target !== undefined) {
    METHODS[method!]!.args.forEach((source, index) => {
      const key = keyFor(source, probe.input);
      const encoded = target.args[index] ?? { $: 'undefined' };
      const got = describeGot(encoded, probe, key);
      if (got !== undefined) facts.push({ type: 'arg', probe, index, key, class: classOf(probe.input[key], key), got });
      // NaN reads as null through JSON, but it is something.
      if (probe.input[key] === undefined && tagOf(encoded) !== 'undefined' && encoded !== null) {
        const value = asPrinted(encoded, probe.input);
        facts.push({ type: 'arg', probe, index, key, class: 'absent', got: { kind: 'value', value }, weak: true });
      }
    });
  }
  if (entry.threw !== undefined) return [...facts, { type: 'threw', probe, message: entry.threw }];
  if (entry.pending) return [...facts, { type: 'pending', probe }];
  if (method === undefined) return [...facts, ...echoFacts(probe, entry.result, printed)];
  if (!jsonEqual(printed, probe.answer)) {
    facts.push({ type: 'result', probe, want: probe.answer, encoded: entry.result, printed });
  }
  return facts;
}

// Echo's result: its content is read as an argument would be (from `text`), the rest of it as a method's result.
function echoFacts(probe: Probe, encoded: unknown, printed: unknown): Fact[] {
  const text = probe.input[ECHO_KEY];
  const want = { content: text };
  if (jsonEqual(printed, want)) return [];
  const object = printed !== null && typeof printed === 'object' && !Array.isArray(printed);
  const content = isRecord(encoded) ? encoded.content : undefined;
  const facts: Fact[] = [];
  if (object && isRecord(encoded) && 'content' in encoded) {
    const got = describeGot(content, probe, ECHO_KEY);
    if (got !== undefined) {
      facts.push({ type: 'arg', probe, index: 0, key: ECHO_KEY, class: classOf(text, ECHO_KEY), got });
    }
    const rest = { ...(printed as Record<string, unknown>), content: text };
    if (!jsonEqual(rest, want)) facts.push({ type: 'result', probe, want, encoded, printed: rest });
    return facts;
  }
  return [{ type: 'result', probe, want, encoded, printed }];
}

function threw(entry: ObservedEntry): { threw?: string } {
  return entry.threw === undefined ? {} : { threw: entry.threw };
}

// What reached the place of `key`'s value, or undefined when it is that value (or the contract passes nothing).
export function describeGot(encoded: unknown, probe: Probe, key: string): Got | undefined {
  const want = probe.input[key];
  if (want === undefined || want === null) return undefined;
  if (tagOf(encoded) === 'input') return { kind: 'input' };
  if (tagOf(encoded) === 'undefined') return { kind: 'missing' };
  const value = asPrinted(encoded, probe.input);
  if (jsonEqual(value, want)) return undefined;
  if (typeof value === 'number' && typeof want !== 'number' && Number(want) === value) {
    return { kind: 'converted', to: 'number', value };
  }
  if (typeof value === 'string' && typeof want !== 'string' && String(want) === value) {
    return { kind: 'converted', to: 'string', value };
  }
  const other = Object.keys(probe.input).find(
    (k) => k !== key && classOf(probe.input[k]) === 'present' && jsonEqual(probe.input[k], value),
  );
  if (other !== undefined) return { kind: 'key', key: other };
  if (typeof want === 'string' && typeof value === 'string') {
    const how = trimmed(want, value);
    if (how !== undefined) return { kind: 'trimmed', how };
    if (want !== '' && value.includes(want.trim())) return { kind: 'changed', value };
  }
  return { kind: 'value', value };
}

function trimmed(want: string, value: string): Extract<Got, { kind: 'trimmed' }>['how'] | undefined {
  if (want === value) return undefined;
  if (value === want.trim()) return 'trim';
  if (value === want.trimEnd()) return 'trimEnd';
  if (value === want.trimStart()) return 'trimStart';
  if (value === want.replace(/\n+$/, '')) return 'newlines';
  return undefined;
}
