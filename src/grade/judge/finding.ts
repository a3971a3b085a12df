// A finding: one mistake of the student's dispatcher, inferred from what the probe observed, with the one hint
// that names it and the calls it breaks. A failing case is explained by a finding when its first differing call is
// one of those. Pure.
import type { Call } from '../../course/types.ts';
import { jsonEqual } from './compare-results.ts';
import { KEY_KINDS, keyFor, methodOf, type NameClass, nameClass } from '../../course/dispatcher-contract.ts';

// What a key holds in a call: nothing, null, "" or 0, a value of another type than the key's (a number for a
// path, "7" for a line), text with spaces or line breaks at an end, a path starting with ./, anything else.
export type ValueClass = 'absent' | 'null' | 'falsy' | 'mistyped' | 'edged' | 'dotted' | 'present';

// An input key holding a value of a class; with `via`, the key an argument read through `??` chose.
export type Condition = { key: string; class: ValueClass; via?: string[] };

// How the dispatcher changes what its method returned: fields dropped, fields added where absent, fields set
// whatever they were, the content moved under another key, or the whole result replaced (null: nothing returned;
// {}: fields read off an un-awaited Promise).
export type ResultChange = {
  drop?: string[];
  // Dropped from a success only (one without `is_error: true`): an error keeps them (`out.is_error ? out : …`).
  dropOnSuccess?: string[];
  add?: Record<string, unknown>;
  set?: Record<string, unknown>;
  rename?: string;
  replace?: unknown;
  content?: ContentChange;
  // The result thrown instead of returned, as an Error of this name whose message is its content: only an error.
  throws?: string;
};

// What a branch does to the text of its method's output: trimmed, text put in front or after it, or replaced by a
// text of its own (which cannot be replayed: a result so replaced is one whose content differs, its error kept);
// `errors`: only to an error's.
export type ContentChange = {
  trim?: 'trim' | 'trimEnd' | 'trimStart';
  // Cut to its first `cut` characters.
  cut?: number;
  prefix?: string;
  suffix?: string;
  replaced?: true;
  errors?: true;
};

// A value a change adds that is the name of the tool called (`{ ...output, tool: name }`): one change, whatever
// the name, filled with the call's own name when it is replayed.
export const TOOL_NAME = '{tool name}';

export function withToolName(change: ResultChange, name: string): ResultChange {
  const add = change.add;
  if (add === undefined || !Object.values(add).includes(TOOL_NAME)) return change;
  return { ...change, add: Object.fromEntries(Object.entries(add).map(([k, v]) => [k, v === TOOL_NAME ? name : v])) };
}

// The calls a finding breaks: those of some names (or of a class of names outside the contract) whose input meets
// every condition; with `change`, only those whose result is the expected one so changed; with `answers`, only
// those that got the branch's own answer (its strings with `{key}` where the call's input value goes); with
// `repeated`, only a call whose input an earlier call of the case sent to the same method too; with `kept`, only a
// call after the first of its case whose result is the expected one with fields added (kept from an earlier one). `inFlight`: the finding
// also explains a call that never returned.
export type Trigger = {
  names?: string[];
  nameClass?: NameClass;
  when?: Condition[];
  change?: ResultChange;
  answers?: unknown;
  repeated?: true;
  kept?: true;
  inFlight?: boolean;
};

// One mistake: what the report groups its cases by, the hint, and its triggers. Of two findings that explain the
// same call, the lower rank is shown (a misrouted name before the arguments it was given).
// `leaks`: the mistake is state kept between makeExecute calls, so it also explains the cases that passed alone and
// failed after others (recheck-alone.ts's leaked state): one mistake, one message.
// `caseText`: the text with the values of a call the finding explains, where that call's input shows the mistake
// (its "1" became 1, where the probe's "108" became 108); undefined where it shows none, and `text` is said.
export type Finding = {
  cause: string;
  text: string;
  rank: number;
  triggers: Trigger[];
  leaks?: true;
  caseText?: (input: Record<string, unknown>) => string | undefined;
};

