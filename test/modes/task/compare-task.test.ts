// What compareTask's first line says where the loop first went another way: a child cut short is said of the child
// (how many requests it sent, the contract's cap), not as the parent's request compared with the child's.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Case, Snapshot } from '../../../src/course/types.ts';
import type { TaskCaseData } from '../../../src/modes/task/case.ts';
import { runTaskCase } from '../../../src/modes/task/driver.ts';
import { compareTask } from '../../../src/modes/task/judge/compare-task.ts';
import { runTaskLoop as capCountedShort } from '../../fixtures/wrong-task/cap-counted-short.ts';
import { runTaskLoop as childApiErrorCaught } from '../../fixtures/wrong-task/child-api-error-caught.ts';
import { REPO } from '../../grade/course-fixture.ts';

async function loadCase(name: string): Promise<{ c: Case<TaskCaseData>; expected: unknown[] }> {
  const data = JSON.parse(await readFile(join(REPO, 'cases', 'delegate-task', `${name}.json`), 'utf8')) as TaskCaseData;
  const snapshot = JSON.parse(
    await readFile(join(REPO, 'snapshots', 'delegate-task', `${name}.json`), 'utf8'),
  ) as Snapshot;
  return { c: { stage: 'delegate-task', name, file: '', data }, expected: snapshot.results };
}

describe('compareTask', () => {
  it('says a child stopped a request short of the cap plainly', async () => {
    const { c, expected } = await loadCase('task-round-cap');
    const received = JSON.parse(JSON.stringify(await runTaskCase(c.data, capCountedShort as never))) as unknown[];
    const failure = compareTask(c, expected, received);
    expect(failure?.message).toMatch(
      /^the child loop \(task toolu_01TaskCap01\) stopped after 29 requests, where the contract's cap is 30: its turn 29 has stop_reason "tool_use", so its request 30 comes next, and runTaskLoop sent the parent's next request instead \(request 31 of 32\)$/,
    );
    expect(failure?.message).not.toMatch(/messages where|were expected/);
    expect(failure?.hint).toMatch(/^the child stopped after its request 29/);
  });
});

describe('compareTask: a child whose request is answered with an API error', () => {
  it('says the error went back to the parent as the task result, where it should have left runTaskLoop', async () => {
    const { c, expected } = await loadCase('task-child-tool-errors');
    const received = JSON.parse(JSON.stringify(await runTaskCase(c.data, childApiErrorCaught as never))) as unknown[];
    const failure = compareTask(c, expected, received);
    expect(failure?.message).toBe(
      "runTaskLoop sent another request after the API error: request 4, the child's request 3 (task toolu_01TaskSettings01), was answered with HTTP 529 overloaded_error, which the SDK throws; that error leaves runTaskLoop, and no request follows it",
    );
    expect(failure?.hint).toMatch(
      /^the API error \(HTTP 529 overloaded_error\) of request 4, the child's request 3 \(task toolu_01TaskSettings01\), went back to the parent as the result of task toolu_01TaskSettings01: a try\/catch around the child loop caught it/,
    );
  });
});
