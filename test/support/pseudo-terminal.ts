// A command run the way a person at a terminal runs it: under a pseudo-terminal of a given size, made by
// util-linux's `script` (no native module to build), its keys typed one at a time and its screen read back.
import { execa } from 'execa';
import { shellQuote } from '../../src/shell-quote.ts';

export type Terminal = {
  // Everything the command has written so far, `\r\n` read as `\n`.
  screen: () => string;
  // Resolves once the screen holds `text` `times` times in all (rejects after `timeoutMs`).
  waitFor: (text: string, times?: number, timeoutMs?: number) => Promise<void>;
  // Types keys, as a person presses them.
  type: (keys: string) => void;
  // Waits for the command to end: its exit code and the whole screen.
  ended: () => Promise<{ exitCode: number | undefined; screen: string }>;
};

// Runs `command` under a terminal of `columns`×`rows` in `cwd`, with exactly `env` (plus PATH and HOME).
export function underTerminal(
  command: string[],
  o: { cwd: string; env: Record<string, string>; columns: number; rows: number },
): Terminal {
  const shell = `stty cols ${o.columns} rows ${o.rows} && exec ${command.map(shellQuote).join(' ')}`;
  // -e: the command's own exit code; -E never: keys typed are not echoed by script itself; -q: no banner.
  const child = execa('script', ['-q', '-e', '-E', 'never', '-c', shell, '/dev/null'], {
    cwd: o.cwd,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...o.env },
    extendEnv: false,
    reject: false,
    stdin: 'pipe',
  });
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8').replace(/\r\n/g, '\n');
  });
  const count = (needle: string): number => text.split(needle).length - 1;
  return {
    screen: () => text,
    waitFor: (needle, times = 1, timeoutMs = 20_000) =>
      new Promise((resolve, reject) => {
        const started = Date.now();
        const poll = (): void => {
          if (count(needle) >= times) return resolve();
          if (Date.now() - started > timeoutMs) {
            return reject(new Error(`the terminal never showed ${JSON.stringify(needle)} ×${times}:\n${text}`));
          }
          setTimeout(poll, 20);
        };
        poll();
      }),
    type: (keys) => void child.stdin?.write(keys),
    ended: async () => {
      child.stdin?.end();
      const result = await child;
      return { exitCode: result.exitCode, screen: text };
    },
  };
}
