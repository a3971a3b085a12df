// A class graded over a CI matrix reads as one: the real binary in CI mode grades a class once as a whole and once
// as 4 shards (`--shard i/4 --class-data`), each shard in a job of its own; `theinference merge` over the shards'
// files writes the same page and the same summary as the whole run, but for the time the run took.
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../grade/course-fixture.ts';
import { useBinary } from '../support/binary.ts';
import { writeReferenceCourse } from '../support/reference-course.ts';

const BIN = join(REPO, 'bin', 'theinference.js');
const { scratch, env } = useBinary();
const CASES = ['--case', 'course-*', '--case', 'story-*'];
// Every shard grades with the same seed, as one run does (the merge refuses shards of different seeds).
const SEED = ['--seed', '41'];

let root = '';
beforeAll(async () => {
  root = join(scratch.root, 'class');
  const sub = (name: string) => join(root, 'submissions', name);
  for (const name of ['alice', 'bob', 'carol', 'dave', 'erin']) await writeReferenceCourse(sub(name));
  await cp(join(REPO, 'test/fixtures/wrong-execute/missing-alias-read.ts'), join(sub('bob'), 'src/execute.ts'));
  await cp(join(REPO, 'test/fixtures/wrong-execute/glob-arguments-swapped.ts'), join(sub('carol'), 'src/execute.ts'));
  await cp(join(REPO, 'course-template/src/execute.ts'), join(sub('dave'), 'src/execute.ts'));
  await rm(join(sub('erin'), 'program.ts'));
  for (const dir of ['whole', 'shard-1', 'shard-2', 'shard-3', 'shard-4', 'merged'])
    await mkdir(join(root, dir), { recursive: true });
});

const run = (args: string[]) =>
  execa('node', [BIN, ...args], {
    cwd: root,
    env: { ...env(), CI: 'true', THEINFERENCE_VARIANTS: undefined, THEINFERENCE_ISOLATION: undefined },
    reject: false,
  });
const grade = (args: string[]) =>
  run(['test', '--stage', 'register-tools', ...CASES, ...SEED, '--dir', 'submissions/*', ...args]);

// The time a run took is the one thing a merge cannot give the same.
const untimed = (text: string) => text.replace(/ in \d+\.\d s/g, ' in _ s').replace(/\(\d+\.\d\d s\)/g, '(_ s)');
// The summary table a run prints at its end: its header, its rows, why some did not run, and the count.
const table = (stdout: string) =>
  untimed(stdout)
    .split('\n')
    .filter((l) => /^ {1,2}[^\s✓✗]|submissions? passed/.test(l));
const read = (file: string) => readFile(join(root, file), 'utf8');

// The class graded once whole, then as 4 shards, each writing its class data.
let whole: Awaited<ReturnType<typeof run>>;
beforeAll(async () => {
  whole = await grade([
    '--reporter',
    'html',
    '--output',
    'whole/class.html',
    '--summary',
    'whole/summary.json',
    '--class-data',
    'whole/class-data.json',
  ]);
  expect(whole.exitCode, whole.stderr).toBe(1);
  for (const i of [1, 2, 3, 4]) {
    const shard = await grade(['--shard', `${i}/4`, '--class-data', `shard-${i}/class-data.json`]);
    expect(shard.exitCode, shard.stderr).toBe(1);
    expect(shard.stdout).toContain(`Class data: shard-${i}/class-data.json`);
  }
}, 600_000);

describe('a class graded as 4 shards, merged', () => {
  it('gives an empty shard the run’s seed, so that a class smaller than its matrix merges', async () => {
    const empty = await grade(['--shard', '6/6', '--class-data', 'merged/empty-shard.json']);
    expect([empty.exitCode, empty.stdout]).toEqual([0, 'No submission in this shard (6/6): 5 in all.']);
    const data = JSON.parse(await read('merged/empty-shard.json')) as { seed: number | null; submissions: unknown[] };
    expect([data.seed, data.submissions]).toEqual([41, []]);
  });

  it('gives the page and the summary of the class graded in one run', async () => {
    const files = [4, 2, 1, 3].map((i) => `shard-${i}/class-data.json`);
    const merged = await run(['merge', ...files, '--html', 'merged/class.html', '--summary', 'merged/summary.json']);
    expect([merged.exitCode, merged.stderr]).toEqual([1, '']);
    expect(merged.stdout).toContain('Merged 4 files of class data.');
    expect(table(merged.stdout)).toEqual(table(whole.stdout));
    expect(table(merged.stdout)).toContain('1 of 5 submissions passed (_ s)');
    expect(await read('merged/summary.json')).toBe(await read('whole/summary.json'));
    const page = await read('merged/class.html');
    expect(untimed(page)).toBe(untimed(await read('whole/class.html')));
    expect(page).toContain('5 submissions graded');
    // The CSV summary of the merge, as the whole run's would be: a row per submission, in name order.
    const csv = await run(['merge', ...files, '--summary', 'merged/summary.csv']);
    expect(csv.exitCode).toBe(1);
    expect((await read('merged/summary.csv')).split('\r\n').map((l) => l.split(',')[0])).toEqual([
      'submission',
      'alice',
      'bob',
      'carol',
      'dave',
      'erin',
      '',
    ]);
  });

  it('refuses the shards when one is missing, given twice, or of another run, saying which', async () => {
    const shards = [1, 2, 3, 4].map((i) => `shard-${i}/class-data.json`);
    const missing = await run(['merge', ...shards.slice(0, 3), '--html', 'merged/missing.html']);
    expect([missing.exitCode, missing.stderr]).toEqual([
      2,
      expect.stringContaining('shard 4/4 missing: give the class data of every shard'),
    ]);
    const twice = await run(['merge', ...shards, shards[0]!]);
    expect(twice.stderr).toContain('shard-1/class-data.json and shard-1/class-data.json are both shard 1/4');
    const mixed = await run(['merge', 'whole/class-data.json', ...shards]);
    expect(mixed.stderr).toContain("whole/class-data.json is a whole class's run, not a shard");
    await writeFile(join(root, 'merged/other.json'), '{"results": []}\n');
    const other = await run(['merge', 'merged/other.json']);
    expect([other.exitCode, other.stderr]).toEqual([2, expect.stringContaining('merged/other.json is not class data')]);
  });
});
