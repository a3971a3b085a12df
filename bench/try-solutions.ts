// Grades whole solution files of a stage in this process, as `audit` grades its catalogue, and prints each one's
// messages (hint, or the failure's own words when it has none) and its cases: for trying new wrong solutions
// before they join a catalogue. `node --import tsx bench/try-solutions.ts <stage> <file.ts>…`
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gradeInProcess, loadGradedCases } from '../src/grade/audit/grade-in-process.ts';
import { groupFailures } from '../src/grade/report/group-failures.ts';

const [stage = 'register-tools', ...files] = process.argv.slice(2);
const cases = await loadGradedCases(resolve(import.meta.dirname, '..'), stage);
for (const file of files) {
  const module = (await import(pathToFileURL(resolve(file)).href)) as Record<string, (...a: unknown[]) => unknown>;
  const impl = module.makeExecute ?? module.runLoop;
  if (impl === undefined) throw new Error(`${file} exports neither makeExecute nor runLoop`);
  const results = await gradeInProcess(cases, impl);
  const failed = results.filter((r) => r.status === 'fail');
  const groups = groupFailures(failed);
  console.log(`\n## ${file}: ${failed.length} failed, ${groups.length} message${groups.length === 1 ? '' : 's'}`);
  for (const g of groups) {
    const f = g.results[0]!.failure!;
    console.log(`  - [${g.results.length}] ${f.hint === undefined ? `(no hint) ${f.message}` : `hint: ${f.hint}`}`);
    console.log(`      first: ${g.results[0]!.name}: ${f.message.slice(0, 300)}`);
  }
}
