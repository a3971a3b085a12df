// Deciding from the mode and the machine: the sandbox when it works here; without it, `auto` warns (saying what is
// unprotected and how to install it) and `required` fails closed with the install line. Found by starting a
// trivial sandbox, with bwrap looked up on the grader's PATH.
import { describe, expect, it } from 'vitest';
import { HarnessError } from '../../../../src/errors.ts';
import { chooseSandbox } from '../../../../src/grade/run/isolation/choose-sandbox.ts';
import { probeSandbox } from '../../../../src/grade/run/isolation/probe-sandbox.ts';
import { SANDBOX } from '../../../support/isolation.ts';

// A PATH on which there is no bwrap.
const WITHOUT = { PATH: '/nonexistent-theinference-path' };

describe('chooseSandbox', () => {
  it.runIf(SANDBOX)('sandboxes when bubblewrap starts a sandbox here, in either mode', async () => {
    expect(await probeSandbox(process.env)).toMatchObject({
      available: true,
      bwrap: expect.stringMatching(/\/bwrap$/),
    });
    expect(await chooseSandbox('auto', process.env)).toEqual({ sandbox: true });
    expect(await chooseSandbox('required', process.env)).toEqual({ sandbox: true });
  });

  it('does not look with --isolation off', async () => {
    expect(await chooseSandbox('off', WITHOUT)).toEqual({ sandbox: false });
  });

  it('runs unsandboxed under auto without bubblewrap, with a warning saying what is unprotected and how to install it', async () => {
    const choice = await chooseSandbox('auto', WITHOUT);
    expect(choice.sandbox).toBe(false);
    expect(choice.warning).toMatch(
      /^the program under test runs without a sandbox: bubblewrap \(bwrap\) is not installed\. Unprotected: it can read your environment/,
    );
    expect(choice.warning).toContain('sudo apt-get install bubblewrap');
  });

  it('fails closed under required without bubblewrap: a HarnessError with the install line', async () => {
    const error = await chooseSandbox('required', WITHOUT).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).code).toBe('NO_SANDBOX');
    expect((error as HarnessError).message).toMatch(
      /^--isolation required, but bubblewrap \(bwrap\) is not installed\. To sandbox the program under test: sudo apt-get install bubblewrap/,
    );
  });

  it.each([
    [
      { CI: 'true' },
      'the sandbox is required (CI is set: "true", which makes --isolation required the default), but bubblewrap',
    ],
    [
      { THEINFERENCE_ISOLATION: 'required' },
      'the sandbox is required (THEINFERENCE_ISOLATION=required), but bubblewrap',
    ],
    [
      { CI: '1', THEINFERENCE_ISOLATION: 'required' },
      'the sandbox is required (THEINFERENCE_ISOLATION=required), but bubblewrap',
    ],
  ])(
    'says where required came from when no --isolation was given (%j), never "--isolation required"',
    async (env, start) => {
      const error = await chooseSandbox(undefined, { ...WITHOUT, ...env }).catch((e: unknown) => e);
      expect((error as HarnessError).code).toBe('NO_SANDBOX');
      expect((error as HarnessError).message.startsWith(start)).toBe(true);
    },
  );

  it('takes the default mode when no --isolation was given: auto without CI', async () => {
    expect((await chooseSandbox(undefined, WITHOUT)).sandbox).toBe(false);
  });
});