// The class of a value, held by `key` when one is given (a type other than the key's is `mistyped`).
export function classOf(value: unknown, key?: string): ValueClass {
  if (value === undefined) return 'absent';
  if (value === null) return 'null';
  if (key !== undefined && mistyped(value, KEY_KINDS[key])) return 'mistyped';
  if (value === '' || value === 0 || value === false) return 'falsy';
  if (typeof value === 'string' && value !== value.trim()) return 'edged';
  if (typeof value === 'string' && value.startsWith('./')) return 'dotted';
  return 'present';
}

function mistyped(value: unknown, kind: (typeof KEY_KINDS)[string] | undefined): boolean {
  if (kind === 'text') return typeof value !== 'string';
  if (kind === 'number') return typeof value !== 'number';
  // A range is a pair of numbers: ["1", "2"] is text in its place, which tools.view refuses.
  if (kind === 'range') return !Array.isArray(value) || value.some((v) => typeof v !== 'number');
  return false;
}

// Whether a value's class is the one a condition wants: text with spaces at its ends, or starting with ./, is text
// all the same.
function classMatches(actual: ValueClass, wanted: ValueClass): boolean {
  return actual === wanted || (wanted === 'present' && (actual === 'edged' || actual === 'dotted'));
}

// A value a branch cannot tell from the class it was probed with: null from a key left out (`??` and `||` take both
// alike) or from a value of another type (`typeof null` is "object"), and false or 0 from an empty text (`||` takes
// every falsy value alike), whatever type the key wants.
function alike(value: unknown, wanted: ValueClass): boolean {
  if (value === null) return wanted === 'absent' || wanted === 'mistyped';
  return wanted === 'falsy' && (value === false || value === 0);
}

// What a call got, as the failure records it: the call, the snapshot's result and the program's, whether it
// never returned (a timeout or an exit in the call), and the calls of the case before it.
type FailedCall = { call: Call; expected: unknown; received: unknown; inFlight: boolean; earlier?: Call[] };

// Whether the finding explains this failed call.
export function explains(finding: Finding, failed: FailedCall): boolean {
  return finding.triggers.some((t) => triggered(t, failed));
}

// Whether the finding breaks a call that returned what the snapshot has, but whose effects (a file written with
// the wrong text) show in a later call: a finding about where a call goes or what it is given, not about what
// it returns.
export function breaksEarlier(finding: Finding, call: Call): boolean {
  return finding.triggers.some(
    (t) =>
      t.change === undefined &&
      t.answers === undefined &&
      t.repeated !== true &&
      t.kept !== true &&
      t.inFlight !== true &&
      sent(t, call),
  );
}

// A branch's own answer to a call, with each string value of the call's input written `{key}` (longest first), and
// each word that is one of `names` (keys of the input the contract does not read) written `{@}`, so that it can be
// matched against the answer to another input: a check that refuses a key outside the contract names the key it
// refused (`Unknown parameter 'cmd'`), whichever it is. A name inside a `{key}` written before is left as it is.
export function answerTemplate(answer: unknown, input: Record<string, unknown>, names: string[] = []): unknown {
  const values = Object.entries(input)
    .filter((e): e is [string, string] => typeof e[1] === 'string' && e[1].length > 0)
    .sort(([, a], [, b]) => b.length - a.length);
  const words = names.filter((k) => k in input && /^\w+$/.test(k));
  const named = words.length === 0 ? undefined : new RegExp(`\\b(?:${words.join('|')})\\b`, 'g');
  return mapText(answer, (text) => {
    const valued = values.reduce((t, [key, value]) => t.split(value).join(`{${key}}`), text);
    if (named === undefined) return valued;
    return valued
      .split(/(\{\w+\})/)
      .map((part, k) => (k % 2 === 1 ? part : part.replace(named, KEY_NAME)))
      .join('');
  });
}

// Where an answer template holds the name of one of its input's keys.
const KEY_NAME = '{@}';

// The answers a template gives for this input: each `{key}` the input's value (a string) where it has one, and
// `{@}` each of the input's key names in turn (one answer per name; one answer when the template names none).
function fillAnswers(template: unknown, input: Record<string, unknown>): unknown[] {
  const filled = mapText(template, (text) =>
    text.replace(/\{(\w+)\}/g, (all, key: string) => (typeof input[key] === 'string' ? input[key] : all)),
  );
  if (!JSON.stringify(template).includes(KEY_NAME)) return [filled];
  return Object.keys(input).map((name) => mapText(filled, (text) => text.split(KEY_NAME).join(name)));
}

