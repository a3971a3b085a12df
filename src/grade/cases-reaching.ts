// The cases of a stage a save most likely breaks, to run first (changed-words.ts says how they are told): the cases
// whose own case or snapshot file changed, then those naming the words of the changed lines.
import { readFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { caseFileNames, casesDir, snapshotsDir } from '../course/stages.ts';
import { casesNaming, changedWords, wordsOf, type FileChange } from './changed-words.ts';

// `paths`: every path the save touched (absolute); `changes`: those of the student's code, with their texts.
export async function casesReaching(
  root: string,
  stage: string,
  save: { paths: readonly string[]; changes: readonly FileChange[] },
): Promise<string[]> {
  const own = [casesDir(root, stage), snapshotsDir(root, stage)].map((dir) => resolve(dir));
  const edited = save.paths
    .filter((path) => path.endsWith('.json') && own.includes(resolve(dirname(path))))
    .map((path) => basename(path, '.json'));
  const words = changedWords(save.changes);
  if (words.size === 0) return [...new Set(edited)];
  const files = await caseFileNames(root, stage);
  const cases = await Promise.all(
    files.map(async (file) => ({
      name: file.slice(0, -'.json'.length),
      words: wordsOf(await readFile(join(casesDir(root, stage), file), 'utf8').catch(() => '')),
    })),
  );
  return [...new Set([...edited, ...casesNaming(cases, words)])];
}
