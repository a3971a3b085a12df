// `theinference stages`: every stage the package can grade, with its number of cases.
import { listStages, packageRoot } from '../../course/stages.ts';
import { write, type CommandIo, type Outcome } from './io.ts';

// Lists the stages, one per line: slug, then its case count.
export async function stagesCommand(io: CommandIo): Promise<Outcome> {
  const stages = await listStages(io.root ?? packageRoot());
  const width = Math.max(0, ...stages.map((s) => s.slug.length));
  const lines = stages.map((s) => `${s.slug.padEnd(width)}  ${s.caseCount} case${s.caseCount === 1 ? '' : 's'}`);
  const how = stages.length === 0 ? 'No stages yet.' : 'Grade one with: npx theinference test --stage <stage>';
  await write(io.stdout, [...lines, '', how, ''].join('\n'));
  return 'pass';
}
