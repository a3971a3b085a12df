// What a course directory must hold before any program process is spawned, checked up front so that a
// wrong --dir is one clear message instead of a crash in every case.
import { stat } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { packageRoot } from './stages.ts';
import { HarnessError } from '../errors.ts';
import { shellQuote } from '../shell-quote.ts';
import { readAsData } from './read-as-data.ts';

// Past this, a package.json is not one (a submission's could be a link to /dev/zero: never read through a link).
const MAX_MANIFEST_BYTES = 1024 * 1024;

// Fails with a HarnessError saying how to fix a missing directory, a missing program.ts, or a directory
// whose .ts files would not load as ES modules (program.ts uses top-level await).
export async function checkCourseDir(dir: string): Promise<void> {
  const info = await stat(dir).catch(() => undefined);
  if (info === undefined || !info.isDirectory()) {
    throw new HarnessError(
      'NO_COURSE_DIR',
      `course directory not found: ${dir}. Run the grader from your course directory, or pass --dir <your course directory>.`,
    );
  }
  const program = await stat(join(dir, 'program.ts')).catch(() => undefined);
  if (program === undefined || !program.isFile()) {
    // A course directory (it has a package.json) that lost its program.ts gets it back from the package.
    const source = relative(dir, join(packageRoot(), 'program.ts'));
    const restore = (await stat(join(dir, 'package.json')).catch(() => undefined))?.isFile()
      ? ` If ${dir} is your course directory, restore the course's program.ts: cp ${shellQuote(source)} program.ts`
      : '';
    throw new HarnessError(
      'NO_PROGRAM',
      `${dir} has no program.ts. The grader knows your course directory by its program.ts, looking in the current directory and the ones above it: run it from your course directory (or below it), pass --dir <your course directory>, or make a new one with \`npx theinference init <dir>\`.${restore}`,
    );
  }
  const scope = await packageScope(dir);
  if (scope?.type !== 'module') throw new HarnessError('NO_PROGRAM', notAModule(dir, scope));
}

// Why program.ts would not load as an ES module, and the one command or edit that fixes it.
function notAModule(dir: string, scope: Scope | undefined): string {
  const why = 'program.ts runs as an ES module (it uses top-level await)';
  if (scope?.broken !== undefined)
    return `${why}, but ${scope.file} ${scope.unread === true ? 'cannot be read as' : 'is not valid'} JSON (${scope.broken}): fix it, with "type": "module" in it.`;
  if (scope === undefined) {
    return `${why}, but there is no package.json in ${dir} or above it: add one with { "type": "module" } to ${dir} (\`npx theinference init\` writes a course directory with one).`;
  }
  const where = dirname(scope.file) === dir ? '' : ` in ${dirname(scope.file)}`;
  const has = scope.type === undefined ? 'has no "type"' : `says "type": ${JSON.stringify(scope.type)}`;
  return `${why}, but ${scope.file} ${has}: change "type" to "module" (\`npm pkg set type=module\`${where}).`;
}

// A package.json and its "type" (or why it could not be read as JSON).
type Scope = { file: string; type: unknown; broken?: string; unread?: true };

// The nearest package.json at or above `dir` (Node's rule for whether .ts/.js files are ES modules).
async function packageScope(dir: string): Promise<Scope | undefined> {
  for (let at = dir; ; at = dirname(at)) {
    const file = join(at, 'package.json');
    const read = await readAsData(file, MAX_MANIFEST_BYTES);
    if (read === 'not regular' || read === 'too large') {
      const broken =
        read === 'too large'
          ? `it is larger than ${MAX_MANIFEST_BYTES / 1024 / 1024} MB, which the grader never reads: a course's package.json is a few hundred bytes`
          : 'it is not a regular file: a link, a FIFO or a device, which the grader never reads';
      return { file, type: undefined, broken, unread: true };
    }
    if (read !== 'missing') {
      const text = read.data.toString('utf8');
      try {
        return { file, type: (JSON.parse(text) as { type?: unknown } | null)?.type };
      } catch (error) {
        // JSON.parse quotes the text, line breaks and all: one line, so that no line of it starts a line of a CI
        // log (the CLI makes its controls visible).
        const message = error instanceof Error ? error.message : String(error);
        return { file, type: undefined, broken: message.replace(/\r?\n|\r/g, '\\n') };
      }
    }
    if (dirname(at) === at) return undefined;
  }
}
