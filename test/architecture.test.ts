// The house as docs/architecture.md draws it: each room imports only the rooms below it. A file's room is the
// longest prefix of its path in ROOMS; an import into a higher room fails here, named, with both files.
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STAGES } from '../src/course/stages.ts';

const ROOT = join(import.meta.dirname, '..');

// Bottom first. Files and folders on one line are one floor: they may import each other. A `*` stands for one
// folder's name: a mode's folder (src/modes/<mode>/) spans floors, each aspect of it on the floor of its kind.
const ROOMS: string[][] = [
  // The one table of driver modes (their names, where each aspect of a mode's folder is) among the words every room uses.
  [
    'src/errors.ts',
    'src/shell-quote.ts',
    'src/unseen-characters.ts',
    'src/process-table.ts',
    'src/modes/mode-table.ts',
  ],
  ['src/tools/'],
  // The student-facing types and each stage's reference module (its row's first file: src/course/stages.ts).
  [
    'src/contract.ts',
    'src/loop-request.ts',
    ...STAGES.map((s) => s.writes[0]!),
    'src/compact-contract.ts',
    'src/index.ts',
  ],
  ['src/course/'],
  // The driver: every program process runs it, beside the student's modules. A mode's case type
  // (src/modes/<mode>/case.ts) is here too, above src/course/: the course's code holds a case as the shared CaseData.
  ['src/modes/'],
  // The verdict vocabulary that judges and reporters share.
  ['src/grade/types.ts'],
  // A mode's serve aspect is the grader's side of its program processes.
  ['src/grade/run/', 'src/modes/*/serve.ts'],
  ['src/grade/judge/', 'src/modes/*/judge.ts', 'src/modes/*/judge/'],
  ['src/grade/report/'],
  ['src/grade/', 'src/modes/*/variants.ts', 'src/modes/*/variants/', 'src/modes/*/audit.ts'],
  // The recorder's own vocabulary, then its pipeline, step by step.
  ['src/record/types.ts', 'src/record/record-types.ts'],
  ['src/record/formats/'],
  ['src/record/map/'],
  ['src/record/seed/'],
  ['src/record/replay/'],
  ['src/record/write/'],
  ['src/record/', 'src/modes/*/record/'],
  ['src/record/live/'],
  ['src/record/index.ts'],
  ['src/cli/', 'src/modes/*/record-command.ts'],
  // What the compiler checks of each mode's folder: it names every aspect's type, the recorder's included.
  ['src/modes/aspect-types.ts', 'src/modes/*/aspects.ts'],
];

function roomOf(path: string): { prefix: string; floor: number } | undefined {
  let best: { prefix: string; floor: number } | undefined;
  ROOMS.forEach((floor, i) => {
    for (const prefix of floor) {
      const inside = matches(path, prefix);
      if (inside && (best === undefined || prefix.length > best.prefix.length)) best = { prefix, floor: i };
    }
  });
  return best;
}

