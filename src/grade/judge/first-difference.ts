// The first difference of a failure no hint explains, generalized: where it is (the path to the first value that
// differs, array positions left out) and how the received value relates to the expected one (trimmed, cut short,
// with text in front or after, JSON text of it, more or fewer items) or, when they are unrelated, what was received
// with the call's own values written as their keys. Two failures of one submission with the same difference are
// one mistake, shown once (src/grade/report/group-failures.ts): a wrapper that prefixes every error, a branch
// that answers its own text. It names no cause: it is what differs, said once. Pure.
import { jsonEqual } from './compare-results.ts';

// `where` names the call or the message the difference is in (a branch, "request"), `inputs` the values the call
// sent (each written as its key in an unrelated received text).
export function firstDifference(
  where: string,
  expected: unknown,
  received: unknown,
  inputs: Record<string, unknown> = {},
): string {
  return JSON.stringify([where, ...leafDifference(expected, received, '', inputs)]);
}

function leafDifference(e: unknown, r: unknown, path: string, inputs: Record<string, unknown>): string[] {
  if (isObject(e) && isObject(r)) {
    const keys = [...new Set([...Object.keys(e), ...Object.keys(r)])].sort();
    const missing = keys.filter((k) => !Object.hasOwn(r, k));
    const extra = keys.filter((k) => !Object.hasOwn(e, k));
    const shared = keys.find((k) => Object.hasOwn(e, k) && Object.hasOwn(r, k) && !jsonEqual(e[k], r[k]));
    const fields = [
      ...missing.map((k) => `${path}.${k} missing`),
      ...extra.map((k) => `${path}.${k} added: ${shape(r[k], inputs)}`),
    ];
    if (shared === undefined) return fields;
    return [...leafDifference(e[shared], r[shared], `${path}.${shared}`, inputs), ...fields];
  }
  if (Array.isArray(e) && Array.isArray(r)) {
    if (e.length === r.length) {
      const k = e.findIndex((v, i) => !jsonEqual(v, r[i]));
      return leafDifference(e[k], r[k], `${path}[]`, inputs);
    }
    return [`${path}: ${arrayRelation(e, r)}`];
  }
  if (typeof e === 'string' && typeof r === 'string') return [`${path}: ${stringRelation(e, r, inputs)}`];
  return [`${path}: ${kind(e)} became ${shape(r, inputs)}`];
}

// How a received list relates to the expected one.
function arrayRelation(e: unknown[], r: unknown[]): string {
  const more = r.length > e.length ? 'more' : 'fewer';
  if (r.length < e.length && jsonEqual(r, e.slice(e.length - r.length))) return 'only the last items';
  if (r.length < e.length && jsonEqual(r, e.slice(0, r.length))) return 'only the first items';
  if (r.length > e.length && jsonEqual(r.slice(r.length - e.length), e)) return 'more items, before the expected';
  if (r.length > e.length && jsonEqual(r.slice(0, e.length), e)) return 'more items, after the expected';
  return `${more} items`;
}

// How a received text relates to the expected one.
function stringRelation(e: string, r: string, inputs: Record<string, unknown>): string {
  if (r === e.trim()) return 'trimmed';
  if (r === e.trimEnd()) return 'trimmed at the end';
  if (r === e.trimStart()) return 'trimmed at the start';
  if (r === JSON.stringify(e)) return 'the JSON text of the expected';
  if (e !== '' && e.startsWith(r)) return 'cut short';
  if (e !== '' && r.endsWith(e))
    return `with ${JSON.stringify(template(r.slice(0, r.length - e.length), inputs))} in front`;
  if (e !== '' && r.startsWith(e)) return `with ${JSON.stringify(template(r.slice(e.length), inputs))} after`;
  return `became ${shape(r, inputs)}`;
}

// A value as a key of the difference: a text with the call's own values written as their keys, cut to its first
// line; anything else as its kind.
function shape(value: unknown, inputs: Record<string, unknown>): string {
  if (typeof value === 'string') return JSON.stringify(template(value.split('\n')[0] ?? '', inputs));
  if (typeof value === 'boolean' || typeof value === 'number' || value === null) return JSON.stringify(value);
  return kind(value);
}

function template(text: string, inputs: Record<string, unknown>): string {
  const values = Object.entries(inputs)
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1].length > 0)
    .sort(([, a], [, b]) => b.length - a.length);
  return values.reduce((t, [key, value]) => t.split(value).join(`{${key}}`), text);
}

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return value === undefined ? 'nothing' : typeof value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
