// Turns an --isolation mode into a decision for one command: sandbox its program processes or not, with the
// warning `auto` gives once when it cannot, or the error `required` fails with (exit 2).
import { HarnessError } from '../../../errors.ts';
import type { IsolationMode } from './isolation-mode.ts';
import { probeSandbox } from './probe-sandbox.ts';

// Whether to sandbox, and what to tell the user once when `auto` found no sandbox.
export type SandboxChoice = { sandbox: boolean; warning?: string };

// Decides; `required` without a working sandbox is a HarnessError saying how to get one.
export async function chooseSandbox(mode: IsolationMode, env: NodeJS.ProcessEnv): Promise<SandboxChoice> {
  if (mode === 'off') return { sandbox: false };
  const probe = await probeSandbox(env);
  if (probe.available) return { sandbox: true };
  if (mode === 'required') {
    throw new HarnessError(
      'NO_SANDBOX',
      `--isolation required, but ${probe.reason}. To sandbox the program under test: ${probe.fix}. ` +
        'Or grade without the sandbox: --isolation off (the program can then read your files and environment).',
    );
  }
  return {
    sandbox: false,
    warning:
      `the program under test runs without a sandbox: ${probe.reason}. Unprotected: it can read your environment ` +
      '(tokens, keys) and files (the snapshots it is graded against), write outside its temp dir, and signal the ' +
      `grader. To sandbox it: ${probe.fix}. (--isolation required makes this an error; --isolation off skips the check.)`,
  };
}
