// The record report as text: per transcript what happened to its calls, then what became of each case, then the
// yield. Divergences are shown as diffs by the grader's own diff renderer.
import { painter } from '../grade/report/paint.ts';
import { renderLineDiff } from '../grade/report/render-diff.ts';
import type { SeedOrigin, TranscriptReport } from './record-types.ts';
import type { WrittenCase } from './write-cases.ts';

// How many divergences are shown as diffs per transcript.
export const SHOWN_DIVERGENCES = 3;

const ORIGIN_WORDS: Record<SeedOrigin, string> = {
  read: 'a whole Read',
  edit: "an Edit's original",
  write: 'a Write',
  'partial-read': 'lines seen (others blank)',
  listing: 'a listing (empty)',
  'files-from': '--files-from',
};

const STATUS_WORDS: Record<WrittenCase['status'], string> = {
  added: 'added',
  unchanged: 'unchanged',
  replaced: 'replaced',
  refused: 'refused',
  'would add': 'would add',
  'would replace': 'would replace',
};

// The whole report.
export function renderReport(reports: TranscriptReport[], cases: WrittenCase[], o: { stage: string; color: boolean }): string {
  const p = painter(o.color);
  const out: string[] = [];
  for (const r of reports) out.push(...renderTranscript(r, o.color), '');
  for (const c of cases) {
    const colour = c.status === 'refused' ? p.red : c.status === 'unchanged' ? p.dim : p.green;
    out.push(`${colour(STATUS_WORDS[c.status].padEnd(14))}cases/${o.stage}/${c.name}.json, snapshots/${o.stage}/${c.name}.json`);
  }
  if (cases.some((c) => c.status === 'refused')) {
    out.push('', p.red('Nothing was written: the refused cases exist with other content. Re-run with --force to replace them.'));
  }
  const seen = reports.reduce((n, r) => n + r.seen, 0);
  const kept = reports.reduce((n, r) => n + r.kept, 0);
  out.push('', `yield: ${kept} of ${seen} calls (${percent(kept, seen)}) are in replay-verified cases`);
  return `${out.join('\n')}\n`;
}

function renderTranscript(r: TranscriptReport, color: boolean): string[] {
  const p = painter(color);
  const lines = [p.bold(`${r.transcript} (${r.format}${r.sessionId === undefined ? '' : `, session ${r.sessionId}`})`)];
  const row = (label: string, text: string): void => void lines.push(`  ${label.padEnd(10)}${text}`);
  row('calls', `${r.seen} seen, ${r.mapped} mapped, ${r.replayed} replayed, ${r.kept} kept in ${r.cases.length} case${r.cases.length === 1 ? '' : 's'}`);
  const dropped = Object.entries(r.dropped).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1));
  if (dropped.length === 0) row('dropped', 'none');
  dropped.forEach(([reason, n], i) => row(i === 0 ? 'dropped' : '', `${String(n).padStart(4)}  ${reason}`));
  const skipped = Object.entries(r.skippedLines);
  if (skipped.length > 0) row('skipped', skipped.map(([reason, n]) => `${n} line${n === 1 ? '' : 's'}: ${reason}`).join('; '));
  row('cases', r.cases.length === 0 ? 'none' : r.cases.join(', '));
  const seeds = Object.entries(r.seeds) as [SeedOrigin, number][];
  const seedCount = seeds.reduce((n, [, k]) => n + k, 0);
  row('seeds', seedCount === 0 ? 'none' : `${seedCount} file${seedCount === 1 ? '' : 's'}: ${seeds.map(([o, n]) => `${n} from ${ORIGIN_WORDS[o]}`).join(', ')}`);
  const redactions = Object.entries(r.redactions);
  row('redacted', redactions.length === 0 ? 'nothing' : redactions.map(([kind, n]) => `${n} ${kind}`).join(', '));
  row('fidelity', r.replayed === 0 ? 'no call was replayed' : `${r.reproduced} of ${r.replayed} replayed calls reproduce the recording (${percent(r.reproduced, r.replayed)})`);
  const shown = r.divergences.slice(0, SHOWN_DIVERGENCES);
  if (shown.length > 0) lines.push(`  first divergences (where the course's tools differ from the recorded agent's):`);
  for (const d of shown) {
    lines.push(`    ${d.tool} ${d.id}: ${d.reason}`);
    const diff = renderLineDiff(d.recorded.split('\n'), d.replayed.split('\n'), {
      color,
      labels: { expected: 'recorded (the agent)', received: 'replayed (the reference)' },
      context: 2,
      maxLines: 14,
    });
    lines.push(...diff.split('\n').map((l) => (l === '' ? l : `      ${l}`)));
  }
  return lines;
}

function percent(n: number, of: number): string {
  return of === 0 ? '0 %' : `${Math.round((100 * n) / of)} %`;
}
