// Turns an --isolation mode into a decision for one command: sandbox its program processes or not, with the
// warning `auto` gives once when it cannot, or the error `required` fails with (exit 2).
import { HarnessError } from '../../../errors.ts';
import { defaultIsolationMode, type IsolationMode } from './isolation-mode.ts';
import { probeSandbox } from './probe-sandbox.ts';

// Whether to sandbox, and what to tell the user once when `auto` found no sandbox.
type SandboxChoice = { sandbox: boolean; warning?: string };

// Decides for the --isolation flag, or the default mode when it was not given; `required` without a working
// sandbox is a HarnessError saying how to get one.
export async function chooseSandbox(flag: IsolationMode | undefined, env: NodeJS.ProcessEnv): Promise<SandboxChoice> {
  const mode = flag ?? defaultIsolationMode(env);
  if (mode === 'off') return { sandbox: false };
  const probe = await probeSandbox(env);
  if (probe.available) return { sandbox: true };
  if (mode === 'required') {
    throw new HarnessError(
      'NO_SANDBOX',
      `${whyRequired(flag, env)}, but ${probe.reason}. To sandbox the program under test: ${probe.fix}. ` +
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

// Where `required` came from, in the words of whoever set it: a CI job that never wrote --isolation must not be told
// it did.
function whyRequired(flag: IsolationMode | undefined, env: NodeJS.ProcessEnv): string {
  if (flag !== undefined) return '--isolation required';
  if (env.THEINFERENCE_ISOLATION === 'required') return 'the sandbox is required (THEINFERENCE_ISOLATION=required)';
  return `the sandbox is required (CI is set: ${JSON.stringify(env.CI)}, which makes --isolation required the default)`;
}
