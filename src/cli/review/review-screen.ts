// What the review prints: each pending snapshot (which case, what it proves, its calls, how it drifted and the
// diff old → new), the key menu, each decision and the summary. Pure: strings in, string out. Nothing but
// colour is an escape sequence, so a plain terminal (TERM=dumb) shows it as it is; on a terminal of known size
// every line is cut to its width and a pending snapshot fits its height with the menu (80×24 included), the
// diff cut with a count of what `d` shows.
import type { Call } from '../../course/types.ts';
import { short } from '../../grade/judge/compare-results.ts';
import { painter } from '../../grade/report/paint.ts';
import { visibleText } from '../../grade/report/visible-text.ts';
import { DRIFT_WORDS, type Drift } from '../snapshot/classify-drift.ts';
import { driftWords, snapshotDiff } from '../snapshot/snapshot-report.ts';
import type { Decision } from './review-loop.ts';

// One pending snapshot with what the author needs to judge it.
export type ReviewItem = {
  stage: string;
  name: string;
  description: string;
  calls: Call[];
  // The snapshot on disk (null: the case has none yet) and the pending one.
  before: string | null;
  after: string;
  drift: Drift | undefined;
  // For a recorded case: whether the reference still reproduces the recording, in lines.
  recording?: string[];
};

// Where the review is shown: columns and rows when a terminal says so (else nothing is cut), and colour.
export type Layout = { columns?: number; rows?: number; color: boolean };

