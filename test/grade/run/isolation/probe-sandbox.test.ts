// Whether the sandbox works here, found by starting a trivial one: on this machine it does, and the trivial
// sandbox leaves nothing behind, not even a zombie.
import { describe, expect, it } from 'vitest';
import { probeSandbox } from '../../../../src/grade/run/isolation/probe-sandbox.ts';
import { sampleChildren, zombiesLeftBy } from '../../../support/child-zombies.ts';
import { SANDBOX } from '../../../support/isolation.ts';

describe('probeSandbox', () => {
  it.runIf(SANDBOX)('finds the sandbox working, and leaves nothing of it unreaped', async () => {
    const children = sampleChildren(process.pid);
    // A PATH of its own, so that the answer is not one remembered from another test.
    const probe = await probeSandbox({ PATH: `${process.env.PATH}:/probe-sandbox-test` });
    const seen = children.stop();
    expect([probe.available, seen.length]).toEqual([true, 1]);
    expect(await zombiesLeftBy(seen)).toEqual([]);
  });
});
