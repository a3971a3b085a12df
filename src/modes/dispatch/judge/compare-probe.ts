// One probe call, observed, against the contract: where the student's dispatcher did otherwise, as facts
// (find-mistakes.ts turns them into findings). An argument is told apart by its value, which no other key of the
// probe has; a difference where the contract passes nothing (an optional key left out or null) is no fact, since
// the Tools treat nothing and a default alike. Pure.
import { jsonEqual } from '../../../grade/judge/compare-results.ts';
import {
  ECHO,
  ECHO_KEY,
  keyFor,
  METHODS,
  methodOf,
  missingMethod,
  unknownAnswer,
} from '../../../course/dispatcher-contract.ts';
import { classOf, type ValueClass } from '../../../grade/judge/finding.ts';
import { expectedAnswer, type Probe } from './probe-calls.ts';
import { startOf } from '../long-answer.ts';
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
  // `nothing`: what reached it is a conversion of nothing (NaN, "undefined"), so the branch computes from the key.
  | { type: 'arg'; probe: Probe; index: number; key: string; class: ValueClass; got: Got; weak?: true; nothing?: true }
  | { type: 'result'; probe: Probe; want: Record<string, unknown>; encoded: unknown; printed: unknown }
  // A branch that reaches its method for other inputs answered this one itself, without calling it (a check of
  // its own, a refusal): `reached` is what it called instead.
  | { type: 'own'; probe: Probe; reached: string[]; printed: unknown }
  // The same input sent again to the same execute got the first call's result, though the method answered
  // otherwise the second time (a cache): `called` tells whether the method was called again. With `kept`: it got
  // the second answer, with these fields of the first's (one result object filled again on each call).
  | { type: 'reused'; probe: Probe; called: boolean; kept?: string[] }
  | { type: 'unknown'; probe: Probe; reached: string[]; printed: unknown; threw?: string }
  // The call reached its method and then others (`after`): a `case` without `break` falling into the next one.
  | { type: 'also'; probe: Probe; method: string; after: string[] };

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
  // Methods called after the call's own: a check made before it (tools.view, then tools.create) is no such fact.
  const after = method === undefined ? [] : reached.slice(reached.indexOf(method) + 1).filter((m) => m !== method);
  if (after.length > 0) facts.push({ type: 'also', probe, method: method!, after: [...new Set(after)] });
  if (target !== undefined) {
    METHODS[method!]!.args.forEach((source, index) => {
      const key = keyFor(source, probe.input);
      const encoded = target.args[index] ?? { $: 'undefined' };
      const got = describeGot(encoded, probe, key);
      if (got !== undefined) facts.push({ type: 'arg', probe, index, key, class: classOf(probe.input[key], key), got });
      // NaN reads as null through JSON, but it is something.
      if (probe.input[key] === undefined && tagOf(encoded) !== 'undefined' && encoded !== null) {
        const value = asPrinted(encoded, probe.input);
        const nothing = tagOf(encoded) === 'number' || (typeof value === 'string' && value.includes('undefined'));
        facts.push({
          type: 'arg',
          probe,
          index,
          key,
          class: 'absent',
          got: { kind: 'value', value },
          weak: true,
          ...(nothing ? { nothing: true as const } : {}),
        });
      }
    });
  }
  if (entry.threw !== undefined) return [...facts, { type: 'threw', probe, message: entry.threw }];
  if (entry.pending) return [...facts, { type: 'pending', probe }];
  if (method === undefined) return [...facts, ...echoFacts(probe, entry.result, printed)];
  const answer = expectedAnswer(probe);
  const whole = withLongContent(printed, entry.result, answer.content);
  if (!jsonEqual(whole, answer)) {
    facts.push({ type: 'result', probe, want: answer, encoded: entry.result, printed: whole });
  }
  return [...facts, ...reused(probe, entry, printed, method!)];
}

// The call made again with the same input got the first call's result back, carrying the first answer, though the
// method answered otherwise the second time.
function reused(probe: Probe, entry: ObservedEntry, printed: unknown, method: string): Fact[] {
  const again = entry.again;
  if (again === undefined || probe.again === undefined || again.threw !== undefined || again.pending) return [];
  const second = again.result === undefined ? undefined : asPrinted(again.result, probe.input);
  const called = again.calls.some((c) => c.method === method);
  if (probe.again.content === probe.answer.content) return [];
  const carried = JSON.stringify(printed ?? null).includes(JSON.stringify(probe.answer.content).slice(1, -1));
  if (carried && jsonEqual(second, printed)) return [{ type: 'reused', probe, called }];
  // The second answer's fields as they were, and others of the first answer's beside them.
  if (!isRecord(second) || !isRecord(printed) || !jsonEqual(second.content, probe.again.content)) return [];
  const first = probe.answer as Record<string, unknown>;
  const kept = Object.keys(second).filter((k) => !(k in probe.again!) && k in first && jsonEqual(second[k], first[k]));
  return kept.length === 0 ? [] : [{ type: 'reused', probe, called, kept: kept.sort() }];
}

