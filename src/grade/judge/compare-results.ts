// Compares a program's printed results with the snapshot, call by call, and says which call differs first
// and how. JSON values are equal when deeply equal: key order does not matter, anything else does.
import { leftTimerOf } from '../../course/dispatcher-contract.ts';
import { TOO_LARGE_KEY } from '../run/result-size.ts';
import type { Call } from '../../course/types.ts';
import type { Failure } from '../types.ts';

// The first difference between the snapshot's results and the program's, or undefined when they agree.
export function compareResults(calls: Call[], expected: unknown[], given: unknown[]): Failure | undefined {
  // A timer left running is the call's fault only when its result is right: a wrong one (a Tools call not awaited,
  // whose own timer is still running) is what to fix first, and is judged as it is.
  const received = given.map((r, k) => {
    const inner = leftTimerOf(r) === undefined ? r : (r as { result?: unknown }).result;
    return inner !== r && !jsonEqual(inner, expected[k]) ? inner : r;
  });
  if (received.length !== expected.length) {
    return {
      kind: 'result-count',
      message: `printed ${count(received.length, 'result')} for ${count(expected.length, 'call')}: program.ts prints exactly one result per call (was it modified?)`,
      expected,
      received,
    };
  }
  const index = expected.findIndex((e, k) => !jsonEqual(e, received[k]));
  if (index === -1) return undefined;
  const call = calls[index];
  const tool = call === undefined ? '' : ` (${call.tool})`;
  return {
    kind: 'mismatch',
    message: `call ${index + 1} of ${expected.length}${tool} differs: ${describeDifference(expected[index], received[index])}`,
    callIndex: index,
    ...(call === undefined ? {} : { call }),
    expected: expected[index],
    received: received[index],
  };
}

