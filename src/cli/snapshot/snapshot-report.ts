// The report of `theinference snapshot`: a line per case (and per file no case owns) with how its snapshot
// drifted and the diff, the counts, and what to do next. The same words serve a run (what it did) and --check
// (what it found); --check lists only what needs attention and counts the rest.
import { parseSnapshot } from '../../course/snapshot-file.ts';
import { painter } from '../../grade/report/paint.ts';
import { type DiffLabels, prettyLines, renderLineDiff, renderValueDiff } from '../../grade/report/render-diff.ts';
import { DRIFT_WORDS, type Drift } from './classify-drift.ts';
import type { SnapshotEntry } from './plan-snapshots.ts';

type Status = SnapshotEntry['status'];
// `recordings`: for a recorded case whose snapshot is new or changed, its re-verification against the recording.
type Mode = { check: boolean; removeObsolete: boolean; color: boolean; recordings?: Map<string, string[]> };

// Words for each status: what a run did, or what --check found.
const WORDS: Record<Status, { run: string; check: string }> = {
  added: { run: 'new', check: 'missing' },
  changed: { run: 'changed', check: 'stale' },
  unchanged: { run: 'unchanged', check: 'up to date' },
  obsolete: { run: 'obsolete', check: 'obsolete' },
  failed: { run: 'failed', check: 'failed' },
};

// How the diff's two sides are named.
const DIFF_LABELS = { expected: 'snapshot on disk', received: 'reference now' };

// The whole report, ending in a newline.
export function renderSnapshotReport(entries: SnapshotEntry[], stage: string, mode: Mode): string {
  const p = painter(mode.color);
  const paint = { added: p.green, changed: p.yellow, unchanged: p.dim, obsolete: p.magenta, failed: p.red };
  const word = (e: SnapshotEntry): string =>
    e.status === 'obsolete' && mode.removeObsolete ? 'removed' : WORDS[e.status][mode.check ? 'check' : 'run'];
  const lines: string[] = [];
  // --check lists what needs attention; the up-to-date ones are only counted (a stage has a hundred and more).
  for (const e of entries.filter((e) => !mode.check || e.status !== 'unchanged' || e.pending !== undefined)) {
    lines.push(`${paint[e.status](word(e).padEnd(10))} ${e.name}${suffix(e, mode)}`);
    const recording = mode.recordings?.get(e.name) ?? [];
    lines.push(...[...recording, ...detail(e, mode.color)].map((l) => (l === '' ? l : `    ${l}`)));
  }
  const tally = new Map<string, number>();
  for (const e of entries) tally.set(word(e), (tally.get(word(e)) ?? 0) + 1);
  const pending = entries.filter((e) => leftPending(e, mode));
  if (mode.check && pending.length > 0) tally.set('pending', pending.length);
  if (lines.length > 0) lines.push('');
  lines.push([...tally].map(([w, n]) => `${n} ${w}`).join(', ') || 'no snapshots');
  lines.push(...nextSteps(entries, pending, stage, mode));
  return `${lines.join('\n')}\n`;
}

// Whether a pending file is there for this case once the run is over (with --check: is there now).
function leftPending(e: SnapshotEntry, mode: Mode): boolean {
  if (e.status === 'obsolete') return false;
  if (mode.check) return e.pending !== undefined;
  return e.status === 'added' || e.status === 'changed' || (e.status === 'failed' && e.pending !== undefined);
}

function suffix(e: SnapshotEntry, mode: Mode): string {
  const parts: string[] = [];
  if (e.status === 'changed') parts.push(driftWords(e.drift, e.before));
  if (e.status === 'obsolete') parts.push(`${e.files.join(' and ')} ${verb(e.files, 'has', 'have')} no case`);
  if (e.status !== 'obsolete' && e.pending !== undefined) {
    if (mode.check) parts.push('pending review');
    else if (e.status === 'unchanged') parts.push('its pending file was outdated: removed');
    else if (e.status === 'failed') parts.push('its pending file kept');
  }
  return parts.length === 0 ? '' : ` — ${parts.join('; ')}`;
}

