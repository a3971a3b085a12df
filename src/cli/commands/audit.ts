// `theinference audit --stage <slug> [--json] [--mistake <slug>…]`: the kill matrix of the stage's catalogue of
// wrong dispatchers against its cases (course authors, in the repository). Exit 0 when every mistake is caught and
// named, 1 when not.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { packageRoot, requireStage } from '../../course/stages.ts';
import { auditCatalogue } from '../../grade/audit/audit-catalogue.ts';
import { auditPassed } from '../../grade/audit/kill-matrix.ts';
import { MUTATION_REPORT, mutationScore, renderMutationScore } from '../../grade/audit/mutation-score.ts';
import { renderKillMatrix } from '../../grade/audit/render-kill-matrix.ts';
import { type CommandIo, type Outcome, useColor, write } from './io.ts';

export type AuditFlags = { stage: string; json?: boolean; mistake: string[] };

export async function auditCommand(flags: AuditFlags, io: CommandIo): Promise<Outcome> {
  const root = io.root ?? packageRoot();
  await requireStage(root, flags.stage);
  const { matrix, notes } = await auditCatalogue(root, flags.stage, flags.mistake);
  // The last mutation run's score, when `npm run mutate` has written one: what the suite misses that no catalogue
  // holds.
  const mutation = mutationScore(await readFile(join(root, MUTATION_REPORT), 'utf8').catch(() => ''));
  const text =
    flags.json === true
      ? `${JSON.stringify({ ...matrix, notes, mutation: mutation ?? null }, null, 2)}\n`
      : renderKillMatrix(matrix, {
          color: useColor(io),
          notes: [...notes, ...(mutation === undefined ? [] : renderMutationScore(mutation))],
        });
  await write(io.stdout, text);
  return auditPassed(matrix) ? 'pass' : 'fail';
}
