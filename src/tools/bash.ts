import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { asJson, isMissing, requireString } from './arguments.ts';
import { CappedText } from './capped-text.ts';
import { fail, isFailure } from './output.ts';
import { killGroup, release, track } from './process-group.ts';
import type { ToolOutput } from './types.ts';

// How many characters of output a result keeps.
export const BASH_LIMIT = 30_000;
// The timeout when a call sets none, in milliseconds (Claude Code's default).
export const DEFAULT_TIMEOUT_MS = 120_000;
// The largest timeout a call may ask for (Claude Code's maximum).
export const MAX_TIMEOUT_MS = 600_000;
// After the shell exits, how long output may still arrive from a process that left its group (setsid)
// before the pipe is closed on it.
const DRAIN_MS = 1_000;
// `sh` routes both streams into the one pipe, then becomes bash, so bash's own messages read `bash: line 1: …`
// and stdout and stderr interleave in the order they were written.
const WRAPPER = 'exec 2>&1; exec bash -c "$1"';

// `Bash` / `bash`: runs a command in the sandbox with a fixed environment and returns its merged output.
export async function bash(root: string, rawCommand: unknown, rawTimeout: unknown): Promise<ToolOutput> {
  const command = requireString(rawCommand, 'command');
  if (isFailure(command)) return command;
  // An argv string cannot hold one; spawn would throw.
  if (command.includes('\0')) return fail("Invalid parameter 'command': it must not contain a NUL byte");
  const timeoutMs = timeoutOf(rawTimeout);
  if (isFailure(timeoutMs)) return timeoutMs;
  return run(root, command, timeoutMs);
}

function timeoutOf(value: unknown): number | ToolOutput {
  if (isMissing(value)) return DEFAULT_TIMEOUT_MS;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_TIMEOUT_MS) return value;
  return fail(
    `Invalid parameter 'timeout': expected a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, got ${asJson(value)}`,
  );
}

function run(root: string, command: string, timeoutMs: number): Promise<ToolOutput> {
  return new Promise((settle) => {
    const child = spawn('/bin/sh', ['-c', WRAPPER, 'sh', command], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root, LANG: 'C.UTF-8', TZ: 'UTC' },
      stdio: ['ignore', 'pipe', 'ignore'],
      // Its own process group, so the command and everything it starts can be killed together.
      detached: true,
    });
    const output = new CappedText(BASH_LIMIT);
    let timedOut = false;
    let exitCode: number | undefined;
    let drain: NodeJS.Timeout | undefined;
    const pid = child.pid;
    if (pid !== undefined) track(pid);
    const timer = setTimeout(() => {
      timedOut = true;
      if (pid !== undefined) killGroup(pid);
    }, timeoutMs);

    child.stdout.on('data', (chunk: Buffer) => output.write(chunk));
    child.on('exit', (code, signal) => {
      // A command that finished in time has not timed out, however long its leftovers take to go.
      clearTimeout(timer);
      exitCode = code ?? 128 + (signal === null ? 0 : constants.signals[signal]);
      // Background jobs left behind would hold the pipe open and hang the call.
      if (pid !== undefined) killGroup(pid);
      drain = setTimeout(() => child.stdout.destroy(), DRAIN_MS);
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      settle(fail(`Cannot run command: ${error.message}`));
    });
    child.on('close', () => {
      clearTimeout(timer);
      clearTimeout(drain);
      if (pid !== undefined) release(pid);
      if (exitCode === undefined) return;
      let content = output.end();
      if (timedOut) content += `\n[timed out after ${timeoutMs} ms; the command and its children were killed]`;
      const code = timedOut ? 124 : exitCode;
      settle({ content, is_error: code !== 0, exit_code: code });
    });
  });
}
