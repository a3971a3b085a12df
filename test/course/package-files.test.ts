// package.json `files` follows from the stage rows: each row's references are left out by its two lines, and no line
// leaves out what no row writes. A row added without its lines fails here, naming the lines to add. (A check rather
// than a generator: npm reads `files` as committed, from a git install and from `npm pack --ignore-scripts` alike,
// so no script could run in time for every packer; the lines must be in the file, and this says which.)
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STAGES } from '../../src/course/stages.ts';
import { REPO } from '../support/reference-course.ts';
import { exclusionLines, isReference, referenceFiles, shippedData } from '../support/stage-files.ts';

const files = (JSON.parse(await readFile(join(REPO, 'package.json'), 'utf8')) as { files: string[] }).files;

describe('package.json files', () => {
  it.each(STAGES.map((s) => [s.slug, s] as const))("leaves out %s's reference, source and compiled", (slug, s) => {
    const missing = exclusionLines(s).filter((line) => !files.includes(line));
    expect(
      missing,
      `package.json "files" lacks ${JSON.stringify(missing)}: stage ${slug}'s reference would ship`,
    ).toEqual([]);
  });

  it('leaves out nothing but the references of the rows', () => {
    const wanted = new Set(STAGES.flatMap(exclusionLines));
    const stale = files.filter((line) => line.startsWith('!') && !wanted.has(line));
    expect(stale, `package.json "files" has ${JSON.stringify(stale)}, which no stage row writes: remove them`).toEqual(
      [],
    );
  });

  it("ships the folders that hold every row's data", () => {
    const top = (path: string): string => path.split('/')[0]!;
    for (const s of STAGES) {
      const { folders, files: data } = shippedData(s);
      for (const path of [...folders, ...data]) expect(files, `${s.slug}: ${path}`).toContain(top(path));
    }
  });
});

describe('the rules', () => {
  const [first] = STAGES;
  it('names a reference by its source and by what tsc makes of it, and nothing beside them', () => {
    const s = { ...first!, writes: ['src/execute.ts'] };
    expect(referenceFiles(s)).toEqual([{ source: 'src/execute.ts', compiled: 'dist/execute' }]);
    expect(exclusionLines(s)).toEqual(['!src/execute.ts', '!dist/execute.*']);
    const cases: [string, boolean][] = [
      ['src/execute.ts', true],
      ['dist/execute.js', true],
      ['dist/execute.d.ts', true],
      ['dist/execute.js.map', true],
      ['dist/execute-helper.js', false],
      ['dist/execute/x.js', false],
      ['src/tools/execute.ts', false],
    ];
    for (const [path, is] of cases) expect(isReference(s, path), path).toBe(is);
  });

  it('refuses a student file outside src/ or not TypeScript, which dist/ would not mirror', () => {
    expect(() => referenceFiles({ ...first!, writes: ['lib/x.js'] })).toThrow(/a \.ts file under src\//);
  });
});
