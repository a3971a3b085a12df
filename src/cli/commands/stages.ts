// `theinference stages`: every stage the package can grade, in course order, with its title and number of cases.
import { listStages, packageRoot } from '../../course/stages.ts';
import { write, type CommandIo, type Outcome } from './io.ts';

// Lists the stages, one per line: place in the course, slug, title, case count.
export async function stagesCommand(io: CommandIo): Promise<Outcome> {
  const stages = await listStages(io.root ?? packageRoot());
  const width = (of: (s: (typeof stages)[number]) => string) => Math.max(0, ...stages.map((s) => of(s).length));
  const [slugs, titles] = [width((s) => s.slug), width((s) => s.title)];
  const lines = stages.map(
    (s) =>
      `${s.order}  ${s.slug.padEnd(slugs)}  ${s.title.padEnd(titles)}  ${s.caseCount} case${s.caseCount === 1 ? '' : 's'}`,
  );
  const how = stages.length === 0 ? 'No stages yet.' : 'Grade one with: npx theinference test --stage <stage>';
  await write(io.stdout, [...lines, '', how, ''].join('\n'));
  return 'pass';
}
