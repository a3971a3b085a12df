// Which runs earn the "what comes next" lines: a whole stage, green, in a course that has not added the next one.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nextStep } from '../../src/cli/next-step.ts';
import { caseFileNames, STAGES } from '../../src/course/stages.ts';
import type { CaseResult, RunReport } from '../../src/grade/types.ts';
import { REPO } from '../support/reference-course.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'theinference-next-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const first = STAGES[0]!;
const second = STAGES[1]!;

async function report(stage: string, status: 'pass' | 'fail' = 'pass', keep = Infinity): Promise<RunReport> {
  const names = (await caseFileNames(REPO, stage)).slice(0, keep);
  const cases = names.map((n) => ({ name: n.replace(/\.json$/, ''), status }) as CaseResult);
  const passed = status === 'pass' ? cases.length : 0;
  return { stage, dir, cases, passed, failed: cases.length - passed, durationMs: 1 };
}

describe('nextStep', () => {
  it('names the next stage after a whole stage passes', async () => {
    expect(nextStep(await report(first.slug), REPO)).toContain(`  npx theinference init --stage ${second.slug}`);
  });

  it('names only the earlier stages the course directory has among what its `npm test` grades', async () => {
    const third = STAGES[2]!;
    const lines = async (): Promise<string> => nextStep(await report(third.slug), REPO).join('\n');
    expect(await lines()).toContain(`grades ${STAGES[3]!.slug}, then ${third.slug}: `);
    for (const f of first.writes) {
      await mkdir(join(dir, f, '..'), { recursive: true });
      await writeFile(join(dir, f), '');
    }
    expect(await lines()).toContain(`grades ${STAGES[3]!.slug}, then ${third.slug}, then ${first.slug}: `);
  });

  it('says nothing after a failure, or a run of a few cases (--case, --failed, --shard)', async () => {
    expect(nextStep(await report(first.slug, 'fail'), REPO)).toEqual([]);
    expect(nextStep(await report(first.slug, 'pass', 2), REPO)).toEqual([]);
  });

  it('says nothing when the course directory has the next stage already', async () => {
    for (const f of second.writes) {
      await mkdir(join(dir, f, '..'), { recursive: true });
      await writeFile(join(dir, f), '');
    }
    expect(nextStep(await report(first.slug), REPO)).toEqual([]);
  });
});
