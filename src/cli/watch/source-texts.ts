// The texts of the student's code as the last verdict graded them, kept so that a save can tell what it changed
// (src/grade/changed-words.ts): the cases it most likely breaks run first. Read as data (never through a link,
// never a FIFO), and bounded: a course directory holding far more than code keeps only the first files.
import { isAbsolute, relative, sep } from 'node:path';
import fg from 'fast-glob';
import { readAsData } from '../../course/read-as-data.ts';
import type { FileChange } from '../../grade/changed-words.ts';

// A course's code is a few dozen files of a few KB; past these, a file or a directory is not what a save is about.
const MAX_FILES = 500;
const MAX_BYTES = 512 * 1024;

export type SourceTexts = {
  // What each of `paths` (absolute) changed since the texts kept; a path outside the course's code is left out.
  changes: (paths: readonly string[]) => Promise<FileChange[]>;
  // Keeps these texts as the graded ones (a run that finished graded them).
  keep: (changes: readonly FileChange[]) => void;
};

// Reads the code of course directory `dir` (its src/ and program.ts, what `isIgnored` keeps).
export async function keepSourceTexts(dir: string, isIgnored: (path: string) => boolean): Promise<SourceTexts> {
  const texts = new Map<string, string>();
  const paths = await fg(['src/**/*', 'program.ts'], {
    cwd: dir,
    absolute: true,
    onlyFiles: true,
    followSymbolicLinks: false,
    deep: 12,
    ignore: ['**/node_modules/**'],
  }).catch(() => []);
  const kept = paths
    .filter((path) => !isIgnored(path))
    .sort()
    .slice(0, MAX_FILES);
  for (const [path, text] of await Promise.all(kept.map(async (p) => [p, await textOf(p)] as const))) {
    if (text !== undefined) texts.set(path, text);
  }
  const isCode = (path: string): boolean => {
    const rel = relative(dir, path);
    return !isAbsolute(rel) && (rel === 'program.ts' || rel.startsWith(`src${sep}`)) && !isIgnored(path);
  };
  return {
    changes: async (changed) => {
      const code = [...new Set(changed)].filter(isCode);
      return Promise.all(code.map(async (path) => ({ path, before: texts.get(path), after: await textOf(path) })));
    },
    keep: (changes) => {
      for (const { path, after } of changes) {
        if (after === undefined) texts.delete(path);
        else if (texts.has(path) || texts.size < MAX_FILES) texts.set(path, after);
      }
    },
  };
}

async function textOf(path: string): Promise<string | undefined> {
  const read = await readAsData(path, MAX_BYTES);
  return typeof read === 'string' ? undefined : read.data.toString('utf8');
}
