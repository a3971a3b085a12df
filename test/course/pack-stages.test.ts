// The package as `npm pack` makes it, checked stage by stage from the rows: no stage's reference ships, source or
// compiled; every stage's cases, snapshots, schema, stubs, page and provided files do; and nothing else of the course
// does (no folder of cases or snapshots, stub or stage page that no row names, no recording, no catalogue of wrong
// solutions, nothing of test/).
import { beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { STAGES } from '../../src/course/stages.ts';
import { schemaOf } from '../../src/modes/mode-table.ts';
import { studentEnv } from '../support/pack-tarball.ts';
import { REPO } from '../support/reference-course.ts';
import { isReference, shippedData } from '../support/stage-files.ts';

let packed: string[] = [];
let tracked: string[] = [];

beforeAll(async () => {
  // --ignore-scripts: the list of files only, without building dist/ (what is there is listed, as it would ship).
  const listed = await execa('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: REPO,
    env: studentEnv(),
    extendEnv: false,
  });
  packed = (JSON.parse(listed.stdout) as [{ files: { path: string }[] }])[0].files.map((f) => f.path).sort();
  tracked = (await execa('git', ['ls-files'], { cwd: REPO })).stdout.split('\n');
}, 120_000);

const under = (paths: string[], folder: string): string[] => paths.filter((p) => p.startsWith(`${folder}/`));

describe.each(STAGES.map((s) => [s.slug, s] as const))('the packed package at %s', (slug, s) => {
  it('holds no reference of it, neither the source nor what tsc made of it', () => {
    expect(packed.some((p) => p.startsWith('dist/'))).toBe(true);
    expect(packed.filter((p) => isReference(s, p))).toEqual([]);
  });

  it('holds every committed file of its cases, snapshots and what it provides, its schema, stubs and page', () => {
    const { folders, files } = shippedData(s);
    for (const folder of folders) {
      const committed = under(tracked, folder);
      expect(committed.length, `${folder} of ${slug} holds no committed file`).toBeGreaterThan(0);
      expect(
        committed.filter((p) => !packed.includes(p)),
        `${folder} of ${slug}`,
      ).toEqual([]);
    }
    expect(files.filter((p) => !packed.includes(p))).toEqual([]);
  });
});

describe('the packed package', () => {
  // The first path segments under `folder` of the packed files: the stage folders of cases/, the files of a folder.
  const names = (folder: string): string[] =>
    [...new Set(under(packed, folder).map((p) => p.slice(folder.length + 1).split('/')[0]!))].sort();

  it('holds the cases and snapshots of the rows and no other, and only the schemas of their modes', () => {
    const slugs = STAGES.map((s) => s.slug);
    const schemas = STAGES.map((s) => schemaOf(s.mode));
    expect(names('cases')).toEqual([...new Set([...slugs, ...schemas])].sort());
    expect(names('snapshots')).toEqual([...slugs].sort());
  });

  it("holds the stubs of the rows' files and no other, and only the rows' stage pages", () => {
    const stubs = STAGES.flatMap((s) => s.writes.map((f) => `course-template/${f}`));
    expect(under(packed, 'course-template/src')).toEqual([...new Set(stubs)].sort());
    const pages = STAGES.map((s) => s.doc).filter((d) => d.startsWith('docs/stages/'));
    expect(under(packed, 'docs/stages')).toEqual([...pages].sort());
  });

  it('holds no recording, no catalogue of wrong solutions, nothing of test/', () => {
    const catalogues = STAGES.flatMap((s) => (s.catalogue === undefined ? [] : [s.catalogue.file]));
    expect(catalogues.length).toBeGreaterThan(0);
    expect(packed.filter((p) => /^(test|recordings|bench|scripts)\//.test(p) || catalogues.includes(p))).toEqual([]);
  });
});
