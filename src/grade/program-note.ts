// A submission's program.ts is only the student's way to run a case by hand: the grader runs the driver of its own
// install, never that file (src/modes/). When it is not the course's (edited, or an old copy from an earlier
// `init`), every run says so in one line, passing or not, and nothing else of the run changes.
import { join, relative } from 'node:path';
import { readAsData } from '../course/read-as-data.ts';
import { shellQuote } from '../shell-quote.ts';

// The note when `dir`'s program.ts is not the one in the package at `root`, with the command that restores it; else
// undefined (no program.ts at all is reported on its own).
export async function programNote(dir: string, root: string): Promise<string | undefined> {
  const [theirs, ours] = await Promise.all([
    readProgram(join(dir, 'program.ts')),
    readProgram(join(root, 'program.ts')),
  ]);
  if (theirs === undefined || ours === undefined || theirs === ours) return undefined;
  const source = relative(dir, join(root, 'program.ts'));
  return `program.ts is not the course's: the grader never runs it (it runs its own driver), so it changes nothing of this grade. To run cases by hand as the grader does, restore it: cp ${shellQuote(source)} program.ts`;
}

// A program.ts's text, read as data (a submission's could be a link to /dev/zero); undefined unless it is a small
// regular file.
async function readProgram(file: string): Promise<string | undefined> {
  const read = await readAsData(file, 1024 * 1024);
  return typeof read === 'string' ? undefined : read.data.toString('utf8');
}
