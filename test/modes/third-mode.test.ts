// A stage in a new driver mode is one folder, one row in the table of modes and one in stages.ts, with its cases:
// a copy of the package gets the fixture mode `wc` (test/fixtures/third-mode/) that way and nothing else, and the
// real grader (its bin, a program process per batch, the sandbox) grades a course of that stage with it: the
// student's right count passes every case, a wrong one fails the case it gets wrong, saying how, in the mode's
// own words.
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

// The package copy the course uses (node_modules/theinference), with the mode added, and what changed in its src/.
let changed: string[] = [];

// A course directory holding the package with the third mode, and the student's src/wc.ts from `student`.
async function courseWith(student: 'correct' | 'wrong'): Promise<{ dir: string; bin: string }> {
  const dir = await mkdtemp(join(scratch.root, 'courses', `third-mode-${student}-`));
  await chmod(dir, 0o755);
  const bin = await writeInstall(dir);
  const installed = join(dir, 'node_modules', 'theinference');
  // The mode: its folder, its row in the table of modes. The stage: its row in stages.ts, its cases and snapshots.
  await cp(join(FIXTURE, 'wc'), join(installed, 'src', 'modes', 'wc'), { recursive: true });
  const table = join(installed, 'src', 'modes', 'mode-table.ts');
  const modeRow = await readFile(join(FIXTURE, 'mode-row.txt'), 'utf8');
  await writeFile(table, insertRow(await readFile(table, 'utf8'), 'export const MODE_TABLE', '] as const;', modeRow));
  const stages = join(installed, 'src', 'course', 'stages.ts');
  const stageRow = await readFile(join(FIXTURE, 'stage-row.txt'), 'utf8');
  await writeFile(stages, insertRow(await readFile(stages, 'utf8'), 'export const STAGES', '];', stageRow));
  await cp(join(FIXTURE, 'package'), installed, { recursive: true });
  // The student's side: the course's program.ts, an ESM package.json, and the one file the stage writes.
  await cp(join(REPO, 'program.ts'), join(dir, 'program.ts'));
  await writeFile(join(dir, 'package.json'), '{ "name": "course", "private": true, "type": "module" }\n');
  await mkdir(join(dir, 'src'));
  await cp(join(FIXTURE, student, 'src', 'wc.ts'), join(dir, 'src', 'wc.ts'));
  const src = await filesUnder(join(installed, 'src'));
  const differs = await Promise.all(
    src.map(
      async (f) =>
        (await readFile(join(REPO, 'src', f), 'utf8').catch(() => '')) !==
        (await readFile(join(installed, 'src', f), 'utf8')),
    ),
  );
  changed = src.filter((_, k) => differs[k]).sort();
  return { dir, bin };
}

describe('a third driver mode, added as a folder and a row', () => {
  let correct: { dir: string; bin: string };
  beforeAll(async () => {
    correct = await courseWith('correct');
  });

  it('changes nothing of the package but its folder, its row, and the stage row', () => {
    expect(changed).toEqual([
      'course/stages.ts',
      'modes/mode-table.ts',
      'modes/wc/aspects.ts',
      'modes/wc/driver.ts',
      'modes/wc/judge.ts',
    ]);
  });

  it('grades a right count: every case passes', async () => {
    const run = await theinference(correct.bin, correct.dir, ['test', '--stage', 'word-count', '--reporter', 'json']);
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.exitCode).toBe(0);
    const report = JSON.parse(run.stdout) as { stage: string; passed: number; failed: number };
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
});
