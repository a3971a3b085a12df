// Expected vs received as a unified diff of pretty JSON. Strings that span lines are printed one line per
// line (as vitest's snapshot printer does) so a diff points at the line that differs, and what a terminal
// would hide is made visible: tabs and `\r` escaped, trailing spaces as `·`, a missing final newline by where
// the closing quote sits.
import { diffArrays, diffChars } from 'diff';
import type { ChalkInstance } from 'chalk';
import { unicodeEscape, unseenClass } from '../../unseen-characters.ts';
import { painter } from './paint.ts';

// What each side of the diff is called.
export type DiffLabels = { expected: string; received: string };

// How a diff is rendered.
type DiffOptions = {
  color: boolean;
  labels?: DiffLabels;
  // Unchanged lines kept around each change.
  context?: number;
  // Diff lines shown at most, from the first difference on (about a screenful: a long diff would scroll the hint
  // above it away); the rest is counted.
  maxLines?: number;
};

const DEFAULT_LABELS: DiffLabels = { expected: 'expected', received: 'received' };
// Diff lines shown when the caller does not say.
const DIFF_LINES = 30;
const TRAILING_SPACE = '·';
// Characters that look like nothing (or like a plain space) in a terminal, and those a terminal acts on that
// JSON.stringify leaves as they are: C1 controls (NEL, the one-character CSI) and the bidirectional controls.
// And those that look like a space or nothing: no-break space, soft hyphen, Mongolian vowel separator.
const INVISIBLE = unseenClass(['c1', 'bidi', 'separators', 'zeroWidth'], 'g', '\\u00a0\\u00ad\\u180e');

// Pretty JSON of a value, keys sorted, one array entry per line for multi-line strings.
export function prettyLines(value: unknown): string[] {
  return render(value, '').split('\n');
}

// The diff of two JSON values.
export function renderValueDiff(expected: unknown, received: unknown, options: DiffOptions): string {
  return renderLineDiff(prettyLines(expected), prettyLines(received), options);
}

// A unified diff of two texts given as lines: `-` lines are expected only, `+` lines received only.
export function renderLineDiff(expected: string[], received: string[], options: DiffOptions): string {
  const c = painter(options.color);
  const labels = options.labels ?? DEFAULT_LABELS;
  const rows = diffRows(expected, received, c);
  const shown = collapse(rows, options.context ?? 3);
  const max = options.maxLines ?? DIFF_LINES;
  const out = [c.green(`- ${labels.expected}`), c.red(`+ ${labels.received}`), ''];
  for (const row of shown.slice(0, max)) {
    if (row.type === 'skip') out.push(c.dim(`  … ${row.count} unchanged line${row.count === 1 ? '' : 's'}`));
    else if (row.type === ' ') out.push(c.dim(`  ${row.text}`));
    else {
      const colour = row.type === '-' ? c.green : c.red;
      const text = row.marked ?? colour(row.text);
      out.push(`${colour(`${row.type} `)}${text}`);
    }
  }
  if (shown.length > max) out.push(c.dim(`  … ${leftOut(shown.slice(max))}`));
  if ([...expected, ...received].some((l) => l.includes(TRAILING_SPACE))) {
    out.push(
      '',
      c.dim(`${TRAILING_SPACE} marks a trailing space; tabs, \\r and invisible characters are shown escaped`),
    );
  }
  return out.join('\n');
}

// What the rows past the cut hold: "12 more lines of the diff left out (9 changed)".
function leftOut(rows: Row[]): string {
  const lines = rows.reduce((n, row) => n + (row.type === 'skip' ? row.count : 1), 0);
  const changed = rows.filter((row) => row.type === '-' || row.type === '+').length;
  return `${lines} more line${lines === 1 ? '' : 's'} of the diff left out (${changed} changed)`;
}

type Row =
  | { type: ' '; text: string }
  | { type: '-' | '+'; text: string; marked?: string }
  | { type: 'skip'; count: number };

