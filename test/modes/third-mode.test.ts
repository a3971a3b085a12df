// A stage of a kind the course has not had is one folder, two rows and its data: a copy of the package gets the
// fixture mode `wc` (test/fixtures/third-mode/) as its folder src/modes/wc/, a row in the table of modes and one in
// stages.ts, and the stage's data (case schema, cases, snapshots, the stub `init` writes, the stage's page), and not
// one other file of the package changes. The real grader (its bin, a program process per batch, the sandbox) then
// grades a course of that stage: `stages` lists it, `init --stage` writes its stub, which fails every case pointing
// at the page; the student's right count passes every case, a wrong one fails the case it gets wrong in the mode's
// own words, and one that never returns is named in the words every mode shares, by the stage's export.
import { chmod, cp, mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO, useScratch } from '../grade/course-fixture.ts';
import { theinference } from '../grade/run/isolation/hostile-course.ts';
import { writeInstall } from '../support/reference-course.ts';

const FIXTURE = join(REPO, 'test', 'fixtures', 'third-mode');
const scratch = useScratch();

// `text` with `row` put before the first line at or after `after` that is exactly `end`.
function insertRow(text: string, after: string, end: string, row: string): string {
  const start = text.indexOf(after);
  const at = text.indexOf(`\n${end}\n`, start);
  if (start < 0 || at < 0) throw new Error(`no ${JSON.stringify(end)} after ${JSON.stringify(after)}`);
  return `${text.slice(0, at + 1)}${row}${text.slice(at + 1)}`;
}

// Every file under `dir`, relative to it.
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name)));
}

// The files of the package copy that differ from this repository's or are not in it.
async function changedFiles(installed: string): Promise<string[]> {
  const files = await filesUnder(installed);
  const differs = await Promise.all(
    files.map(
      async (f) =>
        (await readFile(join(REPO, f), 'utf8').catch(() => '')) !== (await readFile(join(installed, f), 'utf8')),
    ),
  );
  return files.filter((_, k) => differs[k]).sort();
}

type Student = 'correct' | 'wrong' | 'hangs' | 'init';

// A course directory holding the package with the new stage; the student's src/wc.ts from `student`, or none for
// `init` (init writes the course). Also what changed in the package copy.
async function courseWith(student: Student): Promise<{ dir: string; bin: string; installed: string }> {
  const dir = await mkdtemp(join(scratch.root, 'courses', `third-mode-${student}-`));
  await chmod(dir, 0o755);
  const bin = await writeInstall(dir);
  const installed = join(dir, 'node_modules', 'theinference');
  // The mode: its folder, its row in the table of modes. The stage: its row in stages.ts, and its data.
  await cp(join(FIXTURE, 'wc'), join(installed, 'src', 'modes', 'wc'), { recursive: true });
  const table = join(installed, 'src', 'modes', 'mode-table.ts');
  const modeRow = await readFile(join(FIXTURE, 'mode-row.txt'), 'utf8');
  await writeFile(table, insertRow(await readFile(table, 'utf8'), 'export const MODE_TABLE', '] as const;', modeRow));
  const stages = join(installed, 'src', 'course', 'stages.ts');
  const stageRow = await readFile(join(FIXTURE, 'stage-row.txt'), 'utf8');
  await writeFile(stages, insertRow(await readFile(stages, 'utf8'), 'export const STAGES', '];', stageRow));
  await cp(join(FIXTURE, 'package'), installed, { recursive: true });
  if (student === 'init') return { dir, bin, installed };
  // The student's side: the course's program.ts, an ESM package.json, and the one file the stage writes.
  await cp(join(REPO, 'program.ts'), join(dir, 'program.ts'));
  await writeFile(join(dir, 'package.json'), '{ "name": "course", "private": true, "type": "module" }\n');
  await mkdir(join(dir, 'src'));
  await cp(join(FIXTURE, student, 'src', 'wc.ts'), join(dir, 'src', 'wc.ts'));
  return { dir, bin, installed };
}

