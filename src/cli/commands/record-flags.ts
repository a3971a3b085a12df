// The flags `theinference record` and `theinference record --live` share, checked in one place before any work
// (for --live, before the agent starts, so a typo never costs a session), each error saying how to fix it.
import { stat } from 'node:fs/promises';
import { courseDirFor } from '../../course/find-course-dir.ts';
import { STAGES, type Stage } from '../../course/stages.ts';
import { HarnessError } from '../../errors.ts';
import { chooseSandbox } from '../../grade/run/isolation/choose-sandbox.ts';
import type { IsolationMode } from '../../grade/run/isolation/isolation-mode.ts';
import { BASH_MODES, DEFAULT_MAX_CALLS, type BashMode } from '../../record/record-types.ts';
import { write, type CommandIo } from './io.ts';
import { recorderOf } from './mode-recorder.ts';

// The flags as commander hands them over; `operands` are the transcripts (or, with --live, the agent command).
export type RecordFlags = {
  operands: string[];
  stage: string;
  name?: string;
  dir?: string;
  format?: string;
  filesFrom?: string;
  maxCalls?: string;
  bash?: string;
  // Absent when none is given (so --help shows no `(default: [])`).
  redact?: string[];
  dryRun?: boolean;
  force?: boolean;
  verbose?: boolean;
  divergences?: string;
  isolation?: IsolationMode;
  live?: boolean;
  workspace?: string;
  upstream?: string;
  port?: string;
  keepTranscript?: string;
};

// Refuses the flags only a stage of tool cases reads (--bash, --files-from) for a stage whose mode replays no tools
// (a loop's cases replay the model's turns with the tool outputs as recorded): given there, they would be ignored.
export async function refuseToolCaseFlags(flags: RecordFlags, stage: Stage): Promise<void> {
  const replays = async (s: Stage) => (await recorderOf(s.mode))?.replaysTools;
  if ((await replays(stage)) !== false) return;
  const toolStages = (await Promise.all(STAGES.map(async (s) => ((await replays(s)) === true ? [s.slug] : []))))
    .flat()
    .join(', ');
  const why = `--stage ${stage.slug} records loop cases, whose tool outputs are used as recorded`;
  if (flags.bash !== undefined)
    badFlag(
      `--bash ${flags.bash}: ${why} (no command is replayed, so none is kept or dropped); --bash is for the stages of tool cases (${toolStages}). Drop --bash.`,
    );
  if (flags.filesFrom !== undefined)
    badFlag(
      `--files-from ${flags.filesFrom}: ${why} (execute answers with them, so no sandbox is seeded); --files-from is for the stages of tool cases (${toolStages}). Drop --files-from.`,
    );
}

// The shared flags, checked: the course directory (--dir, else the one found from the working directory as
// `theinference test` finds it), calls per case, the Bash mode, the --redact patterns, and whether the replays run
// in the OS sandbox.
export type SharedFlags = { dir: string; maxCalls: number; bash: BashMode; redact: RegExp[]; sandbox: boolean };

// Throws the misuse error for a flag.
export function badFlag(message: string): never {
  throw new HarnessError('BAD_FLAG', message);
}

// Checks the flags both kinds of recording take.
export async function checkSharedFlags(flags: RecordFlags, io: CommandIo): Promise<SharedFlags> {
  if (flags.name !== undefined && !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(flags.name))
    badFlag(`--name must be a kebab-case slug such as recorded-my-session, got '${flags.name}'`);
  const maxCalls = flags.maxCalls === undefined ? DEFAULT_MAX_CALLS : Number(flags.maxCalls);
  if (!Number.isInteger(maxCalls) || maxCalls < 1)
    badFlag(
      `--max-calls takes a whole number of at least 1, e.g. --max-calls ${DEFAULT_MAX_CALLS}; got '${flags.maxCalls}'`,
    );
  const bash = (flags.bash ?? 'reproducible') as BashMode;
  if (!BASH_MODES.includes(bash)) badFlag(`--bash takes one of ${BASH_MODES.join(', ')}; got '${flags.bash}'`);
  const redact = (flags.redact ?? []).map(redactPattern);
  const dir = courseDirFor(io.cwd, flags.dir);
  if (!(await isDirectory(dir)))
    badFlag(`--dir ${flags.dir ?? '.'}: no such directory; give the course directory the cases go into`);
  // Recorded commands (`git push`, `rm -rf …`) are replayed: `required` without a sandbox stops here, before any.
  const isolation = await chooseSandbox(flags.isolation, io.env);
  if (isolation.warning !== undefined) await write(io.stderr, `warning: ${isolation.warning}\n`);
  return { dir, maxCalls, bash, redact, sandbox: isolation.sandbox };
}

// A --redact pattern (record's, and `theinference redact`'s). One that matches empty text (`''`, `x*`, an unset shell variable) would put `<redacted>`
// between every two characters of every string, keys included, and no call would replay.
export function redactPattern(source: string): RegExp {
  let pattern: RegExp;
  try {
    pattern = new RegExp(source);
  } catch (error) {
    return badFlag(`--redact '${source}' is not a valid regular expression (${(error as Error).message})`);
  }
  if (pattern.test(''))
    badFlag(
      `--redact '${source}' matches empty text, so it would redact between every two characters: give a pattern for the text to remove, e.g. --redact 'acme-[0-9]+'`,
    );
  return pattern;
}

// Whether a path is a directory.
export async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() === true;
}
