// The CLI run in this process with injected streams, as tests drive it: what it wrote and its exit code.
import { PassThrough } from 'node:stream';
import { runCli } from '../../src/cli/main.ts';

// Runs `theinference <argv…>` in `cwd` without colour, collecting stdout and stderr; `env` is laid over the test's
// environment.
export async function cliInProcess(
  argv: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: string[] = [];
  const err: string[] = [];
  stdout.on('data', (c: Buffer) => out.push(c.toString()));
  stderr.on('data', (c: Buffer) => err.push(c.toString()));
  const code = await runCli({
    argv,
    cwd,
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdin: new PassThrough(),
    stdout,
    stderr,
  });
  return { code, stdout: out.join(''), stderr: err.join('') };
}
