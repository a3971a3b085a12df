// The record report as text: per transcript what happened to its calls, then what became of each case, then the
// yield. Divergences are shown as diffs by the grader's own diff renderer.
import { painter } from '../../grade/report/paint.ts';
import { renderLineDiff } from '../../grade/report/render-diff.ts';
import { visibleText } from '../../grade/report/visible-text.ts';
import { visibleLine } from './describe-case.ts';
import type { SeedOrigin, TranscriptReport } from '../record-types.ts';
import type { StaleCase, WrittenCase } from './write-cases.ts';

// How many divergences are shown as diffs per transcript.
export const SHOWN_DIVERGENCES = 3;
// How many reasons for skipped input are shown one by one per transcript.
export const SHOWN_SKIPS = 5;

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

// How much of it: `verbose` lists every dropped call; `divergences: 'all'` shows every divergence as a diff, not only
// the first few.
export type ReportDetail = { verbose?: boolean; divergences?: 'first' | 'all' };

// The whole report.
export function renderRecordReport(
  reports: TranscriptReport[],
  cases: WrittenCase[],
  o: { stage: string; color: boolean; stale?: StaleCase[] } & ReportDetail,
): string {
  const p = painter(o.color);
  const out: string[] = [];
  const files = (name: string, recorded = false): string =>
    `cases/${o.stage}/${name}.json, snapshots/${o.stage}/${name}.json${recorded ? `, recordings/${o.stage}/${name}.json` : ''}`;
  for (const r of reports) out.push(...renderTranscript(r, o), '');
  for (const c of cases) {
    const colour = c.status === 'refused' ? p.red : c.status === 'unchanged' ? p.dim : p.green;
    out.push(`${colour(STATUS_WORDS[c.status].padEnd(14))}${files(c.name, c.recordingText !== undefined)}`);
  }
  const stale = o.stale ?? [];
  for (const c of stale) {
    const colour = c.status === 'refused' ? p.red : p.yellow;
    const why = c.status === 'refused' ? ' (stale: this run does not make it again)' : '';
    out.push(`${colour(c.status.padEnd(14))}${files(c.name)}${why}`);
  }
  const otherContent = cases.some((c) => c.status === 'refused');
  const staleRefused = stale.some((c) => c.status === 'refused');
  if (otherContent || staleRefused) {
    const what = [
      ...(otherContent ? ['the refused cases exist with other content'] : []),
      ...(staleRefused ? ['the stale cases belong to a set this run replaces and would be graded beside it'] : []),
    ].join('; ');
    out.push('', p.red(`Nothing was written: ${what}. Re-run with --force to replace the set as a whole.`));
  }
  if (out.at(-1) !== '') out.push('');
  const seen = reports.reduce((n, r) => n + r.seen, 0);
  const kept = reports.reduce((n, r) => n + r.kept, 0);
  out.push(`yield: ${kept} of ${seen} calls (${percent(kept, seen)}) are in replay-verified cases`);
  return `${out.join('\n')}\n`;
}

