// What `theinference init --stage <slug>` writes: a course directory for the stage, whose stub fails every case
// until the student writes it. The course's program.ts and what the stage provides (the reference tools of earlier
// lessons) come from the package root, tsconfig.json, .gitignore and the stub of each file the student writes from
// course-template/, and package.json is made here, or brought up to the stage in a course directory that has one.
import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { STAGES, type Stage } from './stages.ts';

// The stage `init` writes when none is named: the first of the course.
export const FIRST_STAGE = STAGES[0]!.slug;

// Type declarations a student's editor and `npm run typecheck` need, taken at the package's own versions.
const DEV_TOOLS = ['@types/node', 'typescript'];

// One file to write, its path relative to the course directory.
export type CourseFile = { path: string; text: string };

export type Manifest = {
  engines?: Record<string, string>;
  allowScripts?: Record<string, boolean>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
};

// How a course's package.json grades: the stage added (its dependencies), the stage its scripts grade (`graded`,
// when a later one is there already, else the stage), and whether the stages before that are graded too
// (`--previous`).
export type Grading = { stage: Stage; previous: boolean; graded?: Stage };

// Every file of a new course directory named `dir` at `stage`, theinference depended on as `spec`.
export async function courseFiles(
  root: string,
  options: { dir: string; spec: string; stage: Stage; previous?: boolean; graded?: Stage },
): Promise<CourseFile[]> {
  const own = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as Manifest;
  const template = (path: string): Promise<string> => readFile(join(root, 'course-template', path), 'utf8');
  const grading = {
    stage: options.stage,
    previous: options.previous === true,
    ...(options.graded === undefined ? {} : { graded: options.graded }),
  };
  const provided = await Promise.all(options.stage.provides.map(({ path }) => packageFiles(root, path)));
  return [
    { path: 'package.json', text: courseManifest(own, { dir: options.dir, spec: options.spec, ...grading }) },
    { path: 'tsconfig.json', text: await template('tsconfig.json') },
    { path: '.gitignore', text: await template('gitignore') },
    { path: 'program.ts', text: await readFile(join(root, 'program.ts'), 'utf8') },
    ...provided.flat(),
    ...(await Promise.all(options.stage.writes.map(async (path) => ({ path, text: await template(path) })))),
  ];
}

// The .ts files of a directory of the package, sorted.
async function packageFiles(root: string, dir: string): Promise<CourseFile[]> {
  const names = (await readdir(join(root, dir))).filter((f) => f.endsWith('.ts')).sort();
  return Promise.all(
    names.map(async (f) => ({ path: `${dir}/${f}`, text: await readFile(join(root, dir, f), 'utf8') })),
  );
}

// The course's package.json: an ES module package (program.ts uses top-level await) with the scripts that grade
// it, the stage's dependencies, and theinference from `spec`.
export function courseManifest(own: Manifest, options: { dir: string; spec: string } & Grading): string {
  const manifest = {
    name: packageName(options.dir),
    private: true,
    type: 'module',
    scripts: { ...gradingScripts(options), typecheck: 'tsc --noEmit' },
    ...(own.engines === undefined ? {} : { engines: own.engines }),
    dependencies: Object.fromEntries(options.stage.dependencies.map((name) => [name, version(own, name)])),
    devDependencies: sortedKeys({
      theinference: options.spec,
      ...Object.fromEntries(DEV_TOOLS.map((name) => [name, version(own, name)])),
    }),
    // npm 11 lists install scripts nobody reviewed, and npm 12 skips them: the course's reviewed ones, as
    // theinference's own package.json has them (esbuild's postinstall checks the compiler tsx runs on).
    ...(own.allowScripts === undefined ? {} : { allowScripts: own.allowScripts }),
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

// A course directory's package.json brought up to a stage: its scripts grade the stage, and it depends on the
// stage's packages too; everything else (theinference's spec, the student's own additions) stays. Undefined when
// the text is not a course's package.json (no theinference in it).
export function upgradedManifest(text: string, own: Manifest, grading: Grading): string | undefined {
  let manifest: Record<string, unknown> & Manifest & { scripts?: Record<string, string> };
  try {
    manifest = JSON.parse(text) as typeof manifest;
  } catch {
    return undefined;
  }
  const declared = { ...manifest.dependencies, ...manifest.devDependencies };
  if (manifest === null || typeof manifest !== 'object' || declared.theinference === undefined) return undefined;
  const added = grading.stage.dependencies.filter((name) => declared[name] === undefined);
  const upgraded = {
    ...manifest,
    scripts: { ...manifest.scripts, ...gradingScripts(grading) },
    dependencies: sortedKeys({
      ...manifest.dependencies,
      ...Object.fromEntries(added.map((name) => [name, version(own, name)])),
    }),
  };
  return `${JSON.stringify(upgraded, null, 2)}\n`;
}

// `npm test` and `npm run watch`: the stage, and the stages before it with `previous`.
function gradingScripts({ stage, previous, graded }: Grading): { test: string; watch: string } {
  const grade = `theinference test --stage ${(graded ?? stage).slug}${previous ? ' --previous' : ''}`;
  return { test: grade, watch: `${grade} --watch` };
}

function version(own: Manifest, name: string): string {
  const range = own.dependencies?.[name] ?? own.devDependencies?.[name];
  if (range === undefined) throw new Error(`theinference's package.json does not list ${name}`);
  return range;
}

// npm sorts dependencies by name; so do we, so that its first install changes nothing.
function sortedKeys(record: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : 1)));
}

// npm's rules for a name: lowercase, no spaces, URL-safe; the directory's name where it can be.
function packageName(dir: string): string {
  const name = basename(dir)
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+/, '');
  return name === '' ? 'course' : name;
}
