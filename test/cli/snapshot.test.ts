// `theinference snapshot` against a copy of this package with a stage of its own: missing, stale and obsolete
// snapshots found by --check without writing anything; a run writes pending files beside the snapshots, never
// over them, and keeps obsolete ones; --check fails on pending files; --accept, --reject, --accept-all and
// --remove-obsolete decide them, byte for byte as committed here.
import { PassThrough } from 'node:stream';
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.ts';
import { makeCourse, useScratch, REPO } from '../grade/course-fixture.ts';

const scratch = useScratch();
let root: string;
const committed = (name: string) => readFile(join(REPO, 'snapshots', 'register-tools', `${name}.json`), 'utf8');
const demo = (file: string) => join(root, 'snapshots', 'register-tools', file);
const snapshotFiles = async () => (await readdir(join(root, 'snapshots', 'register-tools'))).sort();
const contents = async () =>
  Object.fromEntries(await Promise.all((await snapshotFiles()).map(async (f) => [f, await readFile(demo(f), 'utf8')])));
const STALE_B = '{\n  "results": [\n    {\n      "content": "b.txt"\n    }\n  ]\n}\n';
const EMPTY = '{\n  "results": []\n}\n';

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
  await writeFile(demo('a.json'), await committed('course-bash-echo-hi'));
  await writeFile(demo('b.json'), STALE_B);
  await writeFile(demo('z.json'), EMPTY);
});

async function snapshot(...argv: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: string[] = [];
  const err: string[] = [];
  stdout.on('data', (c: Buffer) => out.push(c.toString()));
  stderr.on('data', (c: Buffer) => err.push(c.toString()));
  const io = { cwd: root, root, env: { ...process.env, NO_COLOR: '1' }, stdin: new PassThrough(), stdout, stderr };
  const code = await runCli({ ...io, argv: ['snapshot', '--stage', 'register-tools', ...argv] });
  return { code, stdout: out.join(''), stderr: err.join('') };
}

const statusLines = (stdout: string) => stdout.split('\n').filter((l) => /^\S/.test(l));

