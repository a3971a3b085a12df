// A warm standby, as a real process on a small course: it loads its warm modules before the work arrives, and when
// the work comes, each module whose file changed since, and each module importing one, is evaluated afresh, while
// every other module keeps the instance it has. Each row saves something after the standby has warmed up, then
// hands it its work, and reads which modules were evaluated (in order) and the value the program saw.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { STAGES } from '../../../src/course/stages.ts';
import { tsxLoaderUrl } from '../../../src/grade/run/program-process.ts';
import { driverArgs } from '../../../src/modes/driver-files.ts';

const STANDBY = fileURLToPath(new URL('../../../src/grade/run/standby.ts', import.meta.url));

// Each module notes its evaluation; a.ts also says so in a file, which tells the test that warming is over.
const COURSE: Record<string, string> = {
  'package.json': '{ "type": "module" }\n',
  // A driver as the package's is to a standby: a module whose `preload` it awaits while it waits, and whose `main` it
  // runs once the work comes.
  'driver.ts': [
    "import { createInterface } from 'node:readline';",
    "export const NAME = 'driver';",
    'export async function preload(_mode: string) {}',
    'export async function main(argv: string[]) {',
    '  for await (const _ of createInterface({ input: process.stdin }));',
    "  const { value } = await import('./src/a.ts');",
    '  process.stdout.write(`${JSON.stringify({ evals: (globalThis as any).evals, argv, value })}\\n`);',
    '  return 0;',
    '}',
  ].join('\n'),
  'src/a.ts': [
    "import { appendFileSync } from 'node:fs';",
    "import { b } from './b.ts';",
    "((globalThis as any).evals ??= []).push('a');",
    "appendFileSync(new URL('../warmed', import.meta.url), 'a');",
    'export const value = `a1+${b}`;',
  ].join('\n'),
  'src/b.ts': "((globalThis as any).evals ??= []).push('b');\nexport const b = 'b1';\n",
  'src/c.ts': "((globalThis as any).evals ??= []).push('c');\n",
};

// The same course, with a.ts also requiring a CommonJS file.
const REQUIRING: Record<string, string> = {
  ...COURSE,
  'src/a.ts': COURSE['src/a.ts']!.replace(
    "import { b } from './b.ts';",
    "import { b as bee } from './b.ts';\nimport { createRequire } from 'node:module';\nconst b = `${bee}+${createRequire(import.meta.url)('./d.cjs')}`;",
  ),
  'src/d.cjs': "((globalThis).evals ??= []).push('d');\nmodule.exports = 'd1';\n",
};

let dir: string | undefined;
afterEach(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function makeCourse(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'theinference-standby-'));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return root;
}

