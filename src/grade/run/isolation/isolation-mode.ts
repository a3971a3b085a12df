// The --isolation modes: whether the program under test runs in the OS sandbox (docs/sandbox.md).

// `auto` sandboxes when the sandbox works here and otherwise warns once; `required` fails closed (exit 2);
// `off` never sandboxes.
export const ISOLATION_MODES = ['auto', 'required', 'off'] as const;

// An --isolation mode.
export type IsolationMode = (typeof ISOLATION_MODES)[number];

// The mode when --isolation is not given: THEINFERENCE_ISOLATION when it names one (a CI job's setting, the test
// suite's own), else `required` when CI is set (a passing verdict there must mean the code did the work), else
// `auto`.
export function defaultIsolationMode(env: NodeJS.ProcessEnv): IsolationMode {
  const named = env.THEINFERENCE_ISOLATION;
  if (isIsolationMode(named)) return named;
  return ciIsSet(env) ? 'required' : 'auto';
}

// Whether the grader runs in CI: `CI` set to anything but empty, `0` or `false` (what CI systems set it to).
export function ciIsSet(env: NodeJS.ProcessEnv): boolean {
  const ci = (env.CI ?? '').trim().toLowerCase();
  return !(ci === '' || ci === '0' || ci === 'false');
}

// Whether `value` names a mode.
export function isIsolationMode(value: unknown): value is IsolationMode {
  return (ISOLATION_MODES as readonly unknown[]).includes(value);
}
