import type { StandbySource } from '../../grade/run/run-program.ts';

// What every command is given instead of touching `process`: streams, the working directory, the environment.
export type CommandIo = {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream;
  // The theinference package root whose cases/ and snapshots/ the stages and snapshot commands use; tests
  // point it at a copy. Default: this package.
  root?: string;
  // Aborted on Ctrl-C: every program process is killed and its temp dir removed before the command settles.
  signal?: AbortSignal;
  // Program processes already starting for a one-off `test` run (src/cli/early-start.ts); the caller closes them.
  standbys?: StandbySource;
};

// How a command ended; src/cli/main.ts alone turns it into an exit code.
export type Outcome = 'pass' | 'fail' | 'misuse' | 'interrupted';

// Colour as chalk decides it from FORCE_COLOR (set: colour unless it is `0` or `false`, on a pipe too, as vitest and
// jest do), else never when NO_COLOR is set to anything non-empty (no-color.org), else on a terminal unless it says it
// has none (TERM=dumb: Emacs' shell, some CI consoles). Written out rather than read from chalk's `supportsColor`:
// that is computed once from the process's own environment and file descriptor 1 when chalk loads, not from the
// streams and environment a command is given, and it does not read NO_COLOR.
export function useColor(io: CommandIo): boolean {
  const force = io.env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  if ((io.env.NO_COLOR ?? '') !== '') return false;
  return io.stdout.isTTY === true && !dumbTerminal(io);
}

// A terminal that cannot move its cursor back (TERM=dumb): a count redrawn in place would print line after line.
export function dumbTerminal(io: CommandIo): boolean {
  return io.env.TERM === 'dumb';
}

// Writes to a stream and resolves once it is flushed, so output is complete before the exit code is set.
export function write(stream: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.write(text, (error?: Error | null) => (error ? reject(error) : resolve()));
  });
}
