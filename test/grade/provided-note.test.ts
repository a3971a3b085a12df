// What a run says when a submission's copy of what its stage provides (register-tools: src/tools/) is not the
// course's: the driver gives makeExecute the course's own Tools, so an edit there changes nothing of the grade.
import { cp, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { packageRoot, STAGES } from '../../src/course/stages.ts';
import { providedNotes } from '../../src/grade/provided-note.ts';

const root = packageRoot();
const providing = STAGES.find((s) => s.provides.length > 0)!;
const provided = providing.provides[0]!.path;
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'theinference-provided-'));
  await cp(join(root, provided), join(dir, provided), { recursive: true });
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('providedNotes', () => {
  it("says nothing when the copy is the course's, or when the files are gone", async () => {
    expect(await providedNotes(dir, root, providing)).toEqual([]);
    await rm(join(dir, provided), { recursive: true });
    expect(await providedNotes(dir, root, providing)).toEqual([]);
  });

  it('names an edited file, says the grade does not change, and gives the command that restores it', async () => {
    await writeFile(join(dir, provided, 'view.ts'), '// mine\n');
    const [note, ...rest] = await providedNotes(dir, root, providing);
    expect(rest).toEqual([]);
    expect(note).toContain(
      `${provided}/view.ts is not the course's: the grader runs the ${provided}/ the course provides`,
    );
    expect(note).toContain('so an edit there changes nothing of this grade');
    expect(note).toMatch(new RegExp(`cp \\S+/${provided}/\\*\\.ts ${provided}/$`));
  });

  it("names three files and counts the rest, a link or a folder in a file's place among them", async () => {
    await writeFile(join(dir, provided, 'view.ts'), '');
    await writeFile(join(dir, provided, 'bash.ts'), '');
    await rm(join(dir, provided, 'glob.ts'));
    await symlink('/etc/hostname', join(dir, provided, 'glob.ts'));
    await rm(join(dir, provided, 'grep.ts'));
    await mkdir(join(dir, provided, 'grep.ts'));
    const [note] = await providedNotes(dir, root, providing);
    expect(note).toMatch(
      new RegExp(
        `^${provided}/bash\\.ts, ${provided}/glob\\.ts, ${provided}/grep\\.ts and 1 more are not the course's`,
      ),
    );
  });

  it('says nothing for a stage that provides nothing', async () => {
    const none = STAGES.find((s) => s.provides.length === 0)!;
    expect(await providedNotes(dir, root, none)).toEqual([]);
  });
});
