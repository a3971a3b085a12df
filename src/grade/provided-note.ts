// What a stage provides (register-tools: src/tools/, the tools of the earlier stages) the driver takes from the
// grader's install, never from the submission (docs/grader.md): a student who edits their copy would see the edit
// change nothing and not know why. When a provided file differs from the course's, every run says so in one line,
// passing or not, naming the files and the command that restores them; nothing else of the run changes.
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { readAsData } from '../course/read-as-data.ts';
import type { Stage } from '../course/stages.ts';
import { shellQuote } from '../shell-quote.ts';

// The most files the note names; past it, how many more.
const NAMED = 3;

// The notes for `dir` at `stage`, the package at `root`, one a provided directory; none where every provided file
// is the course's or absent (a student's code need not keep them: the driver brings its own).
export async function providedNotes(dir: string, root: string, stage: Stage): Promise<string[]> {
  const notes: string[] = [];
  for (const { path } of stage.provides) {
    const names = (await readdir(join(root, path)).catch(() => [])).filter((f) => f.endsWith('.ts')).sort();
    const differ: string[] = [];
    for (const name of names) {
      const [theirs, ours] = await Promise.all([
        readAsData(join(dir, path, name), 1024 * 1024),
        readAsData(join(root, path, name), 1024 * 1024),
      ]);
      if (theirs === 'missing' || typeof ours === 'string') continue;
      if (typeof theirs === 'string' || !theirs.data.equals(ours.data)) differ.push(`${path}/${name}`);
    }
    if (differ.length === 0) continue;
    const named = differ.slice(0, NAMED).join(', ');
    const more = differ.length > NAMED ? ` and ${differ.length - NAMED} more` : '';
    const source = relative(dir, join(root, path));
    notes.push(
      `${named}${more} ${differ.length === 1 ? 'is' : 'are'} not the course's: the grader runs the ${path}/ the course provides, whatever your copy holds, so an edit there changes nothing of this grade. To run cases by hand as the grader does, restore ${differ.length === 1 ? 'it' : 'them'}: cp ${shellQuote(source)}/*.ts ${shellQuote(path)}/`,
    );
  }
  return notes;
}
