// Who recorded: the recording machine's user names, home directories and host names, as a transcript shows them
// where they can only be the machine's, never where they may be content. The machine's own facts are where the
// agent acted: the session's and each call's working directory, the paths a call names as its file or directory
// (`file_path`, `workdir`, Gemini's `absolute_path`…), the home directories a shell command names, and the owners
// `ls -l` printed (accounts of that machine, whoever they are). What a file the agent read says (`/Users/alex/…` in
// a comment, `test@test.com` in a test) is content: it is not read here, so it is left as the project has it
// unless it is the machine's own name. Besides these, the machine running `record` (its user, home and host name).
// Pure.
import type { MachineIdentity } from '../record-types.ts';
import type { ImportedCall, ImportedTranscript } from '../types.ts';
import { identityIn, type RedactionSources } from './redact.ts';

// The input keys whose value is a path the agent's tool acted on, in any harness's spelling.
const PATH_KEYS = [
  'file_path',
  'path',
  'absolute_path',
  'dir_path',
  'directory',
  'workdir',
  'working_directory',
  'cwd',
  'notebook_path',
];

// The keys that hold a shell line.
const COMMAND_KEYS = ['command', 'cmd'];

// A home directory inside a shell line: `/home/<user>`, `/Users/<user>`, `C:\Users\<user>` (either slash).
const HOME_IN_LINE =
  /(?<![\w.~-])(?:\/(?:home|Users)\/[A-Za-z0-9._-]+|[A-Za-z]:[\\/]+Users[\\/]+[A-Za-z0-9._ -]+?)(?=[\\/'"\s]|$)/g;

// An `ls -l` line's owner and group.
const LS_LINE = /^[-dlcbps][rwxsStT-]{9}[@+.]?[ \t]+\d+[ \t]+([A-Za-z_][\w.-]*)[ \t]+([A-Za-z_][\w.-]*)[ \t]+\d/gm;

export type Identity = Pick<RedactionSources, 'users' | 'homes' | 'hosts'>;

// The recording machine's identity as a transcript and the machine running `record` show it.
export function identityOf(transcript: ImportedTranscript, machine: MachineIdentity = {}): Identity {
  return identityOfCalls(transcript.cwd, transcript.calls, machine);
}

// The same from a session's directory and its calls (a loop session's tool uses: their inputs, no results).
export function identityOfCalls(
  cwd: string | undefined,
  calls: Pick<ImportedCall, 'cwd' | 'input' | 'result'>[],
  machine: MachineIdentity = {},
): Identity {
  const seen: { user?: string; home?: string }[] = [identityIn(cwd), machine];
  const owners: string[] = [];
  for (const call of calls) {
    seen.push(identityIn(call.cwd));
    for (const key of PATH_KEYS) {
      const value = call.input?.[key];
      if (typeof value === 'string') seen.push(identityIn(value));
    }
    for (const line of commandLines(call)) for (const m of line.matchAll(HOME_IN_LINE)) seen.push(identityIn(m[0]));
    if (commandLines(call).length > 0)
      for (const m of (call.result?.content ?? '').matchAll(LS_LINE)) owners.push(m[1] as string);
  }
  return {
    users: unique([...seen.map((s) => s.user), ...owners]),
    homes: unique(seen.map((s) => s.home)),
    hosts: unique([machine.host]),
  };
}

// Several identities as one (the cases of several transcripts are written together).
export function joinIdentities(identities: Identity[]): Identity {
  return {
    users: unique(identities.flatMap((i) => i.users)),
    homes: unique(identities.flatMap((i) => i.homes)),
    hosts: unique(identities.flatMap((i) => i.hosts ?? [])),
  };
}

// The machine running the command, as an identity.
export function identityOfMachine(machine: MachineIdentity): Identity {
  return { users: unique([machine.user]), homes: unique([machine.home]), hosts: unique([machine.host]) };
}

function commandLines(call: Pick<ImportedCall, 'input'>): string[] {
  const lines: string[] = [];
  for (const key of COMMAND_KEYS) {
    const value = call.input?.[key];
    if (typeof value === 'string') lines.push(value);
    else if (Array.isArray(value)) lines.push(value.filter((w) => typeof w === 'string').join(' '));
  }
  return lines;
}

function unique(values: (string | undefined)[]): string[] {
  return [...new Set(values.filter((v): v is string => v !== undefined && v !== ''))];
}
