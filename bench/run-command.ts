// Runs one measured command and checks it did the whole job: a fast run that graded nothing, or failed,
// measures nothing.
import { execa } from 'execa';

// What a measured command printed, and how long it took from spawn to exit (ms).
export type CommandRun = { stdout: string; ms: number };

// Runs `command args` to completion; throws with its output unless it exits 0 and, when `expect` is given,
// prints a line matching it.
export async function runCommand(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; expect?: RegExp },
): Promise<CommandRun> {
  const start = performance.now();
  const result = await execa(command, args, {
    cwd: options.cwd,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...options.env },
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
  });
  const ms = performance.now() - start;
  const ok = result.exitCode === 0 && (options.expect === undefined || options.expect.test(result.stdout));
  if (!ok) {
    const tail = (s: string): string => s.split('\n').slice(-15).join('\n');
    throw new Error(
      `bench: \`${[command, ...args].join(' ')}\` exited ${result.exitCode}${options.expect ? ` without printing ${options.expect}` : ''}\n` +
        `stdout:\n${tail(result.stdout)}\nstderr:\n${tail(result.stderr)}`,
    );
  }
  return { stdout: result.stdout, ms };
}