// The drift in words: its grade, or why there is none.
export function driftWords(drift: Drift | undefined, before: string): string {
  if (drift !== undefined) return DRIFT_WORDS[drift.kind];
  return typeof parseSnapshot(before) === 'string'
    ? 'the file on disk is not a snapshot'
    : 'the same results, laid out otherwise';
}

// What follows a line: each changed call and the diff, the reference's failure.
function detail(e: SnapshotEntry, color: boolean): string[] {
  if (e.status === 'failed') return e.why.split('\n');
  if (e.status !== 'changed') return [];
  const calls = (e.drift?.calls ?? []).map((c) => `call ${c.index + 1}: ${c.what}`);
  return [...calls, ...snapshotDiff(e.before, e.text, { color }).split('\n')];
}

// The diff of a snapshot on disk (null: none yet) against a new one: by value when both are snapshots, else
// line by line.
export function snapshotDiff(
  before: string | null,
  after: string,
  o: { color: boolean; labels?: DiffLabels; maxLines?: number },
): string {
  const options = {
    color: o.color,
    labels: o.labels ?? DIFF_LABELS,
    ...(o.maxLines === undefined ? {} : { maxLines: o.maxLines }),
  };
  const old = before === null ? null : parseSnapshot(before);
  const now = parseSnapshot(after);
  if (typeof old === 'string' || typeof now === 'string')
    return renderLineDiff(textLines(before), textLines(after), options);
  return old === null
    ? renderLineDiff([], prettyLines(now.results), options)
    : renderValueDiff(old.results, now.results, options);
}

function textLines(text: string | null): string[] {
  return text === null ? [] : text.replace(/\n$/, '').split('\n');
}

function nextSteps(entries: SnapshotEntry[], pending: SnapshotEntry[], stage: string, mode: Mode): string[] {
  const lines: string[] = [];
  const command = `npx theinference snapshot --stage ${stage}`;
  const obsolete = entries.filter((e) => e.status === 'obsolete');
  if (mode.check) {
    const outOfDate = entries.filter((e) => e.status !== 'unchanged' && e.status !== 'failed');
    if (outOfDate.length > 0) {
      const named = outOfDate.map(
        (e) =>
          `${e.name} (${WORDS[e.status].check}${e.status === 'changed' ? `, ${driftWords(e.drift, e.before)}` : ''})`,
      );
      lines.push(`Snapshots out of date: ${named.join(', ')}.`);
    }
    if (pending.length > 0) lines.push(`Pending review: ${pending.map((e) => e.name).join(', ')}.`);
    if (outOfDate.length > 0 || pending.length > 0) {
      const obsoleteToo = obsolete.length > 0 ? ` (and \`--remove-obsolete\` for the obsolete files)` : '';
      lines.push(
        `Run \`${command}\`${obsoleteToo}, review what it leaves pending (\`${command} --review\`) against docs/tools.md, and commit.`,
      );
    }
  } else {
    if (pending.length > 0) {
      const n = pending.length;
      lines.push(
        `${n} pending ${n === 1 ? 'snapshot' : 'snapshots'} in snapshots/${stage}/ (*.json.new): review them with \`${command} --review\`, or \`--accept <case>…\`, \`--reject <case>…\`, \`--accept-all\`.`,
      );
    }
    if (obsolete.length > 0 && !mode.removeObsolete) {
      lines.push(`Obsolete files are kept: \`${command} --remove-obsolete\` removes them.`);
    }
  }
  if (entries.some((e) => e.status === 'failed')) {
    lines.push('The reference failed on some cases: fix src/tools/ or the case; nothing was written for them.');
  }
  return lines;
}

function verb(items: unknown[], one: string, many: string): string {
  return items.length === 1 ? one : many;
}
