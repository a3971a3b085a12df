// What the grader reads of a submission: its own regular files, never through a link, never a special file, never
// node_modules, version control or CI metadata; and a clear error past the limits.
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HarnessError } from '../../../../src/errors.ts';
import { leftOut, readSubmission } from '../../../../src/grade/run/isolation/read-submission.ts';

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'theinference-submission-')));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const write = async (path: string, text: string): Promise<void> => {
  await mkdir(join(dir, path, '..'), { recursive: true });
  await writeFile(join(dir, path), text);
};

describe('readSubmission', () => {
  it('reads every regular file, in path order, keeping the executable bit', async () => {
    await write('program.ts', 'p');
    await write('src/execute.ts', 'e');
    await write('src/tools/view.ts', 'v');
    await write('run.sh', '#!/bin/sh');
    await chmod(join(dir, 'run.sh'), 0o755);
    const read = await readSubmission(dir);
    expect(read.files.map((f) => [f.path, f.data.toString(), f.executable])).toEqual([
      ['program.ts', 'p', false],
      ['run.sh', '#!/bin/sh', true],
      ['src/execute.ts', 'e', false],
      ['src/tools/view.ts', 'v', false],
    ]);
    expect(read.skipped).toEqual([]);
  });

  it('names every link without following it: a node_modules link is left out like node_modules itself', async () => {
    await write('program.ts', 'p');
    await symlink('/proc', join(dir, 'node_modules'));
    await symlink('/etc', join(dir, 'src-link'));
    await symlink('/nonexistent', join(dir, 'dangling.ts'));
    const read = await readSubmission(dir);
    expect(read.files.map((f) => f.path)).toEqual(['program.ts']);
    expect(read.skipped).toEqual([
      { path: 'dangling.ts', what: 'a link to /nonexistent' },
      { path: 'src-link', what: 'a link to /etc' },
    ]);
  });

  it('leaves out a socket and a FIFO, opening neither (a FIFO would block)', async () => {
    await write('program.ts', 'p');
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    const server: Server = createServer();
    await new Promise<void>((resolve) => server.listen(join(dir, 'socket'), resolve));
    try {
      const read = await readSubmission(dir);
      expect(read.files.map((f) => f.path)).toEqual(['program.ts']);
      expect(read.skipped.map((s) => s.path)).toEqual(['fifo', 'socket']);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('names a file or directory whose name is not UTF-8, and reads on', async () => {
    await write('program.ts', 'p');
    // Node's fs takes a path as bytes: a name no string can spell.
    await mkdir(Buffer.concat([Buffer.from(`${dir}/notes`), Buffer.from([0xff])]));
    await writeFile(Buffer.concat([Buffer.from(`${dir}/bad`), Buffer.from([0xfe])]), 'x');
    const read = await readSubmission(dir);
    expect(read.files.map((f) => f.path)).toEqual(['program.ts']);
    expect(read.skipped).toEqual([
      { path: 'bad\ufffd', what: 'a name that is not UTF-8' },
      { path: 'notes\ufffd', what: 'a name that is not UTF-8' },
    ]);
  });

  it('names a directory nested past 64 levels, and reads what is above it', async () => {
    await write('program.ts', 'p');
    const deep = Array.from({ length: 70 }, () => 'a').join('/');
    await write(`${deep}/f.ts`, 'f');
    const read = await readSubmission(dir);
    expect(read.files.map((f) => f.path)).toEqual(['program.ts']);
    expect(read.skipped).toEqual([
      { path: Array(65).fill('a').join('/'), what: 'a directory nested more than 64 deep' },
    ]);
  });

  it('leaves out node_modules, version control and CI metadata, and package-manager configuration', async () => {
    for (const path of [
      'program.ts',
      'node_modules/theinference/package.json',
      'src/node_modules/x.js',
      '.git/config',
      'src/.git',
      '.hg/hgrc',
      '.svn/entries',
      '.github/workflows/grade.yml',
      '.gitlab-ci.yml',
      '.circleci/config.yml',
      '.npmrc',
      '.yarnrc.yml',
      'src/.github/kept.ts',
      '.env.example',
    ]) {
      await write(path, 'x');
    }
    expect((await readSubmission(dir)).files.map((f) => f.path)).toEqual([
      '.env.example',
      'program.ts',
      'src/.github/kept.ts',
    ]);
  });

  it('gives the same content the same digest wherever it is, and any change another', async () => {
    await write('src/a.ts', 'a');
    const first = (await readSubmission(dir)).digest;
    const copy = `${dir}-copy`;
    await mkdir(join(copy, 'src'), { recursive: true });
    await writeFile(join(copy, 'src', 'a.ts'), 'a');
    try {
      expect((await readSubmission(copy)).digest).toBe(first);
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
    await write('src/a.ts', 'b');
    expect((await readSubmission(dir)).digest).not.toBe(first);
  });

  it.each<[string, () => Promise<void>, RegExp]>([
    [
      'too many files',
      async () => {
        for (let i = 0; i < 11; i += 1) await write(`f${i}.ts`, 'x');
      },
      /has more than 10 files and directories: .*grades at most 10 files and 0\.001 MB\. Remove what grading does not need/,
    ],
    ['too many bytes', () => write('big.json', 'x'.repeat(2000)), /has more than 0\.001 MB of files/],
  ])('refuses a submission with %s, saying what to do', async (_, arrange, message) => {
    await arrange();
    const error = await readSubmission(dir, { files: 10, bytes: 1024 * 1.024 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).code).toBe('SUBMISSION_TOO_LARGE');
    expect((error as HarnessError).message).toMatch(message);
  });
});

describe('leftOut', () => {
  it.each<[string, number, boolean]>([
    ['node_modules', 3, true],
    ['.git', 2, true],
    ['.github', 0, true],
    ['.github', 1, false],
    ['.npmrc', 0, true],
    ['src', 0, false],
  ])('%s at depth %i: %s', (name, depth, out) => {
    expect(leftOut(name, depth)).toBe(out);
  });
});
