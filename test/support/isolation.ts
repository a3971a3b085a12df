// How the suite confines the program processes it starts itself (vitest.config.ts sets THEINFERENCE_ISOLATION):
// in the sandbox unless it is `off`.
import type { Confinement } from '../../src/grade/run/program-process.ts';

// Whether the suite's program processes run in the sandbox.
export const SANDBOX = process.env.THEINFERENCE_ISOLATION !== 'off';

// The confinement for runProgram and runBatches in tests: the suite's sandbox choice, no tsx cache.
export const CONFINEMENT: Confinement = { sandbox: SANDBOX, tsxCache: undefined };
