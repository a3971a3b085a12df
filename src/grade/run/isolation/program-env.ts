// The environment a program process starts with. The grader's own holds what a student's code must never see
// (ANTHROPIC_API_KEY, GITHUB_TOKEN, GITHUB_ENV, NODE_OPTIONS, npm_* paths into the grader package), so nothing is
// inherited but the few names below. Pure.

// Names passed through from the grader's environment when set there (docs/sandbox.md lists them).
export const PASSED_NAMES = ['PATH', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ', 'TSX_DISABLE_CACHE'] as const;

// PATH when the grader has none.
const DEFAULT_PATH = '/usr/local/bin:/usr/bin:/bin';

// The program's environment: the passed names, and TMPDIR and HOME both set to the process's own temp dir.
export function programEnv(graderEnv: NodeJS.ProcessEnv, tmp: string): Record<string, string> {
  const env: Record<string, string> = { PATH: DEFAULT_PATH };
  for (const name of PASSED_NAMES) {
    const value = graderEnv[name];
    if (value !== undefined && value !== '') env[name] = value;
  }
  return { ...env, TMPDIR: tmp, HOME: tmp };
}
