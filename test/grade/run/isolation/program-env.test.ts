// The environment a program starts with: a handful of names from the grader's, nothing else.
import { describe, expect, it } from 'vitest';
import { PASSED_NAMES, programEnv } from '../../../../src/grade/run/isolation/program-env.ts';

describe('programEnv', () => {
  const grader = {
    PATH: '/usr/bin:/bin',
    LANG: 'C.UTF-8',
    TZ: 'Europe/Paris',
    TSX_DISABLE_CACHE: '1',
    ANTHROPIC_API_KEY: 'sk-ant-x',
    GITHUB_TOKEN: 'ghp_x',
    GITHUB_ENV: '/home/runner/work/_temp/_runner_file_commands/set_env',
    GITHUB_WORKSPACE: '/home/runner/work/c',
    NODE_OPTIONS: '--require=/tmp/evil.cjs',
    npm_package_json: '/c/node_modules/theinference/package.json',
    INIT_CWD: '/c',
    HOME: '/home/me',
    TMPDIR: '/tmp',
    CI: 'true',
  };

  it('passes only the listed names, and gives TMPDIR and HOME its own temp dir', () => {
    expect(programEnv(grader, '/tmp/run/tmp')).toEqual({
      PATH: '/usr/bin:/bin',
      LANG: 'C.UTF-8',
      TZ: 'Europe/Paris',
      TSX_DISABLE_CACHE: '1',
      TMPDIR: '/tmp/run/tmp',
      HOME: '/tmp/run/tmp',
    });
  });

  it('gives a PATH when the grader has none, and never a token, a GITHUB_* or NODE_OPTIONS', () => {
    expect(programEnv({}, '/t').PATH).toBe('/usr/local/bin:/usr/bin:/bin');
    expect(PASSED_NAMES.filter((n) => /TOKEN|KEY|GITHUB|NODE_OPTIONS|npm_/.test(n))).toEqual([]);
  });
});
