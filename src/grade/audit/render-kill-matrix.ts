// The kill matrix for a terminal: a row per mistake (✓ caught and named, ✗ not), its messages with their hints and
// cases, then the cases no mistake fails and the counts. Pure.
import type { ChalkInstance } from 'chalk';
import { stageOf } from '../../course/stages.ts';
import { painter } from '../report/paint.ts';
import type { KillMatrix, MistakeRow } from './kill-matrix.ts';

// Case names listed per message at most, then a count.
const NAMES_SHOWN = 6;

export function renderKillMatrix(matrix: KillMatrix, options: { color: boolean; notes?: string[] }): string {
  const c = painter(options.color);
  const lines = [
    `Kill matrix of ${matrix.stage}: ${matrix.mistakes.length} wrong ${stageOf(matrix.stage)?.catalogue?.of ?? 'implementations'} against ${matrix.cases} cases`,
    '',
  ];
  for (const row of matrix.mistakes) lines.push(...renderRow(row, c));
  lines.push('', `Cases no mistake fails (${matrix.unkilled.length}): ${matrix.unkilled.join(', ') || 'none'}`);
  lines.push(`Mistakes no case catches: ${matrix.uncaught.join(', ') || 'none'}`);
  lines.push(
    `Mistakes the report does not name (a hint that misses, or not one message per mistake): ${matrix.unnamed.join(', ') || 'none'}`,
  );
  for (const note of options.notes ?? []) lines.push(c.dim(note));
  const killed = matrix.cases - matrix.unkilled.length;
  const good = matrix.mistakes.filter((m) => m.caught && m.named).length;
  lines.push(
    '',
    `${good} of ${matrix.mistakes.length} mistakes caught and named; ${killed} of ${matrix.cases} cases fail at least one mistake`,
  );
  return `${lines.join('\n')}\n`;
}

function renderRow(row: MistakeRow, c: ChalkInstance): string[] {
  const ok = row.caught && row.named;
  const mark = ok ? c.green('✓') : c.red('✗');
  if (!row.caught) return [`${mark} ${c.bold(row.slug)} — fails no case`];
  const count = `fails ${row.failed.length} case${row.failed.length === 1 ? '' : 's'}`;
  const said = row.messages.length === 1 ? 'one message' : `${row.messages.length} messages`;
  const lines = [
    `${mark} ${c.bold(row.slug)} — ${count}, ${said}${row.named ? '' : c.red(' (not named as catalogued)')}`,
  ];
  for (const m of row.messages) {
    const names = m.cases.slice(0, NAMES_SHOWN).join(', ');
    const more = m.cases.length > NAMES_SHOWN ? `, and ${m.cases.length - NAMES_SHOWN} more` : '';
    lines.push(`    ${c.yellow('hint:')} ${m.hint ?? c.red('(none)')}`, `    ${c.dim(`cases: ${names}${more}`)}`);
  }
  return lines;
}
