// A course's program.ts is the course's, not the student's: one edited (a debugging print, a changed loop) can
// make every case fail in ways that point elsewhere. When a run fails, the grader says so if it differs.
import { readAsData } from '../../course/read-as-data.ts';
import { join, relative } from 'node:path';
import { shellQuote } from '../../shell-quote.ts';

// A warning when `dir`'s program.ts is not the package's own, with the command that restores it; else undefined.
export async function programEdited(dir: string, root: string): Promise<string | undefined> {
  const [theirs, ours] = await Promise.all([
    readProgram(join(dir, 'program.ts')),
    readProgram(join(root, 'program.ts')),
  ]);
  if (theirs === undefined || ours === undefined || theirs === ours) return undefined;
  const source = relative(dir, join(root, 'program.ts'));
  return `program.ts is not the course's (${source}): the grader runs it to grade your code, and an edited copy can fail every case. Restore it: cp ${shellQuote(source)} program.ts`;
}

// A program.ts's text, read as data (a submission's could be a link to /dev/zero); undefined unless it is a small
// regular file.
async function readProgram(file: string): Promise<string | undefined> {
  const read = await readAsData(file, 1024 * 1024);
  return typeof read === 'string' ? undefined : read.data.toString('utf8');
}