// A result whose content is a long text written by its ends, with that content whole where it is the start of the
// long answer (all of it, or cut): the judge knows the text, so the cut can be named.
function withLongContent(printed: unknown, encoded: unknown, answer: string): unknown {
  if (!isRecord(printed) || !isRecord(encoded) || tagOf(encoded.content) !== 'text') return printed;
  const start = startOf(encoded.content, answer);
  return start === undefined ? printed : { ...printed, content: start };
}

// A name that reaches its method for some inputs and not for others: its calls that reached no method are no
// route (the name is wired) but a throw, or an answer of the branch's own (a check, a refusal). Facts about any
// other name are as they are.
export function splitRoutes(facts: Fact[], probed: Map<string, number>): Fact[] {
  const routes = new Map<string, number>();
  for (const f of facts) if (f.type === 'route') routes.set(f.probe.tool, (routes.get(f.probe.tool) ?? 0) + 1);
  return facts.map((f): Fact => {
    if (f.type !== 'route' || methodOf(f.probe.tool) === undefined) return f;
    // A branch calling a method Tools does not have is wired, and throws.
    if (f.threw !== undefined && missingMethod(f.threw, f.probe.tool) !== undefined) {
      return { type: 'threw', probe: f.probe, message: f.threw };
    }
    if (routes.get(f.probe.tool) === probed.get(f.probe.tool)) return f;
    if (f.threw !== undefined) return { type: 'threw', probe: f.probe, message: f.threw };
    // Nothing returned (or not yet): no answer to name.
    if (f.printed === undefined) return f;
    return { type: 'own', probe: f.probe, reached: f.reached, printed: f.printed };
  });
}

// Echo's result: its content is read as an argument would be (from `text`), the rest of it as a method's result.
function echoFacts(probe: Probe, encoded: unknown, printed: unknown): Fact[] {
  const text = probe.input[ECHO_KEY];
  // No text, no content: what JSON makes of { content: undefined }.
  const want = text === undefined ? {} : { content: text };
  if (jsonEqual(printed, want)) return [];
  const object = printed !== null && typeof printed === 'object' && !Array.isArray(printed);
  const content = isRecord(encoded) ? encoded.content : undefined;
  const facts: Fact[] = [];
  // No text sent: only a content all the same (a default of the branch's own, `input.text ?? ''`) is a fact here;
  // the rest of echo's result is what its calls with a text show.
  if (text === undefined) {
    if (!object || !isRecord(encoded) || !('content' in encoded) || tagOf(content) === 'undefined') return [];
    const value = asPrinted(content, probe.input);
    // A structure made around the text (a block) is what the calls with a text name.
    if (value !== null && typeof value === 'object') return [];
    facts.push({
      type: 'arg',
      probe,
      index: 0,
      key: ECHO_KEY,
      class: 'absent',
      got: { kind: 'value', value },
      weak: true,
    });
    return facts;
  }
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
  // A range of texts turned into numbers (["2", "5"] became [2, 5]).
  if (Array.isArray(want) && Array.isArray(value) && numbered(want, value)) {
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
    // Part of it cut off (a leading ./ stripped).
    if (value !== '' && want.includes(value)) return { kind: 'changed', value };
  }
  return { kind: 'value', value };
}

function numbered(want: unknown[], value: unknown[]): boolean {
  return (
    want.length === value.length &&
    want.some((w) => typeof w !== 'number') &&
    value.every((v, k) => typeof v === 'number' && v === Number(want[k]))
  );
}

function trimmed(want: string, value: string): Extract<Got, { kind: 'trimmed' }>['how'] | undefined {
  if (want === value) return undefined;
  if (value === want.trim()) return 'trim';
  if (value === want.trimEnd()) return 'trimEnd';
  if (value === want.trimStart()) return 'trimStart';
  if (value === want.replace(/\n+$/, '')) return 'newlines';
  return undefined;
}