function diffRows(expected: string[], received: string[], c: ChalkInstance): Row[] {
  // maxEditLength keeps a diff of two huge, unrelated outputs from taking seconds; past it, show both whole.
  const changes = diffArrays(expected, received, { maxEditLength: 4000 }) ?? [
    { value: expected, removed: true, added: false, count: expected.length },
    { value: received, removed: false, added: true, count: received.length },
  ];
  const rows: Row[] = [];
  for (let k = 0; k < changes.length; k += 1) {
    const change = changes[k]!;
    const next = changes[k + 1];
    if (change.removed && next?.added && next.value.length === change.value.length) {
      // A block of lines replaced by as many lines: pair them up and mark the characters that changed.
      rows.push(...change.value.map((text) => ({ type: '-' as const, text })));
      rows.push(...next.value.map((text) => ({ type: '+' as const, text })));
      if (c.level > 0) markPairs(rows, change.value.length, c);
      k += 1;
    } else {
      const type = change.removed ? '-' : change.added ? '+' : ' ';
      rows.push(...change.value.map((text) => ({ type, text }) as Row));
    }
  }
  return rows;
}

// Marks, in the last 2n rows (n removed then n added), the characters each pair does not share.
function markPairs(rows: Row[], n: number, c: ChalkInstance): void {
  const start = rows.length - 2 * n;
  for (let k = 0; k < n; k += 1) {
    const removed = rows[start + k];
    const added = rows[start + n + k];
    if (removed?.type !== '-' || added?.type !== '+') continue;
    const parts = diffChars(removed.text, added.text);
    const common = parts.filter((p) => !p.added && !p.removed).reduce((sum, p) => sum + p.value.length, 0);
    // Lines with little in common read better whole than as confetti.
    if (common * 2 < Math.max(removed.text.length, added.text.length)) continue;
    removed.marked = parts
      .filter((p) => !p.added)
      .map((p) => (p.removed ? c.inverse.green(p.value) : c.green(p.value)))
      .join('');
    added.marked = parts
      .filter((p) => !p.removed)
      .map((p) => (p.added ? c.inverse.red(p.value) : c.red(p.value)))
      .join('');
  }
}

function collapse(rows: Row[], context: number): Row[] {
  const near = rows.map(() => false);
  rows.forEach((row, k) => {
    if (row.type === '-' || row.type === '+') {
      for (let j = Math.max(0, k - context); j <= Math.min(rows.length - 1, k + context); j += 1) near[j] = true;
    }
  });
  const out: Row[] = [];
  for (let k = 0; k < rows.length; k += 1) {
    if (near[k]) {
      out.push(rows[k]!);
      continue;
    }
    let j = k;
    while (j < rows.length && !near[j]) j += 1;
    out.push({ type: 'skip', count: j - k });
    k = j - 1;
  }
  return out;
}

function render(value: unknown, indent: string): string {
  if (typeof value === 'string') return renderString(value);
  if (value === undefined) return 'undefined';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => inner + render(v, inner)).join(',\n')}\n${indent}]`;
  }
  const keys = Object.keys(value).sort();
  if (keys.length === 0) return '{}';
  // A key is the program's text as much as a value is: escaped the same way, on one line.
  const entries = keys.map(
    (k) => `${inner}"${escapeLine(k)}": ${render((value as Record<string, unknown>)[k], inner)}`,
  );
  return `{\n${entries.join(',\n')}\n${indent}}`;
}

function renderString(text: string): string {
  const lines = text.split('\n').map(escapeLine);
  if (lines.length === 1) return `"${lines[0]}"`;
  return `"${lines.map((l) => l.replace(/ +$/, (spaces) => TRAILING_SPACE.repeat(spaces.length))).join('\n')}"`;
}

function escapeLine(line: string): string {
  return JSON.stringify(line).slice(1, -1).replace(INVISIBLE, unicodeEscape);
}
