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
const options = (dir: string, o: { force?: boolean; dryRun?: boolean } = {}) => ({
  dir,
  stage: STAGE,
  force: o.force ?? false,
  dryRun: o.dryRun ?? false,
});
const tree = async (dir: string): Promise<string[]> => (await readdir(dir, { recursive: true })).sort();

describe('writeCases', () => {
  it('adds new cases and their snapshots, then finds them unchanged', async () => {
    const dir = await mkdtemp(join(scratch.root, 'courses', 'w-'));
    expect((await writeCases([named('recorded-a'), named('recorded-b')], options(dir))).map((c) => c.status)).toEqual([
      'added',
      'added',
    ]);
    expect(await readFile(join(dir, 'cases', STAGE, 'recorded-a.json'), 'utf8')).toBe(
      formatCase(named('recorded-a').data),
    );
    expect((await writeCases([named('recorded-a'), named('recorded-b')], options(dir))).map((c) => c.status)).toEqual([
      'unchanged',
      'unchanged',
    ]);
  });

  it("writes each case's recording beside it, also for a case unchanged since it was recorded without one", async () => {
    const dir = await mkdtemp(join(scratch.root, 'courses', 'w-'));
    await writeCases([named('recorded-a')], options(dir));
    const recordingText = '{\n  "calls": []\n}\n';
    const [again] = await writeCases([{ ...named('recorded-a'), recordingText }], options(dir));
    expect(again?.status).toBe('unchanged');
    expect(await readFile(join(dir, 'recordings', STAGE, 'recorded-a.json'), 'utf8')).toBe(recordingText);
  });

  it('refuses a case that exists with other content, and then writes none of the others either', async () => {
    const dir = await mkdtemp(join(scratch.root, 'courses', 'w-'));
    await writeCases([named('recorded-a')], options(dir));
    const result = await writeCases([named('recorded-a', 'Other words.'), named('recorded-new')], options(dir));
    expect(result.map((c) => c.status)).toEqual(['refused', 'added']);
    expect(await tree(dir)).toEqual([
      'cases',
      `cases/${STAGE}`,
      `cases/${STAGE}/recorded-a.json`,
      'snapshots',
      `snapshots/${STAGE}`,
      `snapshots/${STAGE}/recorded-a.json`,
    ]);
    expect((await writeCases([named('recorded-a', 'Other words.')], options(dir, { force: true })))[0]?.status).toBe(
      'replaced',
    );
    expect(await readFile(join(dir, 'cases', STAGE, 'recorded-a.json'), 'utf8')).toContain('Other words.');
  });

  it('with dryRun, says what it would do and writes nothing', async () => {
    const dir = await mkdtemp(join(scratch.root, 'courses', 'w-'));
    expect((await writeCases([named('recorded-a')], options(dir, { dryRun: true })))[0]?.status).toBe('would add');
    expect(await tree(dir)).toEqual([]);
  });

  it('writes nothing, not even the other files, when one target cannot be used', async () => {
    const dir = await mkdtemp(join(scratch.root, 'courses', 'w-'));
    // snapshots/ is a file: no snapshot can go under it.
    await writeFile(join(dir, 'snapshots'), 'not a directory');
    await expect(writeCases([named('recorded-a')], options(dir))).rejects.toThrow(/ENOTDIR/);
    expect(await tree(dir)).toEqual(['snapshots']);
  });
});
