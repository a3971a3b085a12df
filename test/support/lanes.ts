// Which lane each test file runs in, computed from what it imports, so that a new test lands in its lane without
// anyone keeping a list (vitest.config.ts builds its projects from this; test/lanes.test.ts holds it complete):
// - `unit`: nothing the file imports, followed through test/, src/, bin/ and program.ts, can start a process (no
//   module on the way imports execa or node:child_process). Runs in threads without isolation, and its setup
//   (test/support/no-processes.ts) fails any test that starts a process after all.
// - `hostile`: not unit, and grades a hostile program, a fixture in test/fixtures/hostile-*.
// - `e2e`: every other test: real processes, the real binary, the sandbox.
// Hand-written over a module-graph library: a regex over import lines and a walk is all it takes, and the config
// must load before any TypeScript tooling does.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export const LANES = ['unit', 'e2e', 'hostile'] as const;
export type Lane = (typeof LANES)[number];

// Modules that start processes when used (playwright-core starts a browser).
const SPAWNS = new Set(['execa', 'child_process', 'node:child_process', 'playwright-core']);
// An `import()` of a path computed at run time (program.ts loading a course's code): what it loads is not known
// here, so the module counts as one that may start a process.
const COMPUTED_IMPORT = /\bimport\(\s*(?!['"`\s])|\bimport\(\s*`[^`]*\$\{/;
// A driver mode's aspect reached by the mode's name (`import(aspectUrl(name, 'judge').href)`,
// src/modes/mode-table.ts): not a path computed from anything a test gives, but the file of that aspect in every
// mode's folder, followed as a literal import of each.
const ASPECT_IMPORT = /\bimport\(\s*aspectUrl\([^,()]*,\s*'([\w-]+)'\)\.href\s*\)/g;
// `import … from '…'`, `export … from '…'`, `import '…'` and `import('…')` with a literal specifier.
const IMPORT =
  /(?:^|[\s;])(?:import|export)\s(?:[^'";]*?\sfrom\s*)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm;

const ROOT = resolve(import.meta.dirname, '..', '..');

// A module's code without its whole-line comments, which may well speak of imports.
function code(file: string): string {
  return readFileSync(file, 'utf8').replace(/^\s*(\/\/.*|\/?\*.*)$/gm, '');
}

function specifiers(file: string): string[] {
  const text = code(file);
  const modes = join(ROOT, 'src', 'modes');
  const aspects = [...text.matchAll(ASPECT_IMPORT)].flatMap((m) =>
    readdirSync(modes, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => `./${relative(dirname(file), join(modes, e.name, `${m[1]}.ts`))}`),
  );
  const literal = [...text.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? '').filter((s) => s !== '');
  return [...literal, ...aspects];
}

function resolveRelative(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  return [base, `${base}.ts`, `${base}.js`, join(base, 'index.ts')].find((p) => existsSync(p) && statSync(p).isFile());
}

// Whether a module, or anything it imports through relative paths, imports a module that starts processes: the
// graph is read once, and "spawns" is carried back from each module that imports one along the edges into it.
export function makeSpawnCheck(): (file: string) => boolean {
  const importers = new Map<string, string[]>();
  const spawning = new Set<string>();
  const read = new Set<string>();
  const visit = (start: string): void => {
    const queue = [start];
    while (queue.length > 0) {
      const file = queue.pop() as string;
      if (read.has(file)) continue;
      read.add(file);
      if (COMPUTED_IMPORT.test(code(file).replace(ASPECT_IMPORT, ''))) spawning.add(file);
      for (const specifier of specifiers(file)) {
        if (SPAWNS.has(specifier)) spawning.add(file);
        if (!specifier.startsWith('.')) continue;
        const next = resolveRelative(file, specifier);
        if (next === undefined) continue;
        importers.set(next, [...(importers.get(next) ?? []), file]);
        queue.push(next);
      }
    }
    const back = [...spawning];
    while (back.length > 0) {
      for (const importer of importers.get(back.pop() as string) ?? []) {
        if (spawning.has(importer)) continue;
        spawning.add(importer);
        back.push(importer);
      }
    }
  };
  return (file) => {
    const path = resolve(file);
    visit(path);
    return spawning.has(path);
  };
}

// The hostile fixtures a test file names (`'hostile-reads-snapshots'`), of those test/fixtures/ holds.
function hostileFixtures(file: string, root: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...new Set(text.match(/hostile-[a-z0-9-]+/g) ?? [])].filter((name) =>
    existsSync(join(root, 'test', 'fixtures', name)),
  );
}

// Every test file under test/, relative to the root, sorted.
export function testFiles(root = ROOT): string[] {
  return readdirSync(join(root, 'test'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts') && !f.startsWith('fixtures/'))
    .map((f) => join('test', f))
    .sort();
}

// Each test file's lane, by the rules above.
export function laneOf(file: string, root = ROOT, spawns = makeSpawnCheck()): Lane {
  const path = resolve(root, file);
  if (!spawns(path)) return 'unit';
  return hostileFixtures(path, root).length > 0 ? 'hostile' : 'e2e';
}

// The test files of every lane.
export function lanes(root = ROOT): Record<Lane, string[]> {
  const spawns = makeSpawnCheck();
  const out: Record<Lane, string[]> = { unit: [], e2e: [], hostile: [] };
  for (const file of testFiles(root)) out[laneOf(file, root, spawns)].push(relative(root, resolve(root, file)));
  return out;
}