function renderTranscript(r: TranscriptReport, o: { color: boolean } & ReportDetail): string[] {
  const color = o.color;
  const p = painter(color);
  const subagents =
    r.subagentFiles === 0 ? '' : `, with ${r.subagentFiles} subagent file${r.subagentFiles === 1 ? '' : 's'}`;
  const lines = [
    p.bold(
      `${v(r.transcript)} (${r.format}${r.sessionId === undefined ? '' : `, session ${v(r.sessionId)}`}${subagents})`,
    ),
  ];
  const row = (label: string, text: string): void => void lines.push(`  ${label.padEnd(10)}${text}`);
  row(
    'calls',
    `${r.seen} seen, ${r.mapped} mapped, ${r.replayed} replayed, ${r.kept} kept in ${r.cases.length} case${r.cases.length === 1 ? '' : 's'}`,
  );
  const dropped = Object.entries(r.dropped).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1));
  if (dropped.length === 0) row('dropped', 'none');
  for (const [i, [reason, n]] of dropped.entries())
    row(i === 0 ? 'dropped' : '', `${String(n).padStart(4)}  ${v(reason)}`);
  // Each dropped call, to find it in the transcript by its id.
  if (o.verbose === true) for (const d of r.droppedCalls) row('', `      ${v(d.tool)} ${v(d.id)}: ${v(d.reason)}`);
  // `1  line 1584: …`, `3  lines, the first line 4: …`, `1  file agent-acompact-1.jsonl: …`; a damaged file's
  // lines each have a reason of their own (where its JSON broke), so past a few the rest are counted.
  r.skipped.slice(0, SHOWN_SKIPS).forEach((s, i) => {
    const at = s.wholeFiles ? `file ${s.first}` : s.first;
    const where = s.count === 1 ? at : `${s.wholeFiles ? 'files' : 'lines'}, the first ${at}`;
    row(i === 0 ? 'skipped' : '', `${String(s.count).padStart(4)}  ${v(where)}: ${v(s.reason)}`);
  });
  const more = r.skipped.slice(SHOWN_SKIPS).reduce((n, s) => n + s.count, 0);
  const others = r.skipped.length - SHOWN_SKIPS;
  if (more > 0) row('', `${String(more).padStart(4)}  more, for ${others} other reason${others === 1 ? '' : 's'}`);
  row('cases', r.cases.length === 0 ? 'none' : r.cases.join(', '));
  const seeds = Object.entries(r.seeds) as [SeedOrigin, number][];
  const seedCount = seeds.reduce((n, [, k]) => n + k, 0);
  row(
    'seeds',
    seedCount === 0
      ? 'none'
      : `${seedCount} file${seedCount === 1 ? '' : 's'}: ${seeds.map(([o, n]) => `${n} from ${ORIGIN_WORDS[o]}`).join(', ')}`,
  );
  row('redacted', redactionWords(r.redactions));
  if (r.reused === true) row('replay', "reused: an earlier run's of the same transcript, options and reference");
  row(
    'fidelity',
    r.replayed === 0
      ? 'no call was replayed'
      : `${r.reproduced} of ${r.replayed} replayed calls reproduce the recording (${percent(r.reproduced, r.replayed)})`,
  );
  const shown = o.divergences === 'all' ? r.divergences : r.divergences.slice(0, SHOWN_DIVERGENCES);
  // A divergence is where the course's tools differ from the agent's, or where the sandbox lacks what the recording
  // machine had (a `cargo`, a network, a file made by a call that could not be replayed): the diff says which.
  if (shown.length > 0)
    lines.push(
      o.divergences === 'all'
        ? `  divergences (all ${shown.length}, the first of each kind first; the recording against the reference's replay):`
        : `  divergences (the first of each kind; the recording against the reference's replay):`,
    );
  for (const d of shown) {
    lines.push(`    ${v(d.tool)} ${v(d.id)}: ${v(d.reason)}`);
    const diff = renderLineDiff(visibleText(d.recorded).split('\n'), visibleText(d.replayed).split('\n'), {
      color,
      labels: { expected: 'recorded (the agent)', received: 'replayed (the reference)' },
      context: 2,
      maxLines: 14,
    });
    lines.push(...diff.split('\n').map((l) => (l === '' ? l : `      ${l}`)));
  }
  const unshown = r.divergences.length - shown.length;
  if (unshown > 0)
    lines.push(`    ${unshown} more divergence${unshown === 1 ? '' : 's'} (--divergences all shows every one)`);
  return lines;
}

// What the transcript said, shown rather than acting on the terminal: a session id, a tool name or a command's
// output with an escape sequence in it must not move the cursor or recolour the report.
const v = (text: string): string => visibleLine(text);

// The redactions by kind, as the report's `redacted` row says them (`theinference redact` says them so too).
export function redactionWords(redactions: Record<string, number>): string {
  const kinds = Object.entries(redactions);
  return kinds.length === 0 ? 'nothing' : kinds.map(([kind, n]) => counted(kind, n)).join(', ');
}

// `n` redactions of a kind: `2 e-mail addresses`, `1 home directory`, `2 private keys`, `3 matches of --redact ACME-\d+`.
function counted(kind: string, n: number): string {
  if (kind.startsWith('--redact ')) return `${n} match${n === 1 ? '' : 'es'} of ${kind}`;
  if (n === 1 || (/s$/.test(kind) && !/ss$/.test(kind))) return `${n} ${kind}`;
  return `${n} ${kind.replace(/([^aeiou])y$/, '$1ie').replace(/ss$/, 'sse')}s`;
}

function percent(n: number, of: number): string {
  return of === 0 ? '0 %' : `${Math.round((100 * n) / of)} %`;
}
