// What `theinference init` writes: a course directory that grades at once. The course's program.ts and the
// reference tools of the earlier stages come from the package root, tsconfig.json, .gitignore and the stub
// src/execute.ts from course-template/, and package.json is made here.
import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';

// The stage the template's stub belongs to: the scripts grade it.
export const TEMPLATE_STAGE = 'register-tools';

// The packages the reference tools import (test/course/scaffold-course.test.ts checks src/tools/ against it).
export const TOOL_DEPENDENCIES = ['fast-glob'];

// Type declarations a student's editor and `npm run typecheck` need, taken at the package's own versions.
const DEV_TOOLS = ['@types/node', 'typescript'];

// One file to write, its path relative to the course directory.
export type CourseFile = { path: string; text: string };

type Manifest = {
  engines?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
};

// Every file of a new course directory named `dir`, theinference depended on as `spec`.
export async function courseFiles(root: string, options: { dir: string; spec: string }): Promise<CourseFile[]> {
  const own = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as Manifest;
  const template = (path: string): Promise<string> => readFile(join(root, 'course-template', path), 'utf8');
  const tools = (await readdir(join(root, 'src', 'tools'))).filter((f) => f.endsWith('.ts')).sort();
  return [
    { path: 'package.json', text: courseManifest(own, options) },
    { path: 'tsconfig.json', text: await template('tsconfig.json') },
    { path: '.gitignore', text: await template('gitignore') },
    { path: 'program.ts', text: await readFile(join(root, 'program.ts'), 'utf8') },
    ...(await Promise.all(
      tools.map(async (f) => ({ path: `src/tools/${f}`, text: await readFile(join(root, 'src', 'tools', f), 'utf8') })),
    )),
    { path: 'src/execute.ts', text: await template('src/execute.ts') },
  ];
}

// The course's package.json: an ES module package (program.ts uses top-level await) with the scripts that grade
// it, the tools' dependencies, and theinference from `spec`.
export function courseManifest(own: Manifest, options: { dir: string; spec: string }): string {
  const version = (name: string): string => {
    const range = own.dependencies?.[name] ?? own.devDependencies?.[name];
    if (range === undefined) throw new Error(`theinference's package.json does not list ${name}`);
    return range;
  };
  const grade = `theinference test --stage ${TEMPLATE_STAGE}`;
  const manifest = {
    name: packageName(options.dir),
    private: true,
    type: 'module',
    scripts: { test: grade, watch: `${grade} --watch`, typecheck: 'tsc --noEmit' },
    ...(own.engines === undefined ? {} : { engines: own.engines }),
    dependencies: Object.fromEntries(TOOL_DEPENDENCIES.map((name) => [name, version(name)])),
    devDependencies: sortedKeys({
      theinference: options.spec,
      ...Object.fromEntries(DEV_TOOLS.map((name) => [name, version(name)])),
    }),
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
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
