// `theinference init`: a course directory in one command, never over a file that is there.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliInProcess } from '../support/cli-in-process.ts';

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

const listing = async (dir: string) => (await readdir(dir, { recursive: true })).sort();

describe('theinference init', () => {
  it('writes the course directory, names where theinference comes from, and prints the next commands', async () => {
    const { code, stdout, stderr } = await cli(['init', 'my-course', '--from', './theinference-0.1.0.tgz']);
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
    };
    expect(manifest.type).toBe('module');
    expect(manifest.devDependencies.theinference).toBe('file:../theinference-0.1.0.tgz');
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
    const { code, stdout } = await cli(['init', '--from', tarball], dir);
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
    const { code, stdout, stderr } = await cli(['init', 'taken', '--from', tarball]);
    expect([code, stdout]).toEqual([2, '']);
    expect(stderr).toBe(
      `error: ${dir} already has package.json, src/execute.ts: init wrote nothing. Run it in an empty directory (theinference init <new dir>), or pass --force to replace them (your src/execute.ts too: --force puts the stub in its place).\n`,
    );
    expect(await listing(dir)).toEqual(['package.json', 'src', 'src/execute.ts']);
    expect(await readFile(join(dir, 'src', 'execute.ts'), 'utf8')).toBe('// my work\n');
  });

  it('does not warn of losing src/execute.ts when it is still the stub', async () => {
    const dir = join(root, 'fresh');
    expect((await cli(['init', 'fresh', '--from', tarball])).code).toBe(0);
    const { code, stderr } = await cli(['init', 'fresh', '--from', tarball]);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      new RegExp(
        `^error: ${dir} already has .*src/execute\\.ts.*: init wrote nothing\\. .*or pass --force to replace them\\.\\n$`,
      ),
    );
  });

  it('replaces files with --force, and says which', async () => {
    const dir = join(root, 'taken');
    await mkdir(dir);
    await writeFile(join(dir, 'package.json'), '{ "type": "commonjs" }\n');
    const { code, stdout } = await cli(['init', 'taken', '--force', '--from', tarball]);
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

  it('says so, writing nothing, when a file is in the way of a directory', async () => {
    await mkdir(join(root, 'c', 'src'), { recursive: true });
    await writeFile(join(root, 'c', 'src', 'tools'), 'a file where the tools directory goes');
    const { code, stderr } = await cli(['init', 'c', '--from', tarball]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^error: could not write the course directory .*: init wrote nothing\.\n$/);
    expect(await listing(join(root, 'c'))).toEqual(['src', 'src/tools']);
  });
});