// An ANSI colour sequence (the only escapes this screen writes), to measure and cut coloured lines.
const SGR = /\u001b\[[0-9;]*m/y;

// One pending snapshot, without the menu; `whole` shows it all, however long and wide, for the terminal to wrap
// and scroll.
export function renderItem(
  item: ReviewItem,
  at: { index: number; total: number },
  layout: Layout,
  whole = false,
): string {
  const rows = whole ? undefined : layout.rows;
  const columns = whole ? undefined : layout.columns;
  // The menu and the line it leaves for the answer take the last two rows; a small terminal gets a shorter head.
  const room = rows === undefined ? Number.POSITIVE_INFINITY : rows - 2;
  let head = renderHead(item, at, layout, columns, room >= 20 ? FULL : SHORT);
  const p = painter(layout.color);
  const labels = { expected: 'snapshot (old)', received: 'pending (new)' };
  // Cut to the terminal below (with "d shows it whole"), not to a failure report's screenful.
  const diff = snapshotDiff(item.before, item.after, {
    color: layout.color,
    labels,
    maxLines: Number.POSITIVE_INFINITY,
  }).split('\n');
  const more = (n: number) => p.dim(`  … ${n} more lines: d shows them`);
  if (head.length > room - 2) head = limit(head, Math.max(1, room - 2), more);
  const body = limit(diff, Math.max(1, room - head.length), (n) =>
    p.dim(`  … ${n} more lines of diff: d shows it whole`),
  );
  return `${[...head, ...body].map((l) => cut(l, columns)).join('\n')}\n`;
}

// How much of the case the head shows: on a terminal under 22 rows, less, so the diff keeps some room.
const FULL = { description: 2, calls: 4, drift: 3 };
const SHORT = { description: 1, calls: 2, drift: 1 };

function renderHead(
  item: ReviewItem,
  at: { index: number; total: number },
  layout: Layout,
  columns: number | undefined,
  max: typeof FULL,
): string[] {
  const p = painter(layout.color);
  const status = item.before === null ? 'new' : `changed · ${driftWords(item.drift, item.before)}`;
  const head = [p.bold(`── ${at.index + 1} of ${at.total} · ${item.stage}/${item.name} · ${status} ──`)];
  const description = wrap(visibleText(item.description), columns ?? Number.POSITIVE_INFINITY);
  head.push(...limit(description, max.description, (n) => `… ${n} more lines`).map((l) => p.dim(l)));
  head.push(`calls (${item.calls.length}):`);
  const calls = item.calls.map((c, k) => `  ${k + 1}. ${c.tool} ${short(c.input, 400)}`);
  head.push(...limit(calls, max.calls, (n) => `  … ${n} more`));
  if (item.drift !== undefined) {
    const lines = item.drift.calls.map((c) => `  call ${c.index + 1}${tool(item.calls[c.index])}: ${c.what}`);
    head.push(`drift: ${DRIFT_WORDS[item.drift.kind]}`, ...limit(lines, max.drift, (n) => `  … ${n} more calls`));
  }
  if (item.recording !== undefined) head.push(...item.recording);
  head.push('');
  return head;
}

// The key menu, waiting for a key: on a terminal the answer follows on the same line.
export function renderMenu(layout: Layout & { tty: boolean }): string {
  const p = painter(layout.color);
  const keys = [
    `${p.bold('a')}/${p.bold('Enter')} accept`,
    `${p.bold('r')} reject`,
    `${p.bold('s')} skip`,
    `${p.bold('A')}/${p.bold('R')}/${p.bold('S')} all left`,
    `${p.bold('d')} whole diff`,
    `${p.bold('q')} quit`,
  ].join(' · ');
  return `${cut(keys, layout.columns === undefined ? undefined : layout.columns - 2)} ›${layout.tty ? ' ' : '\n'}`;
}

// A decision, as it is carried out.
export function renderDecision(name: string, decision: Decision, layout: Layout): string {
  const p = painter(layout.color);
  const paint = { accepted: p.green, rejected: p.red, skipped: p.yellow }[decision];
  return `${paint(decision)} ${name}\n`;
}

// A notice (an unknown key) or an error between snapshots; on a terminal, after the menu's line.
export function renderNotice(kind: 'notice' | 'error', message: string, layout: Layout & { tty: boolean }): string {
  const text = kind === 'error' ? painter(layout.color).red(`error: ${message}`) : message;
  return `${layout.tty ? '\n' : ''}${text}\n`;
}

// The end of the review: what was decided and what is still pending.
export function renderSummary(
  decisions: Record<string, Decision>,
  left: string[],
  stage: string,
  total: number,
): string {
  const command = `npx theinference snapshot --stage ${stage}`;
  if (total === 0) {
    return `No pending snapshots in snapshots/${stage}/: \`${command}\` writes them when the reference's results change.\n`;
  }
  const counts = (['accepted', 'rejected', 'skipped'] as const).map(
    (d) => `${Object.values(decisions).filter((x) => x === d).length} ${d}`,
  );
  const lines = [
    ``,
    `Reviewed ${total} pending ${total === 1 ? 'snapshot' : 'snapshots'} of ${stage}: ${counts.join(', ')}.`,
  ];
  if (left.length > 0) lines.push(`Still pending: ${left.join(', ')}. \`${command} --review\` goes on with them.`);
  return `${lines.join('\n')}\n`;
}

function tool(call: Call | undefined): string {
  return call === undefined ? '' : ` (${call.tool})`;
}

// At most `max` lines: past that, the first max-1 and a line saying how many were left out.
function limit(lines: string[], max: number, more: (n: number) => string): string[] {
  if (lines.length <= max) return lines;
  const kept = Math.max(1, max - 1);
  return [...lines.slice(0, kept), more(lines.length - kept)];
}

// A text in lines of at most `width` characters, broken at spaces where it can be.
function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(' ')) {
      if (line !== '' && line.length + 1 + word.length > width) {
        out.push(line);
        line = word;
      } else line = line === '' ? word : `${line} ${word}`;
    }
    out.push(line);
  }
  return out;
}

// A line cut to `width` visible characters (colour sequences take none), ending in `…` when cut.
export function cut(line: string, width: number | undefined): string {
  if (width === undefined) return line;
  let visible = 0;
  let out = '';
  let coloured = false;
  for (let i = 0; i < line.length; ) {
    SGR.lastIndex = i;
    const sgr = SGR.exec(line);
    if (sgr !== null) {
      out += sgr[0];
      coloured = sgr[0] !== '\u001b[0m' && sgr[0] !== '\u001b[39m' && sgr[0] !== '\u001b[22m';
      i += sgr[0].length;
      continue;
    }
    const char = String.fromCodePoint(line.codePointAt(i) ?? 0);
    if (visible === width - 1 && rest(line, i + char.length)) return `${out}…${coloured ? '\u001b[0m' : ''}`;
    out += char;
    visible += 1;
    i += char.length;
  }
  return out;
}

// Whether anything visible follows position `i`.
function rest(line: string, i: number): boolean {
  return line.slice(i).replace(new RegExp(SGR.source, 'g'), '').length > 0;
}