// The json reporter's report of a run.
type Report = { stage: string; passed: number; failed: number; tests: { message: string | null }[] };

describe('a stage of a new kind, added as a folder, two rows and its data', () => {
  let correct: Awaited<ReturnType<typeof courseWith>>;
  beforeAll(async () => {
    correct = await courseWith('correct');
  });

  it('changes nothing of the package but the folder, the two rows and the data', async () => {
    const folder = (await filesUnder(join(FIXTURE, 'wc'))).map((f) => join('src', 'modes', 'wc', f));
    const data = await filesUnder(join(FIXTURE, 'package'));
    expect(await changedFiles(correct.installed)).toEqual(
      [...folder, 'src/modes/mode-table.ts', 'src/course/stages.ts', ...data].sort(),
    );
    // The data: the case schema, cases and snapshots, the stub init writes, the page.
    expect(data.map((f) => f.split('/')[0]).sort()).toEqual(
      expect.arrayContaining(['cases', 'course-template', 'docs', 'snapshots']),
    );
  });

  it('lists the stage last, with its cases', async () => {
    const run = await theinference(correct.bin, correct.dir, ['stages']);
    expect(run.exitCode).toBe(0);
    const listed = run.stdout.split('\n').filter((line) => /^ *\d+ /.test(line));
    expect(listed.at(-1)).toMatch(/^ *\d+ +word-count +Count the words +2 cases$/);
  }, 120_000);

  it('grades a right count: every case passes', async () => {
    const run = await theinference(correct.bin, correct.dir, ['test', '--stage', 'word-count', '--reporter', 'json']);
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.exitCode).toBe(0);
    const report = JSON.parse(run.stdout) as Report;
    expect(report).toMatchObject({ stage: 'word-count', passed: 2, failed: 0 });
  }, 120_000);

  it('fails a wrong count on the case it gets wrong, saying what count returned', async () => {
    const { dir, bin } = await courseWith('wrong');
    const run = await theinference(bin, dir, ['test', '--stage', 'word-count']);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toContain('count("  two   words ") returned 7, expected 2');
    expect(run.stdout).toContain('count the words: the runs of characters between whitespace');
    expect(run.stdout).toMatch(/1 passed/);
    expect(run.stdout).toMatch(/1 failed/);
  }, 120_000);

  it("names a count that never returns by the stage export, in no other mode's words", async () => {
    const { dir, bin } = await courseWith('hangs');
    const run = await theinference(bin, dir, [
      'test',
      '--stage',
      'word-count',
      '--timeout',
      '2000',
      '--reporter',
      'json',
    ]);
    expect(run.exitCode).toBe(1);
    const messages = (JSON.parse(run.stdout) as Report).tests.map((t) => t.message ?? '');
    expect(messages).toHaveLength(2);
    for (const message of messages) {
      expect(message).toMatch(
        /the case did not finish within 2 s: a loop or an `await` that never ends in your code \((loading it, )?`count` or what it runs\)/,
      );
      expect(message).not.toMatch(/makeExecute|Tools|runLoop|request/);
    }
  }, 120_000);

  it('init --stage writes the stub, which fails every case pointing at the stage page', async () => {
    const { dir, bin, installed } = await courseWith('init');
    const init = await theinference(bin, dir, ['init', '--stage', 'word-count', '--from', installed]);
    expect(init.exitCode, init.stderr).toBe(0);
    expect(await readFile(join(dir, 'src', 'wc.ts'), 'utf8')).toBe(
      await readFile(join(FIXTURE, 'package', 'course-template', 'src', 'wc.ts'), 'utf8'),
    );
    const run = await theinference(bin, dir, ['test', '--stage', 'word-count', '--reporter', 'json']);
    expect(run.exitCode).toBe(1);
    const report = JSON.parse(run.stdout) as Report;
    expect(report).toMatchObject({ passed: 0, failed: 2 });
    for (const t of report.tests) expect(t.message).toContain('docs/stages/word-count.md');
  }, 120_000);
});
