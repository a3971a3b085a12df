// How the suite confines the program processes it starts itself (vitest.config.ts sets THEINFERENCE_ISOLATION):
// in the sandbox unless it is `off`.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROGRAM_USER } from '../../src/grade/run/isolation/program-user.ts';
import type { Confinement } from '../../src/grade/run/program-process.ts';

// Whether the suite's program processes run in the sandbox.
export const SANDBOX = process.env.THEINFERENCE_ISOLATION !== 'off';

// Whether the grader runs a program without the sandbox as its own user. A grader run as root runs it as nobody
// (src/grade/run/isolation/program-user.ts), who cannot reach the grader's environment, signal it, write its files
// or make a file immutable: a test that proves an attack real without the sandbox needs a grader not run as root.
export const AS_ITSELF = PROGRAM_USER === undefined;

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
