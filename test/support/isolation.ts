// How the suite confines the program processes it starts itself (vitest.config.ts sets THEINFERENCE_ISOLATION):
// in the sandbox unless it is `off`.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Confinement } from '../../src/grade/run/program-process.ts';

// Whether the suite's program processes run in the sandbox.
export const SANDBOX = process.env.THEINFERENCE_ISOLATION !== 'off';

// The confinement for runProgram and runBatches in tests: the suite's sandbox choice, no tsx cache.
export const CONFINEMENT: Confinement = { sandbox: SANDBOX, tsxCache: undefined };

// Whether this machine lets the suite make a file immutable (chattr +i: root, on a file system that supports it).
export const CHATTR_WORKS = ((): boolean => {
  const probe = join(tmpdir(), `theinference-chattr-probe-${process.pid}`);
  try {
    execFileSync('sh', ['-c', `touch '${probe}' && chattr +i '${probe}' && chattr -i '${probe}'`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { force: true });
  }
})();
