// Without the sandbox, a program's descendants are found through /proc before it is killed: a command in a
// process group (and session) of its own, as the reference bash starts them, dies with it.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { allDead, killTree } from '../../../../src/grade/run/isolation/kill-tree.ts';
import { processRunning } from '../../course-fixture.ts';

describe('killTree', () => {
  it('kills the root, a child in its group, and a grandchild that made a session of its own', async () => {
    const root = spawn('sh', ['-c', 'sleep 9876401 & setsid sleep 9876402 & wait'], {
      detached: true,
      stdio: 'ignore',
    });
    await expect
      .poll(async () => (await processRunning('sleep 9876401')) && (await processRunning('sleep 9876402')))
      .toBe(true);
    const killed = killTree(root.pid!);
    expect(killed.length).toBeGreaterThanOrEqual(3);
    await expect.poll(() => allDead(killed)).toBe(true);
    expect([await processRunning('sleep 9876401'), await processRunning('sleep 9876402')]).toEqual([false, false]);
  });

  it('is fine with a root that is already gone', () => {
    const child = spawn('true', { detached: true });
    return new Promise<void>((done) => {
      child.on('exit', () => {
        expect(allDead(killTree(child.pid!))).toBe(true);
        done();
      });
    });
  });
});
