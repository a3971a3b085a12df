// `theinference init [dir] [--from <spec>] [--force]`: a new course directory that grades at once, every case
// failing with the stub's message until the student writes makeExecute.
import { readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { HarnessError } from '../../errors.ts';
import { installSpec } from '../../course/install-spec.ts';
import { courseFiles, TEMPLATE_STAGE } from '../../course/scaffold-course.ts';
import { packageRoot } from '../../course/stages.ts';
import { existingPaths, writeFiles } from '../../course/write-files.ts';
import { write, type CommandIo, type Outcome } from './io.ts';
import { shellQuote } from '../../shell-quote.ts';

// The one file of the course that is the student's own work.
const EXECUTE = 'src/execute.ts';

// The flags as commander hands them over.
export type InitFlags = { from?: string; force?: boolean };

// Writes the course directory, or nothing at all: files that exist are listed and kept unless --force.
export async function initCommand(dirArgument: string | undefined, flags: InitFlags, io: CommandIo): Promise<Outcome> {
  const root = io.root ?? packageRoot();
  const dir = resolve(io.cwd, dirArgument ?? '.');
  const spec = installSpec({
    root,
    courseDir: dir,
    cwd: io.cwd,
    ...(flags.from === undefined ? {} : { from: flags.from }),
  });
  const files = await courseFiles(root, { dir, spec });
  const existing = summarise(await existingPaths(dir, files));
  if (existing.length > 0 && flags.force !== true) {
    const them = existing.length === 1 ? 'it' : 'them';
    // --force is the one way init loses work: say so before anyone reaches for it to restore a file.
    const stub = files.find((f) => f.path === EXECUTE)?.text;
    const mine = await readFile(join(dir, EXECUTE), 'utf8').catch(() => undefined);
    const lost =
      mine !== undefined && mine !== stub ? ` (your ${EXECUTE} too: --force puts the stub in its place)` : '';
    throw new HarnessError(
      'FILES_EXIST',
      `${dir} already has ${existing.join(', ')}: init wrote nothing. Run it in an empty directory (theinference init <new dir>), or pass --force to replace ${them}${lost}.`,
    );
  }
  await writeFiles(dir, files).catch((error: NodeJS.ErrnoException) => {
    if (error.code === undefined) throw error;
    throw new HarnessError(
      'CANNOT_WRITE',
      `could not write the course directory ${dir} (${error.message}): init wrote nothing.`,
    );
  });
  const tools = files.filter((f) => f.path.startsWith('src/tools/')).length;
  const shown = relative(io.cwd, dir);
  const lines = [
    `Wrote a course directory for the stage ${TEMPLATE_STAGE} in ${shown === '' ? 'this directory' : shown}:`,
    `  package.json     theinference from ${spec}; the tools' dependencies; scripts test, watch, typecheck`,
    '  tsconfig.json, .gitignore',
    "  program.ts       the course's driver: the grader runs it; leave it as it is",
    `  src/tools/       the tools of the earlier stages (${tools} files)`,
    '  src/execute.ts   yours to write: makeExecute (the course page "Register the toolset")',
    ...(existing.length > 0 ? ['', `Replaced (--force): ${existing.join(', ')}`] : []),
    '',
    'Next:',
    ...(shown === '' ? [] : [`  cd ${shellQuote(shown)}`]),
    '  npm install',
    '  npm run watch    # grades on every save; every case fails until makeExecute routes the tools',
    '',
  ];
  await write(io.stdout, lines.join('\n'));
  return 'pass';
}

// The tools are one thing to a student: `src/tools/ (21 files)` rather than 21 paths.
function summarise(paths: string[]): string[] {
  const tools = paths.filter((p) => p.startsWith('src/tools/'));
  const rest = paths.filter((p) => !p.startsWith('src/tools/'));
  return tools.length < 2 ? paths : [...rest, `src/tools/ (${tools.length} files)`];
}
