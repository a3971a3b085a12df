// The report of `theinference redact`, in the words of `record`'s: a block per recorded case (what was redacted,
// and whether the reference gives the redacted snapshot from the redacted case), then a line per case saying what
// became of its files.
import { painter } from '../../grade/report/paint.ts';
import { redactionWords } from '../../record/write/render-report.ts';
import type { RedactedCase } from './redact-case.ts';

// What became of a case: as `record` says it.
export type RedactOutcome = RedactedCase & {
  status: 'replaced' | 'unchanged' | 'would replace' | 'refused';
  why?: string;
};

export function renderRedactReport(outcomes: RedactOutcome[], o: { stage: string; color: boolean }): string {
  const p = painter(o.color);
  const out: string[] = [];
  for (const c of outcomes) {
    out.push(p.bold(`cases/${o.stage}/${c.name}.json`));
    out.push(`  ${'redacted'.padEnd(10)}${redactionWords(c.counts)}`);
    if (c.why !== undefined) out.push(`  ${'refused'.padEnd(10)}${c.why}`);
    else if (c.changed)
      out.push(`  ${'replayed'.padEnd(10)}the reference gives the redacted snapshot from the redacted case`);
    const also = [c.pending !== null && 'its pending snapshot', c.recording !== null && 'its recording'].filter(
      (x) => x !== false,
    );
    if (c.changed && also.length > 0) out.push(`  ${'also'.padEnd(10)}${also.join(' and ')}, redacted alike`);
    if (c.streamsDropped !== undefined && c.streamsDropped.length > 0) {
      const turns = c.streamsDropped.map((i) => i + 1).join(', ');
      const one = c.streamsDropped.length === 1;
      out.push(
        `  ${'streams'.padEnd(10)}turn${one ? '' : 's'} ${turns}: ${one ? 'its' : 'their'} recorded stream held what was redacted in pieces over its events, so ${one ? 'it was' : 'they were'} dropped; a streaming loop gets events made from the redacted turn`,
      );
    }
    out.push('');
  }
  for (const c of outcomes) {
    const colour = c.status === 'refused' ? p.red : c.status === 'unchanged' ? p.dim : p.green;
    out.push(`${colour(c.status.padEnd(14))}cases/${o.stage}/${c.name}.json, snapshots/${o.stage}/${c.name}.json`);
  }
  if (outcomes.length === 0) out.push(`no recorded case in cases/${o.stage}/ (a recorded case has a source)`);
  if (outcomes.some((c) => c.status === 'refused')) {
    out.push('', p.red('Nothing was written: every case is redacted, or none is.'));
  }
  const changed = outcomes.filter((c) => c.changed).length;
  out.push('', `redacted: ${changed} of ${outcomes.length} recorded case${outcomes.length === 1 ? '' : 's'} changed`);
  return `${out.join('\n')}\n`;
}
