// Runs a stage's catalogue of wrong implementations (dispatchers, loops) against its cases, in this process, and
// makes the kill matrix.
// The catalogue is TypeScript in the repository's test/fixtures (it is not shipped: an installed copy says so), so
// it is loaded through tsx; the driver of the stage's mode grades each one as a program process would.
import { access } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { HarnessError } from '../../errors.ts';
import { STAGES, stageOf } from '../../course/stages.ts';
import { courseUrl } from '../../modes/kit.ts';
import { auditOf, gradeInProcess, type Implementation, loadGradedCases } from './grade-in-process.ts';
import { type AuditedMistake, type KillMatrix, killMatrix } from './kill-matrix.ts';

// An entry of a catalogue: a wrong dispatcher (`make`) or a wrong loop (`runLoop`), and its messages' hints.
type Entry = { slug: string; make?: Implementation; runLoop?: Implementation; hint: RegExp | RegExp[] };
type Catalogue = { CATALOGUE: Entry[]; LOAD_MISTAKES?: { slug: string }[] };

// The matrix, and what it leaves out (mistakes that stop the program before any case cannot be graded in-process).
export async function auditCatalogue(
  root: string,
  stage: string,
  only: string[] = [],
): Promise<{ matrix: KillMatrix; notes: string[] }> {
  const file = await catalogueFile(root, stage);
  const catalogue = (await tsImport(pathToFileURL(file).href, import.meta.url)) as Catalogue;
  const course = courseUrl(root);
  const unknown = only.filter((slug) => !catalogue.CATALOGUE.some((e) => e.slug === slug));
  if (unknown.length > 0) {
    throw new HarnessError(
      'BAD_FLAG',
      `--mistake ${unknown.join(', ')}: no such entry in ${stageOf(stage)?.catalogue?.file}`,
    );
  }
  const entries = catalogue.CATALOGUE.filter((e) => only.length === 0 || only.includes(e.slug));
  // The implementation is read by one of two keys; an entry under another (`parseEnv`, say) says so by its slug.
  const unnamed = entries.filter((e) => typeof (e.make ?? e.runLoop) !== 'function').map((e) => e.slug);
  if (unnamed.length > 0) {
    throw new HarnessError(
      'NO_CATALOGUE',
      `${stageOf(stage)?.catalogue?.file}: ${unnamed.join(', ')} ${unnamed.length === 1 ? 'gives' : 'give'} no implementation: give a wrong dispatcher factory as \`make\`, or any other stage's wrong function as \`runLoop\`, beside \`slug\` and \`hint\``,
    );
  }
  const cases = await loadGradedCases(root, stage);
  const audited: AuditedMistake[] = new Array(entries.length);
  let next = 0;
  const work = async (): Promise<void> => {
    for (let k = next++; k < entries.length; k = next++) {
      const { slug, make, runLoop, hint } = entries[k]!;
      audited[k] = {
        slug,
        expected: Array.isArray(hint) ? hint : [hint],
        results: await gradeInProcess(cases, (make ?? runLoop)!, course),
      };
    }
  };
  // How many at once is the mode's to say (src/modes/<mode>/audit.ts).
  const { atOnce } = await auditOf(stage);
  await Promise.all(Array.from({ length: Math.min(atOnce, entries.length) }, work));
  const loads = only.length === 0 ? (catalogue.LOAD_MISTAKES ?? []) : [];
  const notes =
    loads.length === 0
      ? []
      : [
          `Not graded here (they stop the program before any case): ${loads.map((l) => l.slug).join(', ')}; test/cli/load-mistakes.test.ts grades them with the real binary.`,
        ];
  return {
    matrix: killMatrix(
      stage,
      cases.map((c) => c.case.name),
      audited,
    ),
    notes,
  };
}

async function catalogueFile(root: string, stage: string): Promise<string> {
  const catalogue = stageOf(stage)?.catalogue;
  if (catalogue === undefined) {
    const some = STAGES.filter((s) => s.catalogue !== undefined).map((s) => s.slug);
    throw new HarnessError(
      'NO_CATALOGUE',
      `the stage ${stage} has no catalogue of wrong implementations to audit (stages with one: ${some.join(', ')}).`,
    );
  }
  const relative = catalogue.file;
  const file = join(root, relative);
  try {
    await access(file);
  } catch {
    throw new HarnessError(
      'NO_CATALOGUE',
      `the catalogue of wrong ${catalogue.of} (${relative}) is not in this copy of theinference (${resolve(root)}): an installed package does not ship it. Run audit in a checkout of theinference's repository, where course authors keep the cases.`,
    );
  }
  return file;
}