function mapText(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === 'string') return map(value);
  if (Array.isArray(value)) return value.map((v) => mapText(v, map));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapText(v, map)]));
  }
  return value;
}

function triggered(t: Trigger, { call, expected, received, inFlight, earlier = [] }: FailedCall): boolean {
  if (inFlight !== (t.inFlight === true) || !sent(t, call)) return false;
  if (t.repeated === true && !earlier.some((e) => sameMethod(e.tool, call.tool) && jsonEqual(e.input, call.input))) {
    return false;
  }
  if (t.answers !== undefined) {
    return !inFlight && fillAnswers(t.answers, call.input).some((answer) => jsonEqual(answer, received));
  }
  if (t.kept === true) return !inFlight && earlier.length > 0 && fieldsAdded(expected, received);
  if (t.change === undefined) return true;
  if (inFlight) return false;
  const change = withToolName(t.change, call.tool);
  if (change.content?.replaced !== true) return jsonEqual(applyChange(change, expected), received);
  // An error's text replaced by the branch's own: the rest as the change makes it, the text another.
  const e = expected as Record<string, unknown> | null;
  const r = received as Record<string, unknown> | null;
  if (e?.is_error !== true || typeof r?.content !== 'string' || r.content === e.content) return false;
  const { content: _, ...rest } = change;
  return jsonEqual({ ...(applyChange(rest, e) as object), content: r.content }, r);
}

// Whether the received result is the expected one with fields added, every expected field as it is.
function fieldsAdded(expected: unknown, received: unknown): boolean {
  if (expected === null || typeof expected !== 'object' || received === null || typeof received !== 'object')
    return false;
  const [e, r] = [expected as Record<string, unknown>, received as Record<string, unknown>];
  const extra = Object.keys(r).filter((k) => !(k in e));
  return extra.length > 0 && Object.keys(e).every((k) => k in r && jsonEqual(e[k], r[k]));
}

// Whether two names reach the same method (aliases: a cache may be keyed by method), or are the same name.
function sameMethod(a: string, b: string): boolean {
  return a === b || (methodOf(a) !== undefined && methodOf(a) === methodOf(b));
}

// Whether the call is one of the trigger's, by its name and input.
function sent(t: Trigger, call: Call): boolean {
  if (t.names !== undefined && !t.names.includes(call.tool)) return false;
  if (t.nameClass !== undefined && nameClass(call.tool) !== t.nameClass) return false;
  for (const c of t.when ?? []) {
    if (c.via !== undefined && keyFor(c.via, call.input) !== c.key) return false;
    if (!classMatches(classOf(call.input[c.key], c.key), c.class) && !alike(call.input[c.key], c.class)) return false;
  }
  return true;
}

// The expected result as the dispatcher would have changed it.
export function applyChange(change: ResultChange, expected: unknown): unknown {
  if ('replace' in change) return change.replace;
  if (expected === null || typeof expected !== 'object' || Array.isArray(expected)) return expected;
  const result: Record<string, unknown> = { ...(expected as Record<string, unknown>) };
  const success = result.is_error !== true;
  for (const key of change.drop ?? []) delete result[key];
  for (const key of change.dropOnSuccess ?? []) if (success) delete result[key];
  for (const [key, value] of Object.entries(change.add ?? {})) if (!(key in result)) result[key] = value;
  Object.assign(result, change.set);
  const text = change.content;
  if (text !== undefined && typeof result.content === 'string' && (text.errors !== true || result.is_error === true)) {
    const trimmed = text.trim === undefined ? result.content : result.content[text.trim]();
    const whole = `${text.prefix ?? ''}${trimmed}${text.suffix ?? ''}`;
    result.content = text.cut === undefined ? whole : whole.slice(0, text.cut);
  }
  if (change.throws !== undefined) {
    return result.is_error === true ? { threw: `${change.throws}: ${String(result.content)}` } : result;
  }
  if (change.rename !== undefined && 'content' in result) {
    result[change.rename] = result.content;
    delete result.content;
  }
  return result;
}
