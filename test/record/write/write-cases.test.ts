// Writing recorded cases: whole files or none, never over a different case without force, nothing with dryRun.
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatCase, writeCases, type NamedCase } from '../../../src/record/write/write-cases.ts';
import { useScratch } from '../../grade/course-fixture.ts';

const scratch = useScratch();
const STAGE = 'register-tools';
const named = (name: string, description = 'A recorded case.'): NamedCase & { snapshotText: string } => ({
  name,
  data: { $schema: '../case.schema.json', description, calls: [{ tool: 'echo', input: { text: name } }] },
  results: [{ content: name }],
  snapshotText: `{\n  "results": [\n    {\n      "content": "${name}"\n    }\n  ]\n}\n`,
});
const options = (dir: string, o: { force?: boolean; dryRun?: boolean; sets?: string[] } = {}) => ({
  dir,
  stage: STAGE,
  force: o.force ?? false,
  dryRun: o.dryRun ?? false,
  sets: o.sets ?? [],
  privacy: { users: ['dana'], homes: ['/Users/dana'], hosts: ['danas-mbp'] },
});
const statuses = async (p: ReturnType<typeof writeCases>) => (await p).cases.map((c) => c.status);
const tree = async (dir: string): Promise<string[]> => (await readdir(dir, { recursive: true })).sort();

describe('writeCases', () => {
  it('adds new cases and their snapshots, then finds them unchanged', async () => {
    const dir = await mkdtemp(join(scratch.root, 'courses', 'w-'));
    expect(await statuses(writeCases([named('recorded-a'), named('recorded-b')], options(dir)))).toEqual([
      'added',
      'added',
    ]);
    expect(await readFile(join(dir, 'cases', STAGE, 'recorded-a.json'), 'utf8')).toBe(
      formatCase(named('recorded-a').data),
    );
    expect(await statuses(writeCases([named('recorded-a'), named('recorded-b')], options(dir)))).toEqual([
      'unchanged',
      'unchanged',
    ]);
  });

  it("writes each case's recording beside it, also for a case unchanged since it was recorded without one", async () => {
    const dir = await mkdtemp(join(scratch.root, 'courses', 'w-'));
    await writeCases([named('recorded-a')], options(dir));
    const recordingText = '{\n  "calls": []\n}\n';
    const {
      cases: [again],
    } = await writeCases([{ ...named('recorded-a'), recordingText }], options(dir));
    expect(again?.status).toBe('unchanged');
    expect(await readFile(join(dir, 'recordings', STAGE, 'recorded-a.json'), 'utf8')).toBe(recordingText);
  });

  it('refuses a case that exists with other content, and then writes none of the others either', async () => {
    const dir = await mkdtemp(join(scratch.root, 'courses', 'w-'));
    await writeCases([named('recorded-a')], options(dir));
    expect(
      await statuses(writeCases([named('recorded-a', 'Other words.'), named('recorded-new')], options(dir))),
    ).toEqual(['refused', 'added']);
    expect(await tree(dir)).toEqual([
      'cases',
      `cases/${STAGE}`,
      `cases/${STAGE}/recorded-a.json`,
      'snapshots',
      `snapshots/${STAGE}`,
      `snapshots/${STAGE}/recorded-a.json`,
    ]);
    expect(await statuses(writeCases([named('recorded-a', 'Other words.')], options(dir, { force: true })))).toEqual([
      'replaced',
    ]);
    expect(await readFile(join(dir, 'cases', STAGE, 'recorded-a.json'), 'utf8')).toContain('Other words.');
  });

  it('with dryRun, says what it would do and writes nothing', async () => {
    const dir = await mkdtemp(join(scratch.root, 'courses', 'w-'));
    expect(await statuses(writeCases([named('recorded-a')], options(dir, { dryRun: true })))).toEqual(['would add']);
    expect(await tree(dir)).toEqual([]);
  });

  it('writes nothing, not even the other files, when one target cannot be used', async () => {
    const dir = await mkdtemp(join(scratch.root, 'courses', 'w-'));
    // snapshots/ is a file: no snapshot can go under it.
    await writeFile(join(dir, 'snapshots'), 'not a directory');
    await expect(writeCases([named('recorded-a')], options(dir))).rejects.toThrow(/ENOTDIR/);
    expect(await tree(dir)).toEqual(['snapshots']);
  });

  it("replaces a name's set of cases as a whole: stale ones are refused without force, removed with it", async () => {
    const dir = await mkdtemp(join(scratch.root, 'courses', 'w-'));
    const recordingText = '{\n  "calls": []\n}\n';
    const set = ['recorded-s-01', 'recorded-s-02', 'recorded-s-03'].map((n) => ({ ...named(n), recordingText }));
    await writeCases([...set, named('recorded-s-other'), named('recorded-sx')], options(dir, { sets: ['recorded-s'] }));
    // Re-recorded with other options: two cases now, under the same name.
    const again = [named('recorded-s-01'), named('recorded-s-02', 'Other words.')];
    const refused = await writeCases(again, options(dir, { sets: ['recorded-s'] }));
    expect(refused.stale).toEqual([{ name: 'recorded-s-03', status: 'refused' }]);
    expect((await readdir(join(dir, 'cases', STAGE))).sort()).toEqual([
      'recorded-s-01.json',
      'recorded-s-02.json',
      'recorded-s-03.json',
      'recorded-s-other.json',
      'recorded-sx.json',
    ]);
    const dry = await writeCases(again, options(dir, { sets: ['recorded-s'], force: true, dryRun: true }));
    expect(dry.stale).toEqual([{ name: 'recorded-s-03', status: 'would remove' }]);
    const forced = await writeCases(again, options(dir, { sets: ['recorded-s'], force: true }));
    expect(forced.stale).toEqual([{ name: 'recorded-s-03', status: 'removed' }]);
    expect(forced.cases.map((c) => c.status)).toEqual(['unchanged', 'replaced']);
    // Only the set's own: `recorded-s-other` and `recorded-sx` are other names.
    expect((await readdir(join(dir, 'cases', STAGE))).sort()).toEqual([
      'recorded-s-01.json',
      'recorded-s-02.json',
      'recorded-s-other.json',
      'recorded-sx.json',
    ]);
    expect((await readdir(join(dir, 'snapshots', STAGE))).sort()).toEqual([
      'recorded-s-01.json',
      'recorded-s-02.json',
      'recorded-s-other.json',
      'recorded-sx.json',
    ]);
    // The stale case's recording goes with it.
    expect((await readdir(join(dir, 'recordings', STAGE))).sort()).toEqual([
      'recorded-s-01.json',
      'recorded-s-02.json',
    ]);
  });

  it('finds a single case stale once its name has become a set of several, and the other way round', async () => {
    const dir = await mkdtemp(join(scratch.root, 'courses', 'w-'));
    await writeCases([named('recorded-t')], options(dir, { sets: ['recorded-t'] }));
    const split = await writeCases(
      [named('recorded-t-01'), named('recorded-t-02')],
      options(dir, { sets: ['recorded-t'], force: true }),
    );
    expect(split.stale).toEqual([{ name: 'recorded-t', status: 'removed' }]);
    const joined = await writeCases([named('recorded-t')], options(dir, { sets: ['recorded-t'], force: true }));
    expect(joined.stale.map((c) => c.name)).toEqual(['recorded-t-01', 'recorded-t-02']);
    expect(await readdir(join(dir, 'cases', STAGE))).toEqual(['recorded-t.json']);
  });
});

