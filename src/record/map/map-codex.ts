// Codex CLI's shell tools as the course's Bash.
import type { ImportedCall } from '../types.ts';
import { asRecord, type Dropped, type MapContext, type Mapping } from './call-input.ts';
import { posix } from 'node:path';
import { SANDBOX } from '../../course/sandbox-placeholder.ts';

// Codex's shell tools: `shell {command: argv, workdir?, timeout_ms?}`, `shell_command {command: LINE, workdir?,
// timeout_ms?}` (Codex 0.5x and later send the line as one string), `exec_command {cmd, workdir?}`, a
// local_shell_call's action `{command: argv, working_directory?}` and the `exec` custom tool's line (`{input}`).
// `bash -lc LINE` is the line; another argv is quoted into one. A workdir below the session's directory is a `cd`
// first, as for Claude Code's shell.
export function mapCodexShell(
  imported: ImportedCall,
  input: Record<string, unknown>,
  context: MapContext,
): Mapping | Dropped {
  if (asRecord(imported.result?.details)?.running === true) return { drop: 'Bash in the background' };
  const line = input.cmd ?? (imported.name === 'exec' ? input.input : undefined);
  const command =
    typeof line === 'string' ? line : typeof input.command === 'string' ? input.command : shellLine(input.command);
  if (command === undefined) return { drop: `${imported.name} without a command` };
  const workdir = input.workdir ?? input.working_directory;
  let cd = context.subdir === undefined ? undefined : context.subdir === '' ? SANDBOX : `${SANDBOX}/${context.subdir}`;
  if (typeof workdir === 'string') cd = workdirIn(workdir, cd);
  if (cd === undefined) return { drop: "Bash after a cd out of the session's directory" };
  const renamedKeys: Record<string, string> = {};
  const droppedKeys: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (key === 'cmd' || key === 'command' || (key === 'input' && imported.name === 'exec'))
      renamedKeys[key] = 'command';
    else if (key === 'timeout_ms' && typeof value === 'number') renamedKeys[key] = 'timeout';
    else droppedKeys[key] = value;
  }
  const timeout = typeof input.timeout_ms === 'number' ? { timeout: input.timeout_ms } : {};
  return {
    call: { tool: 'Bash', input: { command: cd === SANDBOX ? command : `cd ${cd} && ${command}`, ...timeout } },
    renamedKeys,
    droppedKeys,
    check: { kind: 'bash' },
  };
}

// The shell line an argv runs: the script of `bash -lc LINE` (or sh, zsh; -c), else the words quoted as needed.
function shellLine(argv: unknown): string | undefined {
  if (!Array.isArray(argv) || argv.length === 0 || !argv.every((w) => typeof w === 'string')) return undefined;
  const words = argv as string[];
  if (words.length === 3 && /(?:^|\/)(?:ba|z)?sh$/.test(words[0] as string) && /^-l?c$/.test(words[1] as string))
    return words[2];
  return words.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replaceAll("'", "'\\''")}'`)).join(' ');
}

// A workdir as the directory the command runs in: the session's directory or one below it (`<sandbox>/src`), or a
// relative one (`src`), which Codex resolves against the turn's directory; anywhere else is outside the session.
function workdirIn(workdir: string, base: string | undefined): string | undefined {
  if (workdir === SANDBOX || workdir.startsWith(`${SANDBOX}/`)) return workdir.replace(/\/+$/, '');
  if (workdir.startsWith('/') || workdir.startsWith('~') || /^[A-Za-z]:/.test(workdir) || base === undefined)
    return undefined;
  const inside = posix.join(base.slice(SANDBOX.length + 1), workdir).replace(/\/+$/, '');
  if (inside === '..' || inside.startsWith('../')) return undefined;
  return inside === '.' || inside === '' ? SANDBOX : `${SANDBOX}/${inside}`;
}
