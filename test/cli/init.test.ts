// `theinference init`: a course directory in one command, never over a file that is there.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliInProcess } from '../support/cli-in-process.ts';
import { unknownStage } from '../support/stage-lists.ts';
import { earlierStages, STAGES } from '../../src/course/stages.ts';

let root: string;
let tarball: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'theinference-init-'));
  tarball = join(root, 'theinference-0.1.0.tgz');
  await writeFile(tarball, '');
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const cli = (argv: string[], cwd = root) => cliInProcess(argv, cwd);
// init for the stage register-tools.
const initTools = (args: string[], cwd = root) => cli(['init', '--stage', 'register-tools', ...args], cwd);

const listing = async (dir: string) => (await readdir(dir, { recursive: true })).sort();

describe('theinference init', () => {
  it('writes the course directory, names where theinference comes from, and prints the next commands', async () => {
    const { code, stdout, stderr } = await initTools(['my-course', '--from', './theinference-0.1.0.tgz']);
    expect([code, stderr]).toEqual([0, '']);
    const dir = join(root, 'my-course');
    const files = await listing(dir);
    expect(files).toEqual(
      expect.arrayContaining([
        '.gitignore',
        'package.json',
        'program.ts',
        'src/execute.ts',
        'src/tools/index.ts',
        'tsconfig.json',
      ]),
    );
    const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as {
      type: string;
      devDependencies: Record<string, string>;
      allowScripts: Record<string, boolean>;
    };
    expect(manifest.type).toBe('module');
    expect(manifest.devDependencies.theinference).toBe('file:../theinference-0.1.0.tgz');
    // esbuild's install script reviewed, as in theinference's own package.json: npm 11 does not warn of it.
    expect(manifest.allowScripts).toEqual({ esbuild: true });
    expect(stdout).toContain('theinference from file:../theinference-0.1.0.tgz');
    expect(stdout.split('\n').slice(-5)).toEqual([
      'Next:',
      '  cd my-course',
      '  npm install',
      expect.stringMatching(/^ {2}npm run watch /),
      '',
    ]);
  });

  it('writes into the working directory when no directory is named', async () => {
    const dir = join(root, 'here');
    await mkdir(dir);
    const { code, stdout } = await initTools(['--from', tarball], dir);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Wrote a course directory for the stage register-tools in this directory:/);
    expect(stdout).not.toContain('  cd ');
    expect(await listing(dir)).toContain('src/execute.ts');
  });

  it('writes nothing when a file is there, names the files, and says how to replace them', async () => {
    const dir = join(root, 'taken');
    await mkdir(join(dir, 'src'), { recursive: true });
    await writeFile(join(dir, 'package.json'), '{ "type": "commonjs" }\n');
    await writeFile(join(dir, 'src', 'execute.ts'), '// my work\n');
    const { code, stdout, stderr } = await initTools(['taken', '--from', tarball]);
    expect([code, stdout]).toEqual([2, '']);
    expect(stderr).toBe(
      `error: ${dir} already has package.json, src/execute.ts: init wrote nothing. Run it in an empty directory (theinference init <new dir>), or pass --force to replace them (your src/execute.ts too: --force puts the stub in its place).\n`,
    );
    expect(await listing(dir)).toEqual(['package.json', 'src', 'src/execute.ts']);
    expect(await readFile(join(dir, 'src', 'execute.ts'), 'utf8')).toBe('// my work\n');
  });

  it('does not warn of losing src/execute.ts when it is still the stub', async () => {
    const dir = join(root, 'fresh');
    await mkdir(dir);
    await writeFile(join(dir, 'package.json'), '{ "type": "module" }\n');
    expect((await initTools(['fresh', '--from', tarball, '--force'])).code).toBe(0);
    await writeFile(join(dir, 'package.json'), '{ "type": "module" }\n');
    await writeFile(join(dir, 'program.ts'), '// edited\n');
    const { code, stderr } = await initTools(['fresh', '--from', tarball]);
    expect(code).toBe(2);
    expect(stderr).toBe(
      `error: ${dir} already has package.json, program.ts: init wrote nothing. Run it in an empty directory (theinference init <new dir>), or pass --force to replace them.\n`,
    );
  });

  it('writes nothing, and says so, in a course directory that has the stage as init writes it', async () => {
    expect((await initTools(['again', '--from', tarball])).code).toBe(0);
    const { code, stdout } = await initTools(['again', '--from', tarball]);
    expect([code, stdout]).toEqual([
      0,
      'again has the stage register-tools already, as this theinference writes it: nothing to write.\n',
    ]);
  });

  it('replaces files with --force, and says which', async () => {
    const dir = join(root, 'taken');
    await mkdir(dir);
    await writeFile(join(dir, 'package.json'), '{ "type": "commonjs" }\n');
    const { code, stdout } = await initTools(['taken', '--force', '--from', tarball]);
    expect(code).toBe(0);
    expect(stdout).toContain('\nReplaced (--force): package.json\n');
    expect(JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'))).toMatchObject({ type: 'module' });
  });

  it('refuses a registry name for theinference and writes nothing', async () => {
    const { code, stderr } = await cli(['init', 'c', '--from', 'theinference@latest']);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /^error: 'theinference@latest' \(--from\) would make npm fetch theinference from the public registry/,
    );
    expect(await readdir(root)).toEqual(['theinference-0.1.0.tgz']);
  });

  it('says so at once, writing nothing, when a FIFO has the name of a file it writes (never waiting on it)', async () => {
    await mkdir(join(root, 'c'));
    execFileSync('mkfifo', [join(root, 'c', 'tsconfig.json')]);
    const { code, stderr } = await initTools(['c', '--from', tarball]);
    expect([code, stderr]).toEqual([
      2,
      `error: ${join(root, 'c', 'tsconfig.json')} is not a regular file (a directory, a FIFO, a socket or a device), and init writes tsconfig.json there. Move it away and run init again.\n`,
    ]);
    expect(await listing(join(root, 'c'))).toEqual(['tsconfig.json']);
  });

  it('writes the course, and warns on stderr, when its install line is a git repository (it holds the answers)', async () => {
    const { code, stderr } = await initTools(['c', '--from', 'git+https://github.com/acme/theinference.git#v0.1.0']);
    expect(code).toBe(0);
    expect(stderr).toMatch(
      /^warning: the install line git\+https:\/\/github\.com\/acme\/theinference\.git#v0\.1\.0 names a git repository: .* holds the reference solutions .* Give students a tarball made by `npm pack`/,
    );
    expect(JSON.parse(await readFile(join(root, 'c', 'package.json'), 'utf8')).devDependencies.theinference).toBe(
      'git+https://github.com/acme/theinference.git#v0.1.0',
    );
  });

  it('says nothing on stderr of a tarball install line', async () => {
    const { code, stderr } = await initTools(['c', '--from', tarball]);
    expect([code, stderr]).toEqual([0, '']);
  });

  it('says so, writing nothing, when a file is in the way of a directory', async () => {
    await mkdir(join(root, 'c', 'src'), { recursive: true });
    await writeFile(join(root, 'c', 'src', 'tools'), 'a file where the tools directory goes');
    const { code, stderr } = await initTools(['c', '--from', tarball]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^error: could not write the course directory .*: init wrote nothing\.\n$/);
    expect(await listing(join(root, 'c'))).toEqual(['src', 'src/tools']);
  });

  it('writes the first stage of the course when no stage is named', async () => {
    const first = STAGES[0]!;
    const { code, stdout } = await cli(['init', 'loop', '--from', tarball]);
    expect(code).toBe(0);
    expect(await listing(join(root, 'loop'))).toEqual(
      ['.gitignore', 'package.json', 'program.ts', 'src', ...first.writes, 'tsconfig.json'].sort(),
    );
    const manifest = JSON.parse(await readFile(join(root, 'loop', 'package.json'), 'utf8'));
    expect(manifest.scripts.watch).toBe(`theinference test --stage ${first.slug} --watch`);
    expect(Object.keys(manifest.dependencies)).toEqual(first.dependencies);
    const line = `  ${first.writes[0]!.padEnd(16)} yours to write: ${first.entry} (the course page "${first.title}")\n`;
    expect(stdout).toContain(line);
  });

  it('refuses a stage the course does not have', async () => {
    const { code, stderr } = await cli(['init', 'x', '--stage', 'nope', '--from', tarball]);
    expect([code, stderr]).toEqual([2, unknownStage('nope')]);
  });

  it('adds a later stage to a course directory: its files, scripts that grade it and the stages reached', async () => {
    const dir = join(root, 'course');
    expect((await cli(['init', 'course', '--from', tarball])).code).toBe(0);
    await writeFile(join(dir, 'src', 'agent-loop.ts'), '// my loop\n');
    await writeFile(join(dir, 'tsconfig.json'), '{ "mine": true }\n');
    const { code, stdout } = await initTools(['course'], root);
    expect(code).toBe(0);
    const order = STAGES.findIndex((s) => s.slug === 'register-tools') + 1;
    expect(stdout).toContain(
      `Added the stage register-tools ("Register the toolset", stage ${order} of ${STAGES.length}) to course:\n`,
    );
    const earlier = earlierStages('register-tools').map((s) => s.slug);
    expect(stdout).toContain(
      `  package.json     scripts test and watch grade register-tools, then ${earlier.join(', ')} (--previous)`,
    );
    expect(await readFile(join(dir, 'src', 'agent-loop.ts'), 'utf8')).toBe('// my loop\n');
    expect(await readFile(join(dir, 'tsconfig.json'), 'utf8')).toBe('{ "mine": true }\n');
    expect(await listing(dir)).toEqual(expect.arrayContaining(['src/execute.ts', 'src/tools/index.ts']));
    const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
    expect(manifest.scripts.test).toBe('theinference test --stage register-tools --previous');
    expect(manifest.devDependencies.theinference).toBe('file:../theinference-0.1.0.tgz');
    expect(Object.keys(manifest.dependencies)).toEqual(['@anthropic-ai/sdk', 'fast-glob']);
  });

  it('adds an earlier stage to a course at a later one, and its scripts keep grading the later one', async () => {
    const dir = join(root, 'course');
    expect((await initTools(['course', '--from', tarball])).code).toBe(0);
    await writeFile(join(dir, 'src', 'execute.ts'), '// my dispatcher\n');
    const { code, stdout } = await cli(['init', '--stage', 'agent-loop'], dir);
    expect(code).toBe(0);
    expect(stdout).toContain(
      '  package.json     scripts test and watch grade register-tools, then agent-loop (--previous)',
    );
    const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
    expect(manifest.scripts).toMatchObject({
      test: 'theinference test --stage register-tools --previous',
      watch: 'theinference test --stage register-tools --previous --watch',
    });
    expect(Object.keys(manifest.dependencies)).toEqual(['@anthropic-ai/sdk', 'fast-glob']);
    expect(await readFile(join(dir, 'src', 'execute.ts'), 'utf8')).toBe('// my dispatcher\n');
    expect(await listing(dir)).toContain('src/agent-loop.ts');
  });

  it('says in --help and in what it prints that it writes files, never that it grades', async () => {
    const help = await cli(['init', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).not.toMatch(/grades at once/);
    expect(help.stdout).toContain('`npm test` then grades it');
    const { stdout } = await cli(['init', 'loop', '--from', tarball]);
    expect(stdout).not.toMatch(/grades at once|graded/);
  });

  it("refuses to put a stub over a student's own file of the stage, naming it", async () => {
    const dir = join(root, 'course');
    expect((await cli(['init', 'course', '--from', tarball])).code).toBe(0);
    await writeFile(join(dir, 'src', 'execute.ts'), '// my dispatcher, begun early\n');
    const { code, stderr } = await initTools(['course']);
    expect(code).toBe(2);
    expect(stderr).toContain('already has src/execute.ts: init wrote nothing.');
    expect(stderr).toContain('(your src/execute.ts too: --force puts the stub in its place)');
    expect(await readFile(join(dir, 'src', 'execute.ts'), 'utf8')).toBe('// my dispatcher, begun early\n');
  });
});
