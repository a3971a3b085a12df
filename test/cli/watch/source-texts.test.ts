// The student's code as the last verdict graded it: a save's changes are told against it, and kept only when the
// run finishes.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keepSourceTexts } from '../../../src/cli/watch/source-texts.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'theinference-source-texts-'));
  await mkdir(join(dir, 'src', 'tools'), { recursive: true });
  await writeFile(join(dir, 'src', 'execute.ts'), "case 'Read':\n");
  await writeFile(join(dir, 'src', 'tools', 'read.ts'), 'export const read = 1;\n');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});
const nothingIgnored = () => false;

describe('keepSourceTexts', () => {
  it("tells a saved file's text before and after, and keeps the new text only when asked", async () => {
    const texts = await keepSourceTexts(dir, nothingIgnored);
    const file = join(dir, 'src', 'execute.ts');
    await writeFile(file, "case 'view':\n");
    const changes = await texts.changes([file]);
    expect(changes).toEqual([{ path: file, before: "case 'Read':\n", after: "case 'view':\n" }]);
    // Not kept yet (the run was cancelled, say): the next save is told against the graded text still.
    expect((await texts.changes([file]))[0]?.before).toBe("case 'Read':\n");
    texts.keep(changes);
    expect((await texts.changes([file]))[0]).toEqual({ path: file, before: "case 'view':\n", after: "case 'view':\n" });
  });

  it('tells a new file and a removed one, and leaves out what is not code: a case file, node_modules, an ignored name', async () => {
    const texts = await keepSourceTexts(dir, (path) => path.endsWith('.swp'));
    const added = join(dir, 'src', 'tools', 'grep.ts');
    await writeFile(added, 'export const grep = 2;\n');
    const removed = join(dir, 'src', 'tools', 'read.ts');
    await rm(removed);
    const elsewhere = [
      join(dir, 'node_modules', 'x', 'index.ts'),
      join(dir, 'src', '.execute.ts.swp'),
      '/cases/x.json',
    ];
    expect(await texts.changes([added, removed, ...elsewhere])).toEqual([
      { path: added, before: undefined, after: 'export const grep = 2;\n' },
      { path: removed, before: 'export const read = 1;\n', after: undefined },
    ]);
  });

  it('never reads through a link: a linked file has no text', async () => {
    const outside = join(dir, 'secret.txt');
    await writeFile(outside, 'not code');
    const link = join(dir, 'src', 'linked.ts');
    await symlink(outside, link);
    const texts = await keepSourceTexts(dir, nothingIgnored);
    expect(await texts.changes([link])).toEqual([{ path: link, before: undefined, after: undefined }]);
  });
});