// Starts a standby warming `warm`, waits until a.ts has been evaluated, makes the save, gives it its work and
// returns what its program printed.
async function afterSave(
  course: Record<string, string>,
  save: Record<string, string>,
  warm = ['./src/a.ts'],
  args = ['dispatch'],
): Promise<{ evals: string[]; value: string }> {
  dir = await makeCourse(course);
  const child = spawn(
    process.execPath,
    ['--import', tsxLoaderUrl(), STANDBY, join(dir, 'driver.ts'), ...args, ...warm],
    {
      cwd: dir,
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise((done) => child.once('exit', done));
  try {
    for (let waited = 0; !existsSync(join(dir, 'warmed')); waited += 20) {
      if (waited > 20_000) throw new Error('the standby never warmed up');
      await new Promise((r) => setTimeout(r, 20));
    }
    for (const [path, text] of Object.entries(save)) await writeFile(join(dir, path), text);
    child.stdin.end('{"calls":[]}\n');
    await exited;
  } finally {
    child.kill();
  }
  const { argv, ...seen } = JSON.parse(out) as { evals: string[]; argv: string[]; value: string };
  // The driver runs its mode (and stage) on the cases from stdin, as `<driver> dispatch -` would.
  expect(argv).toEqual([...args, '-']);
  return seen;
}

describe('a warm standby', () => {
  it.each<[string, Record<string, string>, string[], string]>([
    ['nothing saved: every module as it was warmed', {}, ['b', 'a'], 'a1+b1'],
    [
      'a file no warm module loaded: nothing evaluated again',
      { 'src/c.ts': "((globalThis as any).evals ??= []).push('c2');\n" },
      ['b', 'a'],
      'a1+b1',
    ],
    [
      'the module a warm module imports: it and its importer evaluated afresh, in order',
      { 'src/b.ts': "((globalThis as any).evals ??= []).push('b');\nexport const b = 'b2';\n" },
      ['b', 'a', 'b', 'a'],
      'a1+b2',
    ],
    [
      'the warm module itself: only it, what it imports kept',
      { 'src/a.ts': `${COURSE['src/a.ts']!.replace('a1+', 'a2+')}\n` },
      ['b', 'a', 'a'],
      'a2+b1',
    ],
  ])('%s', async (_, save, evals, value) => {
    expect(await afterSave(COURSE, save)).toEqual({ evals, value });
  });

  it('runs the driver on the stage it was started for, its warm modules after it', async () => {
    const args = driverArgs(STAGES[0]!.slug);
    expect(args).toEqual([STAGES[0]!.mode, '--stage', STAGES[0]!.slug]);
    expect(await afterSave(COURSE, {}, ['./src/a.ts'], args)).toEqual({ evals: ['b', 'a'], value: 'a1+b1' });
  });

  it('sends what a warm module prints while it loads to stderr, as the driver does: stdout holds only results', async () => {
    const course = { ...COURSE, 'src/b.ts': `console.log('b loaded');\n${COURSE['src/b.ts']}` };
    expect(await afterSave(course, {})).toEqual({ evals: ['b', 'a'], value: 'a1+b1' });
  });

  it('loads a course whose modules use require() afresh whole, since require keeps its own cache', async () => {
    const save = { 'src/d.cjs': "((globalThis).evals ??= []).push('d');\nmodule.exports = 'd2';\n" };
    expect(await afterSave(REQUIRING, save)).toEqual({ evals: ['b', 'd', 'a', 'b', 'd', 'a'], value: 'a1+b1+d2' });
  });

  it('gives a warm module that imports the driver the instance the driver runs from', async () => {
    const course = {
      ...COURSE,
      'src/b.ts':
        "import { NAME } from '../driver.ts';\n((globalThis as any).evals ??= []).push('b');\nexport const b = NAME;\n",
    };
    expect(await afterSave(course, {})).toEqual({ evals: ['b', 'a'], value: 'a1+driver' });
  });

  it('loads the driver ahead, after the warm modules, and evaluates it once', async () => {
    const course = {
      ...COURSE,
      'driver.ts': `((globalThis as any).evals ??= []).push('p');\n${COURSE['driver.ts']}`,
    };
    expect(await afterSave(course, {})).toEqual({ evals: ['b', 'a', 'p'], value: 'a1+b1' });
  });

  it("leaves the driver compiled in tsx's cache while it waits", async () => {
    dir = await makeCourse(COURSE);
    const tmp = join(dir, 'tmp');
    await mkdir(tmp);
    const child = spawn(
      process.execPath,
      ['--import', tsxLoaderUrl(), STANDBY, join(dir, 'driver.ts'), 'dispatch', './src/a.ts'],
      {
        cwd: dir,
        env: { ...process.env, TMPDIR: tmp },
        stdio: ['pipe', 'ignore', 'inherit'],
      },
    );
    const exited = new Promise((done) => child.once('exit', done));
    try {
      // Each entry names the file it was compiled from in its source map.
      const compiled = async (): Promise<boolean> => {
        const cache = (await readdir(tmp)).find((name) => name.startsWith('tsx-'));
        if (cache === undefined) return false;
        const entries = await readdir(join(tmp, cache));
        const texts = await Promise.all(entries.map((e) => readFile(join(tmp, cache, e), 'utf8').catch(() => '')));
        return texts.some((text) => text.includes(`${JSON.stringify(join(dir!, 'driver.ts'))}]`));
      };
      for (let waited = 0; !(await compiled()); waited += 20) {
        if (waited > 20_000) throw new Error('the driver was never compiled ahead');
        await new Promise((r) => setTimeout(r, 20));
      }
      child.stdin.end('');
      await exited;
    } finally {
      child.kill();
    }
  });

  it('loads a module afresh that failed while it warmed, once what it imports is there', async () => {
    // a.ts cannot load while b.ts is missing (as when the grader rewrites the sandbox's copy of the course);
    // m.ts, warmed after it, says that warming is over.
    const { 'src/b.ts': b, ...rest } = COURSE;
    const course = {
      ...rest,
      'src/a.ts': COURSE['src/a.ts']!.replace("appendFileSync(new URL('../warmed', import.meta.url), 'a');", ''),
      'src/m.ts':
        "import { appendFileSync } from 'node:fs';\nappendFileSync(new URL('../warmed', import.meta.url), 'm');\n",
    };
    expect(await afterSave(course, { 'src/b.ts': b! }, ['./src/a.ts', './src/m.ts'])).toEqual({
      evals: ['b', 'a'],
      value: 'a1+b1',
    });
  });

  it('leaves a warm module that fails to load to fail again when the driver imports it', async () => {
    const broken = { ...COURSE, 'src/b.ts': 'export const b = ;\n' };
    dir = await makeCourse(broken);
    const child = spawn(
      process.execPath,
      ['--import', tsxLoaderUrl(), STANDBY, join(dir, 'driver.ts'), 'dispatch', './src/a.ts'],
      {
        cwd: dir,
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.stdin.end('{"calls":[]}\n');
    const code = await new Promise((done) => child.once('exit', done));
    expect(code).not.toBe(0);
    expect(err).toMatch(/b\.ts/);
  });
});
