// The recording pipeline's own vocabulary: what `recordTranscripts` takes (imported transcripts and options) and
// what it gives back (cases ready to write, and a report per transcript). Pure data; the CLI renders and writes.
import type { Call, FileSpec } from '../course/types.ts';

// What happens to Bash calls: `reproducible` keeps one only when two replays agree with each other and with the
// recording; `keep` keeps one when one replay agrees with the recording; `drop` never keeps one.
export type BashMode = 'reproducible' | 'keep' | 'drop';
// Every mode, as --bash lists them.
export const BASH_MODES: readonly BashMode[] = ['reproducible', 'keep', 'drop'];

// The calls a case holds at most when --max-calls is not given.
export const DEFAULT_MAX_CALLS = 25;
// Turns a recorded loop may have at most, when --max-calls does not say: a long session's loop makes a big case.
export const DEFAULT_MAX_TURNS = 60;

// Who recorded: the user name, home directory and host name of the machine running `record`, which never reach a
// case (besides what the transcript shows of the machine that recorded it).
export type MachineIdentity = { user?: string; home?: string; host?: string };

// How to record.
export type RecordOptions = {
  stage: string;
  // The case name (a slug); cases are `<name>.json`, or `<name>-01.json`… when there are several. Default: from
  // the transcript (`recorded-<session id or file name>`).
  name?: string;
  // The workspace as it was when the session started: file contents for seeds.
  filesFrom?: string;
  maxCalls: number;
  bash: BashMode;
  // --redact patterns, replaced by `<redacted>` wherever they match.
  redact: RegExp[];
  // The course directory the cases and snapshots are written into (cases/<stage>/, snapshots/<stage>/).
  dir: string;
  // Write nothing; report what would be written.
  dryRun: boolean;
  // Replace existing cases whose content differs (else they are refused and nothing is written).
  force: boolean;
  machine?: MachineIdentity;
  // The theinference package whose program.ts and src/ are the reference that replays the calls.
  root: string;
  // Whether the replays run in the OS sandbox (the command's --isolation decision): recorded commands such as
  // `git push` or `rm -rf` then see only a tmpfs, no network and no home directory.
  sandbox: boolean;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  // Told after each call replayed, for a progress line.
  onProgress?: (progress: RecordProgress) => void;
  // Told after each case the reference snapshotted, for the same line.
  onSnapshotProgress?: (done: number, of: number) => void;
};

// How far the replay is: calls replayed out of all the calls to replay (of every transcript), and the transcript
// whose call was replayed last.
export type RecordProgress = { replayed: number; of: number; transcript: string };

// A call in the course's vocabulary, with where it came from and what the recording says it returned.
export type MappedCall = {
  id: string;
  call: Call;
  // The agent's own name for the tool, and its input keys: original key -> course key (dropped keys absent).
  originalTool: string;
  renamedKeys: Record<string, string>;
  // The values of input keys not carried over as they were: keys the course has no use for (a Bash
  // `description`, a Grep `output_mode`) and keys turned into another (a Read's `offset` and `limit`).
  droppedKeys: Record<string, unknown>;
  // How to compare the replayed result with the recorded one (src/record/replay/verify-result.ts).
  check: CheckSpec;
  timestamp?: string;
};

// The per-tool rule a call's replay is judged by, with what the mapping learned from the recording.
export type CheckSpec =
  | { kind: 'view' }
  | { kind: 'write' }
  | { kind: 'edit'; expectedAfter?: string }
  | { kind: 'insert' }
  | { kind: 'glob'; base: string }
  // A directory's view, recorded as Claude Code's LS tree of `base` (ls-tree.ts; `ignore`: LS's patterns) or, `from`
  // list_directory, Gemini CLI's one-level listing (gemini-listing.ts).
  | { kind: 'directory'; base: string; ignore?: string[]; from?: 'list_directory' }
  // `courseWords`: the recorded result is in the course's own `file:N: text` (an agent built on the course's tools).
  | {
      kind: 'grep';
      mode: 'files' | 'lines' | 'text';
      base: string;
      singleFile?: string;
      courseWords?: boolean;
      // The agent showed context lines around each match (`-A`/`-B`/`-C`): its match lines are compared.
      context?: boolean;
    }
  | { kind: 'bash' };

// Why a call is not in any case, for the report: a short, stable reason, counted.
export type DropReason = string;

// Where a seeded file's content came from.
export type SeedOrigin = 'read' | 'edit' | 'write' | 'partial-read' | 'listing' | 'files-from';

// A case before it is named: seed, calls, and the ids and evidence behind them.
export type CaseDraft = {
  files: Record<string, FileSpec>;
  origins: Record<string, SeedOrigin>;
  calls: MappedCall[];
  results: unknown[];
  agent?: string;
};

// A recorded call whose replay differs from the recording: shown in the report as a diff.
export type Divergence = { id: string; tool: string; reason: string; recorded: string; replayed: string };

// A call in no case: which, and why (the report lists them with --verbose).
export type DroppedCall = { id: string; tool: string; reason: DropReason };

// Input the importer left out for one reason: how much, and where the first of it is (`line 4`,
// `agent-a1.jsonl line 7`, or a whole file's name).
export type SkippedInput = { reason: string; count: number; wholeFiles: boolean; first: string };

// What happened to one transcript's calls.
export type TranscriptReport = {
  transcript: string;
  format: string;
  sessionId?: string;
  seen: number;
  mapped: number;
  replayed: number;
  kept: number;
  dropped: Record<DropReason, number>;
  // The files read beside the main one (a Claude Code session's subagents).
  subagentFiles: number;
  // What the importer left out, by reason, most frequent first: lines, or whole files (a compaction summariser).
  skipped: SkippedInput[];
  cases: string[];
  seeds: Partial<Record<SeedOrigin, number>>;
  redactions: Record<string, number>;
  // Of the mapped calls replayed, how many gave the recorded result.
  reproduced: number;
  // Every divergence: the first of each kind, then the others, each group in the order of the calls.
  divergences: Divergence[];
  // Every call in no case, in the order of the calls.
  droppedCalls: DroppedCall[];
  // The replay was reused from an earlier run (a dry run) of the same transcript, options and reference.
  reused?: true;
};
