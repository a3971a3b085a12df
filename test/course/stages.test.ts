// The course's stages as data: in course order with their titles, each one's cases counted under a package root,
// the stages before one, and an unknown stage refused with the list of known ones.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HarnessError } from '../../src/errors.ts';
import { hasAspect, MODE_NAMES, schemaOf } from '../../src/modes/mode-table.ts';
import { earlierStages, listStages, packageRoot, requireStage, STAGES, stageOf } from '../../src/course/stages.ts';

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'theinference-stages-'));
  await mkdir(join(root, 'cases', 'agent-loop', 'nested'), { recursive: true });
  await mkdir(join(root, 'cases', 'register-tools'), { recursive: true });
  for (const name of ['a.json', 'b.json', 'notes.md']) await writeFile(join(root, 'cases', 'agent-loop', name), '{}');
  await writeFile(join(root, 'cases', 'register-tools', 'only.json'), '{}');
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
  it('is the course in order: Run the loop, then Register the toolset', () => {
    expect(STAGES.map((s) => [s.slug, s.title, s.mode])).toEqual([
      ['agent-loop', 'Run the loop', 'loop'],
      ['register-tools', 'Register the toolset', 'dispatch'],
    ]);
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
});

describe('listStages', () => {
  it('lists every stage in course order, from 1, counting only the .json files of its cases/ directory', async () => {
    expect((await listStages(root)).map((s) => [s.order, s.slug, s.caseCount])).toEqual([
      [1, 'agent-loop', 2],
      [2, 'register-tools', 1],
    ]);
  });

  it('counts no case where a stage has no cases/ directory', async () => {
    expect((await listStages(join(root, 'nowhere'))).map((s) => s.caseCount)).toEqual([0, 0]);
  });

  it('finds the cases of every stage in this package', async () => {
    for (const stage of await listStages(packageRoot())) expect(stage.caseCount, stage.slug).toBeGreaterThan(0);
  });
});

describe('stageOf and earlierStages', () => {
  it('finds a stage by slug, and nothing for another name', () => {
    expect(stageOf('agent-loop')?.title).toBe('Run the loop');
    expect(stageOf('toString')).toBeUndefined();
  });

  it('lists the stages before one, nearest first', () => {
    expect(earlierStages('register-tools').map((s) => s.slug)).toEqual(['agent-loop']);
    expect(earlierStages('agent-loop')).toEqual([]);
    expect(earlierStages('nope')).toEqual([]);
  });
});

describe('requireStage', () => {
  it('returns a known stage with its place and case count', async () => {
    expect(await requireStage(root, 'register-tools')).toMatchObject({
      slug: 'register-tools',
      order: 2,
      caseCount: 1,
    });
  });

  it('refuses an unknown stage, naming the known ones and how to list them', async () => {
    const error = await requireStage(root, 'gamma').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).code).toBe('UNKNOWN_STAGE');
    expect((error as HarnessError).message).toBe(
      "unknown stage 'gamma'. Known stages: agent-loop, register-tools. Run `npx theinference stages` to list them with their cases.",
    );
  });
});
