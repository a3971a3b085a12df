// Which earlier stages a course directory has, and what --previous says of those it leaves out.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { notReachedWarning, reachedEarlierStages } from '../../src/course/reached-stages.ts';
import { STAGES } from '../../src/course/stages.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'theinference-reached-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function write(files: string[]): Promise<void> {
  for (const f of files) {
    await mkdir(dirname(join(dir, f)), { recursive: true });
    await writeFile(join(dir, f), '');
  }
}

describe('notReachedWarning', () => {
  const [first, second, third] = STAGES;

  it('names each earlier stage left out with its missing files, in course order', async () => {
    const warning = await notReachedWarning(dir, third!.slug);
    expect(warning).toBe(
      `--previous did not grade the earlier stages ${first!.slug} (${first!.writes.join(', ')}) and ${second!.slug} (${second!.writes.join(', ')}): the course directory does not have their files`,
    );
  });

  it('names only the stage whose file is missing, and grades the other', async () => {
    await write(first!.writes);
    expect(await notReachedWarning(dir, third!.slug)).toBe(
      `--previous did not grade the earlier stage ${second!.slug} (${second!.writes.join(', ')}): the course directory does not have its file`,
    );
    expect((await reachedEarlierStages(dir, third!.slug)).map((s) => s.slug)).toEqual([first!.slug]);
  });

  it('names three stages and more as a list, the last after "and"', async () => {
    const [, , , fourth] = STAGES;
    const warning = await notReachedWarning(dir, fourth!.slug);
    expect(warning).toMatch(
      new RegExp(
        `^--previous did not grade the earlier stages ${first!.slug} \\([^)]*\\), ${second!.slug} \\([^)]*\\) and ${third!.slug} \\(`,
      ),
    );
  });

  it('says nothing when every earlier stage is there, or for the first stage', async () => {
    await write([...first!.writes, ...second!.writes]);
    expect(await notReachedWarning(dir, third!.slug)).toBeUndefined();
    expect(await notReachedWarning(dir, first!.slug)).toBeUndefined();
  });

  it("counts a folder in a file's place as missing", async () => {
    await write(second!.writes);
    await mkdir(join(dir, first!.writes[0]!), { recursive: true });
    expect(await notReachedWarning(dir, third!.slug)).toContain(`${first!.slug} (${first!.writes[0]})`);
  });
});