describe('the privacy gate (issue 27)', () => {
  it('refuses every file when one would carry the machine, a recording too, names the file and what it found, and writes nothing', async () => {
    const dir = await mkdtemp(join(scratch.root, 'courses', 'w-'));
    // A Gemini CLI Write's own result, as it was kept in a recording with the home directory in it.
    const recordingText = `${JSON.stringify(
      {
        calls: [
          {
            id: 'w1',
            recorded: { content: 'Successfully created and wrote to new file: /Users/dana/Documents/shop/a.ts.' },
          },
        ],
      },
      null,
      2,
    )}\n`;
    const write = writeCases([named('recorded-a'), { ...named('recorded-b'), recordingText }], options(dir));
    await expect(write).rejects.toThrow(
      'nothing was written: the privacy gate refused\nrecordings/register-tools/recorded-b.json: it would carry /Users/dana',
    );
    expect(await tree(dir)).toEqual([]);
  });

  it('names a finding escaped: a control character in it cannot reach the terminal', async () => {
    const dir = await mkdtemp(join(scratch.root, 'courses', 'w-'));
    const data = named('recorded-\u001b[2Ja');
    const text = 'git clone https://dana:se\u001b[2Jcret@git.example.org/shop.git';
    const write = writeCases(
      [{ ...data, snapshotText: `${JSON.stringify({ results: [{ content: text }] })}\n` }],
      options(dir),
    );
    const error = await write.catch((e: Error) => e);
    expect(String(error)).not.toContain('\u001b');
    expect(String(error)).toContain(
      'snapshots/register-tools/recorded-␛[2Ja.json: it would carry URL credentials: https://dana:se␛[2Jcret@',
    );
  });
});
