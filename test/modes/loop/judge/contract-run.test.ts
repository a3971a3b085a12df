// contractRun works out, from a script alone, what a loop that keeps the contract sends and returns: it must agree
// with the reference runLoop on every probe script (run through the driver's fake API and the real SDK) and with
// every agent-loop case's snapshot.
import { expect, test } from 'vitest';
import { runLoopCase } from '../../../../src/modes/loop/driver.ts';
import { runLoop } from '../../../../src/agent-loop.ts';
import { contractRun } from '../../../../src/modes/loop/judge/contract-run.ts';
import { splitLoopResults } from '../../../../src/modes/loop/judge/loop-results.ts';
import { PROBE_SCRIPTS } from '../../../../src/modes/loop/judge/probe-scripts.ts';
import { loadLoopCases } from '../../../fixtures/wrong-loop/first-failure.ts';

const whole = (results: unknown[]) => splitLoopResults(JSON.parse(JSON.stringify(results)) as unknown[]);

test.each(PROBE_SCRIPTS.map((s) => [s.description, s] as const))('the reference runLoop on "%s"', async (_, script) => {
  const ran = await runLoopCase({ ...script, outputs: script.outputs ?? {} } as never, runLoop as never);
  expect(whole(ran)).toEqual(whole(contractRun(script)));
});

test('every agent-loop case: its snapshot', async () => {
  const cases = await loadLoopCases();
  expect(cases.length).toBeGreaterThan(20);
  for (const { case: c, expected } of cases) expect(whole(contractRun(c.data)), c.name).toEqual(whole(expected));
});