// Deep equality of JSON values.
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, k) => jsonEqual(v, b[k]));
  }
  if (!isObject(a) || !isObject(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
}

// One phrase saying how `received` differs from `expected`, in the student's terms.
export function describeDifference(expected: unknown, received: unknown, path = ''): string {
  const where = path === '' ? 'the result' : `"${path}"`;
  if (path === '' && isObject(received) && 'threw' in received && !(isObject(expected) && 'threw' in expected)) {
    return `execute threw instead of returning a result: ${short(received.threw, 120)}`;
  }
  const timer = path === '' ? leftTimerOf(received) : undefined;
  if (timer !== undefined && leftTimerOf(expected) === undefined) {
    return `execute returned, but left a ${timer.kind} of ${timer.ms} ms of its own running`;
  }
  if (path === '' && isObject(received) && typeof received[TOO_LARGE_KEY] === 'string') {
    return `the result is ${received[TOO_LARGE_KEY]}: too large to compare`;
  }
  if (kindOf(expected) !== kindOf(received)) {
    // `null` and nothing are their own names: "received null", never "received null null".
    const show = (v: unknown): string => (v === undefined || v === null ? kindOf(v) : `${kindOf(v)} ${short(v)}`);
    return `${where}: expected ${show(expected)}, received ${show(received)}`;
  }
  if (Array.isArray(expected) && Array.isArray(received)) {
    if (expected.length !== received.length) {
      return `${where} has ${count(received.length, 'item')}, expected ${expected.length}`;
    }
    const k = expected.findIndex((v, i) => !jsonEqual(v, received[i]));
    return describeDifference(expected[k], received[k], `${path}[${k}]`);
  }
  if (isObject(expected) && isObject(received)) return describeObjects(expected, received, path);
  if (typeof expected === 'string' && typeof received === 'string') {
    return `${where}${describeStrings(expected, received)}`;
  }
  return `${where}: expected ${short(expected)}, received ${short(received)}`;
}

function describeObjects(expected: Record<string, unknown>, received: Record<string, unknown>, path: string): string {
  const inner = (key: string): string => (path === '' ? key : `${path}.${key}`);
  const missing = Object.keys(expected)
    .filter((k) => !Object.hasOwn(received, k))
    .sort();
  const extra = Object.keys(received)
    .filter((k) => !Object.hasOwn(expected, k))
    .sort();
  const parts = [
    ...missing.map((k) => `"${inner(k)}" is missing (expected ${short(expected[k])})`),
    ...extra.map((k) => `unexpected "${inner(k)}": ${short(received[k])}`),
  ];
  // The first shared key whose value differs comes first: it is usually the one that matters.
  const key = Object.keys(expected)
    .sort()
    .find((k) => Object.hasOwn(received, k) && !jsonEqual(expected[k], received[k]));
  if (key !== undefined) parts.unshift(describeDifference(expected[key], received[key], inner(key)));
  return parts.length > 0 ? parts.join('; ') : 'differs';
}

// How two different strings differ, naming the invisible differences a reader would otherwise miss; the
// phrase follows the string's name (`"content" has an extra newline at the end`).
function describeStrings(expected: string, received: string): string {
  if (received === `${expected}\n`) return ' has an extra newline at the end';
  if (expected === `${received}\n`) return ' is missing the newline at the end';
  if (received.trimEnd() === expected.trimEnd() && received !== expected) {
    return ' differs only in whitespace at the end';
  }
  if (received.replace(/\r\n/g, '\n') === expected.replace(/\r\n/g, '\n')) {
    return received.includes('\r\n')
      ? ' has \\r\\n line endings where \\n was expected'
      : ' is missing the \\r of \\r\\n line endings';
  }
  const e = expected.split('\n');
  const r = received.split('\n');
  if (e.length === 1 && r.length === 1) {
    const [col, we, wr] = quoted(expected, received);
    return `${col === undefined ? '' : ` differs at column ${col}`}: expected ${we}, received ${wr}`;
  }
  const line = e.findIndex((l, k) => l !== r[k]);
  const n = line === -1 ? e.length : line;
  const el = e[n];
  const rl = r[n];
  if (el !== undefined && rl !== undefined && el.trimEnd() === rl.trimEnd()) {
    return ` differs from line ${n + 1} on: trailing whitespace (expected ${short(el)}, received ${short(rl)})`;
  }
  if (el !== undefined && rl !== undefined) {
    const [col, we, wr] = quoted(el, rl);
    const at = col === undefined ? '' : `, column ${col},`;
    return ` differs from line ${n + 1}${at} on: expected ${we}, received ${wr}`;
  }
  const show = (l: string | undefined): string => (l === undefined ? 'no such line' : short(l));
  return ` differs from line ${n + 1} on: expected ${show(el)}, received ${show(rl)}`;
}

// Two lines quoted so that the quotes differ: from their starts, or, where they first differ past what a quote
// shows, from a little before that column, given from 1 (a quote of their starts would show the same text twice).
function quoted(el: string, rl: string): [column: number | undefined, expected: string, received: string] {
  let col = 0;
  while (col < el.length && col < rl.length && el[col] === rl[col]) col += 1;
  if (JSON.stringify(el.slice(0, col + 1)).length < 50) return [undefined, short(el), short(rl)];
  const from = col - 20;
  return [col + 1, short(`…${el.slice(from)}`), short(`…${rl.slice(from)}`)];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value === undefined) return 'nothing';
  const t = typeof value;
  return t === 'object' ? 'an object' : `a ${t}`;
}

// JSON text of a value, cut to `max` characters; a string cut short keeps its closing quote ("abc…"), so a
// one-line summary never reads as if the quote ran on into the rest of it.
export function short(value: unknown, max = 60): string {
  const text = value === undefined ? 'undefined' : (JSON.stringify(value) ?? String(value));
  if (text.length <= max) return text;
  if (typeof value !== 'string') return `${text.slice(0, max - 1)}…`;
  // Not inside an escape (`\n`, `\u2028`): cut before its backslash.
  const cut = text.slice(0, max - 2).replace(/\\(u[0-9a-fA-F]{0,3})?$/, '');
  return `${cut}…"`;
}

// `n` and the noun, plural but for one: "1 item", "2 items".
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

// "1 was", "2 were": `n` and the verb that agrees with it.
export function wasOrWere(n: number): string {
  return `${n} ${n === 1 ? 'was' : 'were'}`;
}
