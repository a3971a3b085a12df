// --output checked before anything runs: a report that cannot be written is found out before the cases, not
// after them.
import { constants } from 'node:fs';
import { access, rm, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { HarnessError } from '../../errors.ts';

// The absolute path --output (or `flag`) names, once it is known to be writable as a file; else a HarnessError
// saying why.
export async function checkOutputFile(cwd: string, output: string, flag = '--output'): Promise<string> {
  const bad = (why: string): HarnessError => new HarnessError('BAD_FLAG', `${flag} ${JSON.stringify(output)} ${why}`);
  if (output.trim() === '') throw bad(`is empty: give the report a file name, e.g. ${flag} results.xml.`);
  const file = resolve(cwd, output);
  if ((await stat(file).catch(() => undefined))?.isDirectory() === true) {
    throw bad(
      `is a directory: give a file in it, e.g. ${flag} ${JSON.stringify(`${output.replace(/\/+$/, '')}/results.xml`)}.`,
    );
  }
  const parent = dirname(file);
  const info = await stat(parent).catch(() => undefined);
  if (info === undefined) throw bad(`is in ${parent}, which does not exist: create it first (mkdir -p).`);
  if (!info.isDirectory()) throw bad(`is in ${parent}, which is not a directory.`);
  if (
    !(await access(parent, constants.W_OK).then(
      () => true,
      () => false,
    ))
  ) {
    throw bad(`is in ${parent}, where you cannot write: pick a directory you own.`);
  }
  return file;
}

// Removes whatever is at the report's path before the run starts (a link is removed, never followed), so that a run
// that ends without a report (exit 2, a crash) leaves no file there: never an earlier report, nor one a submission
// put there for the grader to leave in place (a committed, all-passing junit.xml).
export async function clearOutputFile(file: string): Promise<void> {
  await rm(file, { force: true });
}
