// How a snapshot drifted when the reference changed, call by call, in three grades a course author weighs
// differently: the same results once placeholders are read as what they stand for (a re-redaction, a path that
// became <sandbox>), the same fields with other text (a tool's wording), or another outcome (success and error
// swapped, a field added or gone, another exit code, another number of results). Pure.
import { jsonEqual } from '../../grade/judge/compare-results.ts';
import { REDACTED_HOME } from '../../record/map/redact.ts';
import { SANDBOX } from '../../course/sandbox-placeholder.ts';

// The grades, mildest first.
export type DriftKind = 'placeholders' | 'wording' | 'outcome';

// One call whose result changed: which, and what changed, in a few words.
export type CallDrift = { index: number; kind: DriftKind; what: string };

// A changed snapshot's drift: the gravest grade of its calls, and each changed call.
export type Drift = { kind: DriftKind; calls: CallDrift[] };

// How each grade is said in the review and in --check's report.
export const DRIFT_WORDS: Record<DriftKind, string> = {
  placeholders: 'identical apart from placeholders',
  wording: 'wording only',
  outcome: 'a different outcome',
};

const GRAVITY: DriftKind[] = ['placeholders', 'wording', 'outcome'];

// What stands in for something in a snapshot: the sandbox's path, a redaction, the redacted home and e-mail.
const PLACEHOLDER = new RegExp(
  [escapeRegExp(SANDBOX), '<redacted(?::[a-z0-9-]+)?>', escapeRegExp(REDACTED_HOME), 'user@example\\.com'].join('|'),
);

// The drift from `before` to `after` (each a snapshot's results), or undefined when they are equal.
export function classifyDrift(before: unknown[], after: unknown[]): Drift | undefined {
  if (jsonEqual(before, after)) return undefined;
  if (before.length !== after.length) {
    const what = `${count(before.length)} → ${count(after.length)}`;
    return { kind: 'outcome', calls: [{ index: Math.min(before.length, after.length), kind: 'outcome', what }] };
  }
  const calls: CallDrift[] = [];
  for (const [index, old] of before.entries()) {
    const now = after[index];
    if (!jsonEqual(old, now)) calls.push({ index, ...resultDrift(old, now) });
  }
  const kind = calls.reduce<DriftKind>(
    (k, c) => (GRAVITY.indexOf(c.kind) > GRAVITY.indexOf(k) ? c.kind : k),
    'placeholders',
  );
  return { kind, calls };
}

// One call's drift, its outcome judged before its text.
function resultDrift(old: unknown, now: unknown): { kind: DriftKind; what: string } {
  const [was, is] = [outcomeOf(old), outcomeOf(now)];
  if (was !== is) return { kind: 'outcome', what: `${was} → ${is}` };
  const a = leaves(old);
  const b = leaves(now);
  const gone = [...a.keys()].filter((k) => !b.has(k));
  const added = [...b.keys()].filter((k) => !a.has(k));
  if (gone.length > 0 || added.length > 0) {
    const parts = [...added.map((k) => `${field(k)} added`), ...gone.map((k) => `${field(k)} gone`)];
    return { kind: 'outcome', what: parts.join(', ') };
  }
  const changed = [...a.keys()].filter((k) => !jsonEqual(a.get(k), b.get(k)));
  const values = changed.filter((k) => typeof a.get(k) !== 'string' || typeof b.get(k) !== 'string');
  if (values.length > 0) {
    const what = values.map((k) => `${field(k)} ${JSON.stringify(a.get(k))} → ${JSON.stringify(b.get(k))}`);
    return { kind: 'outcome', what: what.join(', ') };
  }
  const reworded = changed.filter((k) => !samePlaceholders(a.get(k) as string, b.get(k) as string));
  if (reworded.length > 0) return { kind: 'wording', what: `${reworded.map(field).join(', ')} worded otherwise` };
  return { kind: 'placeholders', what: `${changed.map(field).join(', ')} differs only in placeholders` };
}

// success, error or a throw: what a call's result says happened.
function outcomeOf(result: unknown): string {
  if (result === null || typeof result !== 'object' || Array.isArray(result)) return 'another value';
  const r = result as Record<string, unknown>;
  if ('threw' in r) return 'a throw';
  return r.is_error === true ? 'an error' : 'a success';
}

// Every leaf of a JSON value by its path (`content`, `details.lines[0]`); an empty object or array is a leaf.
function leaves(value: unknown, path = '', out = new Map<string, unknown>()): Map<string, unknown> {
  const isArray = Array.isArray(value);
  const entries =
    value !== null && typeof value === 'object' ? Object.entries(value as Record<string, unknown>) : undefined;
  if (entries === undefined || entries.length === 0) return out.set(path, value);
  for (const [k, v] of entries) leaves(v, isArray ? `${path}[${k}]` : path === '' ? k : `${path}.${k}`, out);
  return out;
}

// Whether two texts are the same once each placeholder in one is allowed to stand for any text in the other.
export function samePlaceholders(a: string, b: string): boolean {
  return matchesWith(b, a) || matchesWith(a, b);
}

// Each placeholder of `template` stands for at least one character of `text` (a path, a secret). The literal
// pieces between them are found in order, each as early as it can be, which leaves the most room for the rest:
// linear in the text, where a regex of lazy wildcards could backtrack for ever on a long one.
function matchesWith(template: string, text: string): boolean {
  const parts = template.split(PLACEHOLDER);
  const first = parts[0] ?? '';
  const last = parts.at(-1) ?? '';
  if (parts.length === 1 || !text.startsWith(first)) return false;
  let at = first.length;
  for (const part of parts.slice(1, -1)) {
    const found = text.indexOf(part, at + 1);
    if (found === -1) return false;
    at = found + part.length;
  }
  return text.length - last.length >= at + 1 && text.endsWith(last);
}

function field(path: string): string {
  return path === '' ? 'the result' : `"${path}"`;
}

function count(n: number): string {
  return `${n} result${n === 1 ? '' : 's'}`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
