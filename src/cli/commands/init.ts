// `theinference init [dir] [--stage <slug>] [--from <spec>] [--force]`: a course directory for a stage (the course's
// first when none is named). It grades nothing: `npm test` then fails every case with the stub's message until the
// student writes it. In a course directory (a package.json that depends on theinference) it adds the stage: its
// files, and scripts that grade every stage the directory has reached, keeping the student's work and settings.
import { readFile, stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { HarnessError } from '../../errors.ts';
import { answerKeyWarning, installSpec } from '../../course/install-spec.ts';
import { gradedAfterAdding } from '../../course/reached-stages.ts';
import {
  courseFiles,
  FIRST_STAGE,
  upgradedManifest,
  type CourseFile,
  type Manifest,
} from '../../course/scaffold-course.ts';
import { packageRoot, requireStage, STAGES, type Stage } from '../../course/stages.ts';
import { writeFiles } from '../../course/write-files.ts';
import { write, type CommandIo, type Outcome } from './io.ts';
import { shellQuote } from '../../shell-quote.ts';

// The flags as commander hands them over.
export type InitFlags = { from?: string; force?: boolean; stage?: string };

// A course directory's own settings once written: adding a stage keeps them.
const SETTINGS = ['tsconfig.json', '.gitignore'];

// Writes the course directory, or nothing at all: files that exist are listed and kept unless --force.
export async function initCommand(dirArgument: string | undefined, flags: InitFlags, io: CommandIo): Promise<Outcome> {
  const root = io.root ?? packageRoot();
  const dir = resolve(io.cwd, dirArgument ?? '.');
  const stage = await requireStage(root, flags.stage ?? FIRST_STAGE);
  const present = await readExisting(dir, ['package.json']);
  const own = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as Manifest;
  const graded = await gradedAfterAdding(dir, stage);
  const earlier = graded.earlier;
  const grading = { stage, previous: earlier.length > 0, graded: graded.stage };
  const upgraded =
    present.get('package.json') === undefined
      ? undefined
      : upgradedManifest(present.get('package.json')!, own, grading);
  // A course directory keeps the install line its package.json has; a new one is given one.
  const spec = upgraded === undefined ? installSpec({ root, courseDir: dir, cwd: io.cwd, ...from(flags) }) : undefined;
  let files = await courseFiles(root, { dir, spec: spec ?? '', ...grading });
  const existing = await readExisting(
    dir,
    files.map((f) => f.path),
  );
  if (upgraded !== undefined) {
    files = files
      .map((f) => (f.path === 'package.json' ? { ...f, text: upgraded } : f))
      .filter((f) => !(SETTINGS.includes(f.path) && existing.has(f.path)));
  }
  // What is there already as init would write it is left alone, and is no reason to refuse.
  files = files.filter((f) => existing.get(f.path) !== f.text);
  const conflicts = files.filter((f) => existing.has(f.path) && !(upgraded !== undefined && f.path === 'package.json'));
  const shownConflicts = summarise(
    stage,
    conflicts.map((f) => f.path),
  );
  if (conflicts.length > 0 && flags.force !== true) {
    const them = shownConflicts.length === 1 ? 'it' : 'them';
    // --force is the one way init loses work: say so before anyone reaches for it to restore a file.
    const mine = conflicts.filter((f) => stage.writes.includes(f.path)).map((f) => f.path);
    const lost = mine.length > 0 ? ` (your ${mine.join(', ')} too: --force puts the stub in its place)` : '';
    throw new HarnessError(
      'FILES_EXIST',
      `${dir} already has ${shownConflicts.join(', ')}: init wrote nothing. Run it in an empty directory (theinference init <new dir>), or pass --force to replace ${them}${lost}.`,
    );
  }
  const shown = relative(io.cwd, dir);
  const where = shown === '' ? 'this directory' : shown;
  if (files.length === 0) {
    await write(
      io.stdout,
      `${where} has the stage ${stage.slug} already, as this theinference writes it: nothing to write.\n`,
    );
    return 'pass';
  }
  await writeFiles(dir, files).catch((error: NodeJS.ErrnoException) => {
    if (error.code === undefined) throw error;
    throw new HarnessError(
      'CANNOT_WRITE',
      `could not write the course directory ${dir} (${error.message}): init wrote nothing.`,
    );
  });
  const lines =
    upgraded === undefined
      ? newCourse(stage, files, { spec: spec ?? '', where, replaced: shownConflicts })
      : addedStage(stage, files, { graded: graded.stage, earlier, where, replaced: shownConflicts });
  const next = [
    '',
    'Next:',
    ...(shown === '' ? [] : [`  cd ${shellQuote(shown)}`]),
    '  npm install',
    `  npm run watch    # grades on every save; every case fails until ${stage.untilPass}`,
    '',
  ];
  await write(io.stdout, [...lines, ...next].join('\n'));
  // Said to whoever chose the line, once the directory is written: a course author trying the line out sees it.
  const answerKey = spec === undefined ? undefined : answerKeyWarning(spec, dir);
  if (answerKey !== undefined) await write(io.stderr, `warning: ${answerKey}\n`);
  return 'pass';
}

function from(flags: InitFlags): { from?: string } {
  return flags.from === undefined ? {} : { from: flags.from };
}

// The text of each of `paths` that exists under `dir`. Each is known to be a regular file before it is opened: a
// FIFO at one of its names would keep init waiting for a writer forever, and a device or socket is no course file.
async function readExisting(dir: string, paths: string[]): Promise<Map<string, string>> {
  const texts = await Promise.all(
    paths.map(async (p) => {
      const info = await stat(join(dir, p)).catch(() => undefined);
      if (info === undefined) return undefined;
      if (!info.isFile()) {
        throw new HarnessError(
          'FILES_EXIST',
          `${join(dir, p)} is not a regular file (a directory, a FIFO, a socket or a device), and init writes ${p} there. Move it away and run init again.`,
        );
      }
      return readFile(join(dir, p), 'utf8').catch(() => undefined);
    }),
  );
  return new Map(paths.flatMap((p, i) => (texts[i] === undefined ? [] : [[p, texts[i]!] as const])));
}

function newCourse(
  stage: Stage,
  files: CourseFile[],
  o: { spec: string; where: string; replaced: string[] },
): string[] {
  const deps = stage.dependencies.map((d) => `; ${d}`).join('');
  return [
    `Wrote a course directory for the stage ${stage.slug} in ${o.where}:`,
    `  package.json     theinference from ${o.spec}${deps}; scripts test, watch, typecheck`,
    '  tsconfig.json, .gitignore',
    '  program.ts       runs a case by hand (its first lines say how); the grader runs its own driver',
    ...stageFiles(stage, files),
    ...(o.replaced.length > 0 ? ['', `Replaced (--force): ${o.replaced.join(', ')}`] : []),
  ];
}

function addedStage(
  stage: Stage,
  files: CourseFile[],
  o: { graded: Stage; earlier: Stage[]; where: string; replaced: string[] },
) {
  const order = STAGES.findIndex((s) => s.slug === stage.slug) + 1;
  const also = o.earlier.length === 0 ? '' : `, then ${o.earlier.map((s) => s.slug).join(', ')} (--previous)`;
  const written = files.some((f) => f.path === 'package.json');
  return [
    `Added the stage ${stage.slug} ("${stage.title}", stage ${order} of ${STAGES.length}) to ${o.where}:`,
    ...(written
      ? [`  package.json     scripts test and watch grade ${o.graded.slug}${also}; dependencies added as it needs`]
      : []),
    ...(files.some((f) => f.path === 'program.ts')
      ? ['  program.ts       runs a case by hand, as this theinference has it']
      : []),
    ...stageFiles(stage, files),
    ...(o.replaced.length > 0 ? ['', `Replaced (--force): ${o.replaced.join(', ')}`] : []),
  ];
}

// The lines for what the stage provides and what the student writes, those init writes.
function stageFiles(stage: Stage, files: CourseFile[]): string[] {
  const lines: string[] = [];
  for (const { path, what } of stage.provides) {
    const count = files.filter((f) => f.path.startsWith(`${path}/`)).length;
    if (count > 0) lines.push(`  ${`${path}/`.padEnd(16)} ${what} (${count} files)`);
  }
  for (const path of stage.writes.filter((p) => files.some((f) => f.path === p))) {
    lines.push(`  ${path.padEnd(16)} yours to write: ${stage.entry} (the course page "${stage.title}")`);
  }
  return lines;
}

// A provided directory is one thing to a student: `src/tools/ (21 files)` rather than 21 paths.
function summarise(stage: Stage, paths: string[]): string[] {
  let shown = paths;
  for (const { path } of stage.provides) {
    const inside = shown.filter((p) => p.startsWith(`${path}/`));
    if (inside.length > 1) shown = [...shown.filter((p) => !inside.includes(p)), `${path}/ (${inside.length} files)`];
  }
  return shown;
}
