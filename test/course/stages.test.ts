// Stage discovery: the package root found from the source's own location, stages listed with case counts, and
// an unknown stage refused with the list of known ones.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HarnessError } from '../../src/errors.ts';
import { listStages, packageRoot, requireStage } from '../../src/course/stages.ts';

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'theinference-stages-'));
  await mkdir(join(root, 'cases', 'beta'), { recursive: true });
  await mkdir(join(root, 'cases', 'alpha', 'nested'), { recursive: true });
  await writeFile(join(root, 'cases', 'case.schema.json'), '{}');
  for (const name of ['a.json', 'b.json', 'notes.md']) await writeFile(join(root, 'cases', 'alpha', name), '{}');
  await writeFile(join(root, 'cases', 'beta', 'only.json'), '{}');
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

describe('listStages', () => {
  it('lists every directory under cases/, sorted, counting only its .json files', async () => {
    expect(await listStages(root)).toEqual([
      { slug: 'alpha', caseCount: 2 },
      { slug: 'beta', caseCount: 1 },
    ]);
  });

  it('lists nothing when there is no cases/ directory', async () => {
    expect(await listStages(join(root, 'nowhere'))).toEqual([]);
  });

  it('finds the register-tools stage in this package', async () => {
    const stages = await listStages(packageRoot());
    expect(stages.find((s) => s.slug === 'register-tools')?.caseCount).toBeGreaterThan(0);
  });
});

describe('requireStage', () => {
  it('returns a known stage', async () => {
    expect(await requireStage(root, 'beta')).toEqual({ slug: 'beta', caseCount: 1 });
  });

  it('refuses an unknown stage, naming the known ones and how to list them', async () => {
    const error = await requireStage(root, 'gamma').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).code).toBe('UNKNOWN_STAGE');
    expect((error as HarnessError).message).toBe(
      "unknown stage 'gamma'. Known stages: alpha, beta. Run `npx theinference stages` to list them with their cases.",
    );
  });
});
