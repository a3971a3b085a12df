// `theinference snapshot` against a copy of this package with a stage of its own: missing, stale and obsolete
// snapshots found by --check without writing anything, then fixed, byte for byte as committed here.
import { PassThrough } from 'node:stream';
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.ts';
import { makeCourse, useScratch, REPO } from '../grade/course-fixture.ts';

const scratch = useScratch();
let root: string;
const committed = (name: string) => readFile(join(REPO, 'snapshots', 'register-tools', `${name}.json`), 'utf8');
const snapshotFiles = async () => (await readdir(join(root, 'snapshots', 'register-tools'))).sort();

beforeAll(async () => {
  // A package root: the reference course files, and the stage register-tools made of three of its cases.
  root = await makeCourse(scratch);
  await mkdir(join(root, 'cases', 'register-tools'), { recursive: true });
  await mkdir(join(root, 'snapshots', 'register-tools'), { recursive: true });
  await cp(join(REPO, 'cases', 'case.schema.json'), join(root, 'cases', 'case.schema.json'));
  for (const [slug, name] of [
    ['a', 'course-bash-echo-hi'],
    ['b', 'course-glob-everything'],
    ['c', 'course-read-seeded-file'],
  ]) {
    await cp(
      join(REPO, 'cases', 'register-tools', `${name}.json`),
      join(root, 'cases', 'register-tools', `${slug}.json`),
    );
  }
  await writeFile(join(root, 'snapshots', 'register-tools', 'a.json'), await committed('course-bash-echo-hi'));
  await writeFile(
    join(root, 'snapshots', 'register-tools', 'b.json'),
    '{\n  "results": [\n    {\n      "content": "b.txt"\n    }\n  ]\n}\n',
  );
  await writeFile(join(root, 'snapshots', 'register-tools', 'z.json'), '{\n  "results": []\n}\n');
});

async function snapshot(...argv: string[]) {
  const stdout = new PassThrough();
  const out: string[] = [];
  stdout.on('data', (c: Buffer) => out.push(c.toString()));
  const io = {
    cwd: root,
    root,
    env: { ...process.env, NO_COLOR: '1' },
    stdin: new PassThrough(),
    stdout,
    stderr: new PassThrough(),
  };
  const code = await runCli({ ...io, argv: ['snapshot', '--stage', 'register-tools', ...argv] });
  return { code, stdout: out.join('') };
}

describe('theinference snapshot', () => {
  it('--check names each missing, stale and obsolete snapshot, writes nothing and fails', async () => {
    const before = await Promise.all(
      (await snapshotFiles()).map((f) => readFile(join(root, 'snapshots', 'register-tools', f), 'utf8')),
    );
    const { code, stdout } = await snapshot('--check');
    expect(code).toBe(1);
    const lines = stdout.split('\n');
    expect(lines.filter((l) => /^\S/.test(l))).toEqual([
      'up to date a',
      'stale      b',
      'missing    c',
      'obsolete   z',
      '1 missing, 1 stale, 1 up to date, 1 obsolete',
      'Snapshots out of date: b (stale), c (missing), z (obsolete).',
      'Run `npx theinference snapshot --stage register-tools`, read the diff against docs/tools.md, and commit it.',
    ]);
    expect(stdout).toContain('-     "content": "b.txt"\n    +     "content": "a.txt"');
    const after = await Promise.all(
      (await snapshotFiles()).map((f) => readFile(join(root, 'snapshots', 'register-tools', f), 'utf8')),
    );
    expect(after).toEqual(before);
  });

  it('regenerates: adds, changes and removes snapshots, byte for byte as this package commits them', async () => {
    const { code, stdout } = await snapshot();
    expect(code).toBe(0);
    expect(stdout.split('\n').filter((l) => /^\S/.test(l))).toEqual([
      'unchanged  a',
      'changed    b',
      'added      c',
      'removed    z',
      '1 added, 1 changed, 1 unchanged, 1 removed',
    ]);
    expect(await snapshotFiles()).toEqual(['a.json', 'b.json', 'c.json']);
    expect(await readFile(join(root, 'snapshots', 'register-tools', 'b.json'), 'utf8')).toBe(
      await committed('course-glob-everything'),
    );
    expect(await readFile(join(root, 'snapshots', 'register-tools', 'c.json'), 'utf8')).toBe(
      await committed('course-read-seeded-file'),
    );
  });

  it('--check passes once everything is up to date', async () => {
    const { code, stdout } = await snapshot('--check');
    expect(code).toBe(0);
    expect(stdout.split('\n').at(-2)).toBe('3 up to date');
  });

  it('--case regenerates only the named cases and leaves obsolete files alone', async () => {
    await writeFile(join(root, 'snapshots', 'register-tools', 'y.json'), '{\n  "results": []\n}\n');
    const { code, stdout } = await snapshot('--case', 'c', '--check');
    expect(code).toBe(0);
    expect(stdout).toBe('up to date c\n\n1 up to date\n');
  });
});