describe('theinference snapshot', () => {
  it('--check names each missing, stale and obsolete snapshot with its drift (the up-to-date one only counted), writes nothing and fails', async () => {
    const before = await contents();
    const { code, stdout } = await snapshot('--check');
    expect(code).toBe(1);
    expect(statusLines(stdout)).toEqual([
      'stale      b — wording only',
      'missing    c',
      'obsolete   z — snapshots/register-tools/z.json has no case',
      '1 up to date, 1 stale, 1 missing, 1 obsolete',
      'Snapshots out of date: b (stale, wording only), c (missing), z (obsolete).',
      'Run `npx theinference snapshot --stage register-tools` (and `--remove-obsolete` for the obsolete files), review what it leaves pending (`npx theinference snapshot --stage register-tools --review`) against docs/tools.md, and commit.',
    ]);
    expect(stdout).toContain('    call 1: "content" worded otherwise\n');
    expect(stdout).toContain('-     "content": "b.txt"\n    +     "content": "a.txt"');
    expect(await contents()).toEqual(before);
  });

  it('writes what changed as pending files beside the snapshots, never over them, and keeps the obsolete one', async () => {
    const { code, stdout } = await snapshot();
    expect(code).toBe(0);
    expect(statusLines(stdout)).toEqual([
      'unchanged  a',
      'changed    b — wording only',
      'new        c',
      'obsolete   z — snapshots/register-tools/z.json has no case',
      '1 unchanged, 1 changed, 1 new, 1 obsolete',
      '2 pending snapshots in snapshots/register-tools/ (*.json.new): review them with `npx theinference snapshot --stage register-tools --review`, or `--accept <case>…`, `--reject <case>…`, `--accept-all`.',
      'Obsolete files are kept: `npx theinference snapshot --stage register-tools --remove-obsolete` removes them.',
    ]);
    expect(await snapshotFiles()).toEqual(['a.json', 'b.json', 'b.json.new', 'c.json.new', 'z.json']);
    expect(await readFile(demo('b.json'), 'utf8')).toBe(STALE_B);
    expect(await readFile(demo('b.json.new'), 'utf8')).toBe(await committed('course-glob-everything'));
    expect(await readFile(demo('c.json.new'), 'utf8')).toBe(await committed('course-read-seeded-file'));
  });

  it('--check fails on the pending files as on the stale and missing snapshots they stand for', async () => {
    const { code, stdout } = await snapshot('--check');
    expect(code).toBe(1);
    expect(statusLines(stdout)).toContain('stale      b — wording only; pending review');
    expect(statusLines(stdout)).toContain('Pending review: b, c.');
    expect(stdout.split('\n')).toContain('1 up to date, 1 stale, 1 missing, 1 obsolete, 2 pending');
  });

  it('a second run leaves pending files that already hold the new results as they are', async () => {
    const before = await contents();
    expect((await snapshot()).code).toBe(0);
    expect(await contents()).toEqual(before);
  });

  it.each([
    [
      ['--accept', 'nope'],
      /^error: --accept 'nope': no pending snapshot of that name in snapshots\/register-tools\/ \(pending: b, c\)/,
    ],
    [['--accept', 'b', '--reject', 'b'], /^error: b: both accepted and rejected/],
    [['--accept-all', '--accept', 'b'], /^error: --accept-all decides every pending snapshot/],
    [['--check', '--review'], /^error: --check and --review do not go together/],
    [['--remove-obsolete', '--case', 'a'], /^error: --remove-obsolete goes with a run over the whole stage/],
    [
      ['--accept-all', '--case', 'a'],
      /^error: no pending snapshot in snapshots\/register-tools\/ matching 'a': nothing to accept/,
    ],
  ])('refuses %j with exit 2 and decides nothing', async (argv, message) => {
    const before = await contents();
    const { code, stderr } = await snapshot(...argv);
    expect([code, stderr]).toEqual([2, expect.stringMatching(message)]);
    expect(await contents()).toEqual(before);
  });

  it("--accept puts a pending file in its snapshot's place; --reject removes it and keeps the snapshot", async () => {
    await writeFile(demo('a.json.new'), EMPTY);
    const { code, stdout } = await snapshot('--accept', 'b', '--reject', 'a');
    expect(code).toBe(0);
    expect(stdout).toBe(
      [
        'rejected   a — snapshots/register-tools/a.json.new removed, the snapshot kept',
        'accepted   b — snapshots/register-tools/b.json replaced by its pending file',
        '',
        '1 accepted, 1 rejected, 1 still pending (c)',
        '',
      ].join('\n'),
    );
    expect(await snapshotFiles()).toEqual(['a.json', 'b.json', 'c.json.new', 'z.json']);
    expect(await readFile(demo('a.json'), 'utf8')).toBe(await committed('course-bash-echo-hi'));
    expect(await readFile(demo('b.json'), 'utf8')).toBe(await committed('course-glob-everything'));
  });

  it('--accept-all accepts every pending snapshot; --remove-obsolete removes what has no case', async () => {
    // c is a new case: its pending file is its first snapshot, nothing is replaced.
    expect((await snapshot('--accept-all')).stdout).toContain(
      'accepted   c — snapshots/register-tools/c.json written from its pending file\n',
    );
    const { code, stdout } = await snapshot('--remove-obsolete');
    expect(code).toBe(0);
    expect(statusLines(stdout)).toContain('removed    z — snapshots/register-tools/z.json has no case');
    expect(await snapshotFiles()).toEqual(['a.json', 'b.json', 'c.json']);
    expect(await readFile(demo('c.json'), 'utf8')).toBe(await committed('course-read-seeded-file'));
  });

  it('--check passes once everything is up to date and nothing is pending', async () => {
    const { code, stdout } = await snapshot('--check');
    expect(code).toBe(0);
    expect(stdout).toBe('3 up to date\n');
  });

  it('a run removes a pending file the reference no longer gives, saying so', async () => {
    await writeFile(demo('a.json.new'), EMPTY);
    const { code, stdout } = await snapshot('--case', 'a');
    expect(code).toBe(0);
    expect(stdout).toBe('unchanged  a — its pending file was outdated: removed\n\n1 unchanged\n');
    expect(await snapshotFiles()).toEqual(['a.json', 'b.json', 'c.json']);
  });

  it('--review with nothing pending says how pending files come about, and exits 0', async () => {
    const { code, stdout } = await snapshot('--review');
    expect([code, stdout]).toEqual([
      0,
      "No pending snapshots in snapshots/register-tools/: `npx theinference snapshot --stage register-tools` writes them when the reference's results change.\n",
    ]);
  });

  it('--case checks only the named cases and leaves obsolete files alone', async () => {
    await writeFile(demo('y.json'), EMPTY);
    const { code, stdout } = await snapshot('--case', 'c', '--check');
    expect(code).toBe(0);
    expect(stdout).toBe('1 up to date\n');
  });
});
