// The lanes of the suite (test/support/lanes.ts): each test file in exactly one, none left out, and a file's lane
// decided by what it imports, as a table of small made-up trees.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANES, laneOf, lanes, testFiles } from './support/lanes.ts';
import config from '../vitest.config.ts';

describe('the suite', () => {
  it('puts every test file in exactly one lane of vitest.config.ts, and leaves none out', () => {
    const projects = (config.test?.projects ?? []) as { test: { name: string; include: string[] } }[];
    expect(projects.map((p) => p.test.name).sort()).toEqual([...LANES].sort());
    const all = projects.flatMap((p) => p.test.include);
    expect([...all].sort()).toEqual(testFiles());
    expect(new Set(all).size).toBe(all.length);
  });

  it('keeps the unit lane at the pure tests and the hostile lane at the hostile fixtures', () => {
    const lane = lanes();
    expect(lane.unit).toContain('test/lanes.test.ts');
    expect(lane.unit).toContain('test/grade/run/batch-machine.test.ts');
    expect(lane.e2e).toContain('test/cli/bin.test.ts');
    expect(lane.hostile).toContain('test/grade/run/isolation/hostile-snapshots.test.ts');
  });
});

// The made-up files' import lines, built so that this file's own text holds none (lanes.ts reads it too).
const IMPORT = 'import';
const from = (names: string, specifier: string): string => `${IMPORT} { ${names} } from '${specifier}';\n`;

describe('laneOf', () => {
  let root = '';
  const tree: Record<string, string> = {
    'src/pure.ts': 'export const one = 1;\n',
    'src/spawns.ts': `${from('spawn', 'node:child_process')}export const run = () => spawn('true');\n`,
    'src/through.ts': "export { run } from './spawns.ts';\n",
    'src/cycle-a.ts': `${from('b', './cycle-b.ts')}export const a = () => b;\n`,
    'src/cycle-b.ts': `${from('a', './cycle-a.ts')}${IMPORT} './spawns.ts';\nexport const b = () => a;\n`,
    'src/loads.ts': `export const load = (path: string) => ${IMPORT}(path);\n`,
    'test/fixtures/hostile-reads-secrets/program.ts': '',
    'test/pure.test.ts': from('one', '../src/pure.ts'),
    'test/execa.test.ts': from('execa', 'execa'),
    'test/through.test.ts': from('run', '../src/through.ts'),
    'test/cycle.test.ts': from('a', '../src/cycle-a.ts'),
    'test/loads.test.ts': from('load', '../src/loads.ts'),
    'test/lazy.test.ts': `const { one } = await ${IMPORT}('../src/pure.ts');\n`,
    'test/hostile.test.ts': `${from('execa', 'execa')}const FIXTURE = 'hostile-reads-secrets';\n`,
    'test/hostile-in-name-only.test.ts': `${from('one', '../src/pure.ts')}const FIXTURE = 'hostile-reads-secrets';\n`,
    'test/unknown-fixture.test.ts': `${from('execa', 'execa')}const FIXTURE = 'hostile-not-a-fixture';\n`,
  };

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'theinference-lanes-'));
    for (const [path, text] of Object.entries(tree)) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), text);
    }
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it.each([
    ['test/pure.test.ts', 'unit', 'imports only pure modules'],
    ['test/execa.test.ts', 'e2e', 'imports execa itself'],
    ['test/through.test.ts', 'e2e', 'reaches node:child_process through a re-export'],
    ['test/cycle.test.ts', 'e2e', 'reaches it inside an import cycle'],
    ['test/loads.test.ts', 'e2e', 'imports a module that loads code by a computed path'],
    ['test/lazy.test.ts', 'unit', 'imports a pure module by a literal dynamic import'],
    ['test/hostile.test.ts', 'hostile', 'starts processes and names a hostile fixture'],
    ['test/hostile-in-name-only.test.ts', 'unit', 'names a hostile fixture but starts nothing'],
    ['test/unknown-fixture.test.ts', 'e2e', 'names no hostile fixture that exists'],
  ])('%s is %s: it %s', (file, lane) => {
    expect(laneOf(file, root)).toBe(lane);
  });
});
