// `theinference stages`: every stage the package can grade, in course order, with its title and number of cases.
import { listStages, packageRoot } from '../../course/stages.ts';
import { write, type CommandIo, type Outcome } from './io.ts';

// Lists the stages, one per line: place in the course, slug, title, case count. With `json`, one JSON array for
// scripts (Gradescope's run_autograder reads which files a stage's student writes): each stage's place, slug,
// title, mode, the files its student writes, the export the driver calls and its case count.
export async function stagesCommand(io: CommandIo, flags: { json?: boolean } = {}): Promise<Outcome> {
  const stages = await listStages(io.root ?? packageRoot());
  if (flags.json === true) {
    const rows = stages.map(({ order, slug, title, mode, writes, entry, caseCount }) => ({
      order,
      slug,
      title,
      mode,
      writes,
      entry,
      caseCount,
    }));
    await write(io.stdout, `${JSON.stringify(rows, null, 2)}\n`);
    return 'pass';
  }
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