// Whether `path` is the file `prefix` names, or lies in the folder it names; `*` matches one folder name.
function matches(path: string, prefix: string): boolean {
  const pattern = prefix.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${pattern.join('[^/]+')}${prefix.endsWith('/') ? '' : '$'}`).test(path);
}

// A mode's aspect reached by its name (src/modes/mode-table.ts): an import of that aspect of every mode's folder.
const ASPECT_IMPORT = /\bimport\(\s*aspectUrl\([^,()]*,\s*'([\w-]+)'\)\.href\s*\)/g;

// Every relative import and re-export of a file, static or dynamic, as a path from the repository root; an aspect
// reached by a mode's name is an import of that aspect of each folder in `modes`.
function importsOf(file: string, source: string, modes: string[] = []): string[] {
  const specs = [
    ...source.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+'(\.[^']+)'/gm),
    ...source.matchAll(/^\s*import\s+'(\.[^']+)'/gm),
    ...source.matchAll(/\bimport\(\s*'(\.[^']+)'\s*\)/g),
  ].map((m) => m[1]!);
  const aspects = [...source.matchAll(ASPECT_IMPORT)].flatMap((m) =>
    modes.map((mode) => `src/modes/${mode}/${m[1]}.ts`),
  );
  return [...specs.map((spec) => normalize(join(dirname(file), spec))), ...aspects];
}

// The folders of src/modes/: one per mode.
async function modeFolders(): Promise<string[]> {
  const entries = await readdir(join(ROOT, 'src/modes'), { withFileTypes: true });
  return entries.filter((e) => e.isDirectory()).map((e) => e.name);
}

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(join(ROOT, dir), { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)))
    .sort();
}

describe('the rooms of src/', () => {
  it('places every source file in a room', async () => {
    const homeless = (await sourceFiles('src')).filter((f) => roomOf(f) === undefined);
    expect(homeless).toEqual([]);
  });

  it('has no room import a room above it', async () => {
    const upward: string[] = [];
    const modes = await modeFolders();
    for (const file of await sourceFiles('src')) {
      const from = roomOf(file)!;
      for (const target of importsOf(file, await readFile(join(ROOT, file), 'utf8'), modes)) {
        const to = roomOf(target);
        if (to !== undefined && to.floor > from.floor)
          upward.push(`${file} (${from.prefix}) imports ${target} (${to.prefix})`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('reaches an aspect by a mode name only as the imports above read it', async () => {
    const loose: string[] = [];
    for (const file of await sourceFiles('src')) {
      if (file === 'src/modes/mode-table.ts') continue;
      const source = await readFile(join(ROOT, file), 'utf8');
      const calls = source.match(/\baspectUrl\(/g)?.length ?? 0;
      if (calls !== [...source.matchAll(ASPECT_IMPORT)].length) loose.push(file);
    }
    expect(loose).toEqual([]);
    const source = "const { judge } = await import(aspectUrl(mode, 'judge').href);";
    expect(importsOf('src/grade/report/x.ts', source, ['a', 'b'])).toEqual([
      'src/modes/a/judge.ts',
      'src/modes/b/judge.ts',
    ]);
    expect(roomOf('src/modes/a/record-command.ts')!.floor).toBeGreaterThan(roomOf('src/grade/report/x.ts')!.floor);
  });

  it('reads the imports an upward one would be written with', () => {
    const source = [
      "import { a } from '../run-stage.ts';",
      "import type { B } from './b.ts';",
      "export { c } from '../../cli/c.ts';",
      "const d = await import('../report/d.ts');",
      "import './side-effect.ts';",
    ].join('\n');
    expect(importsOf('src/grade/judge/x.ts', source)).toEqual([
      'src/grade/run-stage.ts',
      'src/grade/judge/b.ts',
      'src/cli/c.ts',
      'src/grade/judge/side-effect.ts',
      'src/grade/report/d.ts',
    ]);
    expect(roomOf('src/grade/run-stage.ts')!.floor).toBeGreaterThan(roomOf('src/grade/judge/x.ts')!.floor);
  });

  it("puts each aspect of a mode's folder on the floor of its kind", () => {
    const floor = (path: string) => roomOf(path)!.floor;
    expect(floor('src/modes/echo/driver.ts')).toBe(floor('src/modes/driver.ts'));
    expect(floor('src/modes/echo/judge.ts')).toBe(floor('src/grade/judge/judge-case.ts'));
    expect(floor('src/modes/echo/judge/hints.ts')).toBe(floor('src/grade/judge/judge-case.ts'));
    expect(floor('src/modes/echo/variants.ts')).toBe(floor('src/grade/run-stage.ts'));
    expect(floor('src/modes/echo/record/cases.ts')).toBe(floor('src/record/record-transcripts.ts'));
    expect(floor('src/modes/echo/record-command.ts')).toBe(floor('src/cli/main.ts'));
    expect(floor('src/modes/echo/case.ts')).toBe(floor('src/modes/driver.ts'));
    expect(floor('src/modes/echo/case.ts')).toBeGreaterThan(floor('src/course/types.ts'));
    expect(floor('src/modes/echo/aspects.ts')).toBeGreaterThan(floor('src/modes/echo/record-command.ts'));
    // A folder named like an aspect deeper down is not one: the `*` is one folder's name.
    expect(floor('src/modes/echo/x/judge.ts')).toBe(floor('src/modes/driver.ts'));
  });
});
