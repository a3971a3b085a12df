// The course's stages as data: in course order with their titles, each one's cases counted under a package root,
// the stages before one, and an unknown stage refused with the list of known ones.
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HarnessError } from '../../src/errors.ts';
import { hasAspect, MODE_NAMES, schemaOf } from '../../src/modes/mode-table.ts';
import {
  earlierStages,
  firstStageIn,
  listStages,
  packageRoot,
  requireStage,
  STAGES,
  stageOf,
  studentCode,
} from '../../src/course/stages.ts';

let root: string;

// A package root whose stage k (from 1) has k case files, a note and a folder beside them.
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'theinference-stages-'));
  for (const [k, stage] of STAGES.entries()) {
    const dir = join(root, 'cases', stage.slug);
    await mkdir(join(dir, 'nested.json'), { recursive: true });
    await writeFile(join(dir, 'notes.md'), '{}');
    for (let n = 0; n <= k; n += 1) await writeFile(join(dir, `case-${n}.json`), '{}');
  }
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('packageRoot', () => {
  it('is the directory holding this package.json, cases/ and snapshots/', () => {
    const r = packageRoot();
    expect(['package.json', 'cases', 'snapshots'].filter((f) => !existsSync(join(r, f)))).toEqual([]);
  });
});

describe('STAGES', () => {
  it('names each stage, title, student file and export once; a slug is a word a command line takes', () => {
    for (const key of ['slug', 'title', 'entry'] as const) {
      expect(new Set(STAGES.map((s) => s[key])).size, key).toBe(STAGES.length);
    }
    expect(new Set(STAGES.map((s) => s.writes[0])).size).toBe(STAGES.length);
    for (const s of STAGES) {
      expect(s.slug).toMatch(/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/);
      expect(s.entry).toMatch(/^[A-Za-z_$][\w$]*$/);
      expect(s.writes.length, s.slug).toBeGreaterThan(0);
    }
  });

  it("gives the driver each stage's first file and its export; a mode without a stage named runs its first", () => {
    for (const s of STAGES) {
      expect(studentCode(s)).toEqual({ module: `./${s.writes[0]}`, export: s.entry });
      expect(firstStageIn(s.mode)).toBe(STAGES.find((t) => t.mode === s.mode));
    }
  });

  it.each(STAGES.map((s) => [s.slug, s] as const))(
    "%s has its mode's schema, stubs, contract page and a driver mode",
    (_, s) => {
      const r = packageRoot();
      expect(existsSync(join(r, 'cases', schemaOf(s.mode)))).toBe(true);
      for (const file of s.writes) expect(existsSync(join(r, 'course-template', file)), file).toBe(true);
      for (const { path } of s.provides) expect(existsSync(join(r, path)), path).toBe(true);
      expect(existsSync(join(r, s.doc))).toBe(true);
      expect(MODE_NAMES).toContain(s.mode);
      // Its mode's folder has what every mode has: its driver and its judge.
      for (const aspect of ['driver', 'judge'] as const) expect(hasAspect(s.mode, aspect), aspect).toBe(true);
    },
  );

  it.each(STAGES.map((s) => [s.slug, s] as const))(
    '%s: the reference exports what the stub does, and the stub says it is not written yet',
    async (_, s) => {
      const r = packageRoot();
      const reference = (await import(pathToFileURL(join(r, s.writes[0]!)).href)) as Record<string, unknown>;
      expect(typeof reference[s.entry]).toBe('function');
      expect(readFileSync(join(r, 'course-template', s.writes[0]!), 'utf8')).toContain(`${s.entry} is not written yet`);
    },
  );
});

describe('listStages', () => {
  it('lists every stage in course order, from 1, counting only the .json files of its cases/ directory', async () => {
    expect((await listStages(root)).map((s) => [s.order, s.slug, s.caseCount])).toEqual(
      STAGES.map((s, k) => [k + 1, s.slug, k + 1]),
    );
  });

  it('counts no case where a stage has no cases/ directory', async () => {
    expect((await listStages(join(root, 'nowhere'))).map((s) => s.caseCount)).toEqual(STAGES.map(() => 0));
  });

  it('finds the cases of every stage in this package', async () => {
    for (const stage of await listStages(packageRoot())) expect(stage.caseCount, stage.slug).toBeGreaterThan(0);
  });
});

describe('stageOf and earlierStages', () => {
  it('finds a stage by slug, and nothing for another name', () => {
    for (const s of STAGES) expect(stageOf(s.slug)).toBe(s);
    expect(stageOf('toString')).toBeUndefined();
  });

  it('lists the stages before one, nearest first', () => {
    for (const [k, s] of STAGES.entries()) expect(earlierStages(s.slug)).toEqual(STAGES.slice(0, k).reverse());
    expect(earlierStages('nope')).toEqual([]);
  });
});

describe('requireStage', () => {
  it('returns a known stage with its place and case count', async () => {
    const last = STAGES.at(-1)!;
    expect(await requireStage(root, last.slug)).toMatchObject({
      slug: last.slug,
      order: STAGES.length,
      caseCount: STAGES.length,
    });
  });

  it('refuses an unknown stage, naming the known ones and how to list them', async () => {
    const error = await requireStage(root, 'gamma').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).code).toBe('UNKNOWN_STAGE');
    expect((error as HarnessError).message).toBe(
      `unknown stage 'gamma'. Known stages: ${STAGES.map((s) => s.slug).join(', ')}. Run \`npx theinference stages\` to list them with their cases.`,
    );
  });
});
