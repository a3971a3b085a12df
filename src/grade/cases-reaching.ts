// The cases of a stage a save most likely breaks, to run first (changed-words.ts says how they are told): the cases
// whose own case or snapshot file changed, then those naming the words of the changed lines.
import { readFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { caseFileNames, casesDir, snapshotsDir } from '../course/stages.ts';
import { casesNaming, changedWords, wordsOf, type FileChange } from './changed-words.ts';

// What a save touched: every path (absolute), and the student's code among them with its texts.
export type Save = { paths: readonly string[]; changes: readonly FileChange[] };

// The words of each case of a stage, by name, given the case files a save edited (read again).
export type CaseWords = (edited: readonly string[]) => Promise<Array<{ name: string; words: ReadonlySet<string> }>>;

// Reads the words of every case of `stage` once, starting now (a watch session keeps them: reading and splitting
// every case file took 16-80 ms a save), and again only a case file a save edited, added or removed.
export function keepCaseWords(root: string, stage: string): CaseWords {
  const dir = casesDir(root, stage);
  const read = async (name: string) => readFile(join(dir, `${name}.json`), 'utf8').catch(() => undefined);
  const loaded = caseFileNames(root, stage).then(async (files) => {
    const names = files.map((file) => file.slice(0, -'.json'.length));
    const texts = await Promise.all(names.map(read));
    return new Map(names.map((name, i) => [name, wordsOf(texts[i] ?? '')] as const));
  });
  return async (edited) => {
    const words = await loaded;
    for (const name of edited) {
      const text = await read(name);
      if (text === undefined) words.delete(name);
      else words.set(name, wordsOf(text));
    }
    return [...words.keys()].sort().map((name) => ({ name, words: words.get(name) as ReadonlySet<string> }));
  };
}

// The names of the cases to run first after `save`: those whose case or snapshot file it edited, then those naming
// what its changed lines name.
export async function casesReaching(
  root: string,
  stage: string,
  save: Save,
  caseWords: CaseWords = keepCaseWords(root, stage),
): Promise<string[]> {
  const editedIn = (dir: string): string[] =>
    save.paths
      .filter((path) => path.endsWith('.json') && resolve(dirname(path)) === resolve(dir))
      .map((path) => basename(path, '.json'));
  const edited = [...editedIn(casesDir(root, stage)), ...editedIn(snapshotsDir(root, stage))];
  const changed = changedWords(save.changes);
  const cases = await caseWords(editedIn(casesDir(root, stage)));
  return [...new Set([...edited, ...(changed.size === 0 ? [] : casesNaming(cases, changed))])];
}
