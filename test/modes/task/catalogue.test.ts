// Each wrong task loop of the catalogue (test/fixtures/wrong-task/), graded in-process on the delegate-task cases
// written by hand (the recorded ones are long, and `theinference audit --stage delegate-task` grades all): some case
// fails it, and every case it fails gets the one hint its entry names.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Case, Snapshot } from '../../../src/course/types.ts';
import type { TaskCaseData } from '../../../src/modes/task/case.ts';
import { runTaskCase } from '../../../src/modes/task/driver.ts';
import { compareTask } from '../../../src/modes/task/judge/compare-task.ts';
import { runTaskLoop } from '../../../src/task-loop.ts';
import { CATALOGUE } from '../../fixtures/wrong-task/catalogue.ts';
import { REPO } from '../../grade/course-fixture.ts';

async function handWritten(): Promise<{ c: Case<TaskCaseData>; expected: unknown[] }[]> {
  const dir = join(REPO, 'cases', 'delegate-task');
  const names = (await readdir(dir)).filter((f) => f.startsWith('task-')).map((f) => f.replace(/\.json$/, ''));
  return Promise.all(
    names.sort().map(async (name) => {
      const data = JSON.parse(await readFile(join(dir, `${name}.json`), 'utf8')) as TaskCaseData;
      const snapshot = JSON.parse(
        await readFile(join(REPO, 'snapshots', 'delegate-task', `${name}.json`), 'utf8'),
      ) as Snapshot;
      return { c: { stage: 'delegate-task', name, file: '', data }, expected: snapshot.results };
    }),
  );
}

const cases = await handWritten();

async function hints(loop: unknown): Promise<(string | undefined)[]> {
  const found: (string | undefined)[] = [];
  for (const { c, expected } of cases) {
    const received = JSON.parse(JSON.stringify(await runTaskCase(c.data, loop as never))) as unknown[];
    const failure = compareTask(c, expected, received);
    if (failure !== undefined) found.push(failure.hint);
  }
  return found;
}

describe('the wrong task loops', () => {
  it('has at least 15, and the reference passes every hand-written case', async () => {
    expect(CATALOGUE.length).toBeGreaterThanOrEqual(15);
    expect(cases.length).toBeGreaterThanOrEqual(10);
    expect(await hints(runTaskLoop)).toEqual([]);
  });

  it.each(CATALOGUE.map((entry) => [entry.slug, entry] as const))('%s fails with its one hint', async (_, entry) => {
    const found = await hints(entry.runLoop);
    expect(found.length).toBeGreaterThan(0);
    for (const hint of found) expect(hint).toMatch(entry.hint);
  });
});
