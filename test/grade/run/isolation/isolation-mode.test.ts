// The --isolation mode when the flag is not given.
import { describe, expect, it } from 'vitest';
import { defaultIsolationMode } from '../../../../src/grade/run/isolation/isolation-mode.ts';

describe('defaultIsolationMode', () => {
  it.each<[NodeJS.ProcessEnv, string]>([
    [{}, 'auto'],
    [{ CI: 'true' }, 'required'],
    [{ CI: '1' }, 'required'],
    [{ CI: 'false' }, 'auto'],
    [{ CI: '0' }, 'auto'],
    [{ CI: '' }, 'auto'],
    [{ CI: 'true', THEINFERENCE_ISOLATION: 'off' }, 'off'],
    [{ THEINFERENCE_ISOLATION: 'required' }, 'required'],
    [{ THEINFERENCE_ISOLATION: 'strict', CI: 'true' }, 'required'],
  ])('%j → %s', (env, mode) => {
    expect(defaultIsolationMode(env)).toBe(mode);
  });
});
