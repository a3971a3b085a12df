// Codex CLI's shell tools as the course's Bash.
import type { ImportedCall } from '../types.ts';
import { asRecord, type Dropped, type MapContext, type Mapping } from './call-input.ts';
import { SANDBOX } from '../../course/sandbox-placeholder.ts';

// Codex's shell tools: `shell {command: argv, workdir?, timeout_ms?}`, `exec_command {cmd, workdir?}`, a
// local_shell_call's action `{command: argv, working_directory?}` and the `exec` custom tool's line (`{input}`). `bash -lc LINE` is the line; another argv is
// quoted into one. A workdir below the session's directory is a `cd` first, as for Claude Code's shell.
export function mapCodexShell(
  imported: ImportedCall,
  input: Record<string, unknown>,
  context: MapContext,
): Mapping | Dropped {
  if (asRecord(imported.result?.details)?.running === true) return { drop: 'Bash in the background' };
  const line = input.cmd ?? (imported.name === 'exec' ? input.input : undefined);
  const command = typeof line === 'string' ? line : shellLine(input.command);
  if (command === undefined) return { drop: `${imported.name} without a command` };
  const workdir = input.workdir ?? input.working_directory;
  let cd = context.subdir === undefined ? undefined : context.subdir === '' ? SANDBOX : `${SANDBOX}/${context.subdir}`;
  if (typeof workdir === 'string') cd = workdir === SANDBOX || workdir.startsWith(`${SANDBOX}/`) ? workdir : undefined;
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
