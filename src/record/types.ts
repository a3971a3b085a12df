// The recorder's shared vocabulary. A transcript flows through src/record/, a folder per concern:
//
//   formats/   a transcript file (Claude Code JSONL, Anthropic Messages API, OpenAI, a live capture) ->
//              ImportedTranscript: every tool call the agent made, in order, paired with its result by id
//   map/       each call in the course's vocabulary, its paths as <sandbox>, secrets and names redacted
//   seed/      the files a case starts from, from the recording's evidence or --files-from
//   replay/    every call replayed through the reference (in the grader's sandbox), kept where it reproduces
//   write/     cases and snapshots written into a course directory, and the report
//   live/      `record --live` and recordExecute: capturing a session as it runs
//
// record-transcripts.ts runs map -> seed -> replay -> write over imported transcripts.
//
// Importers are pure over the file's text (read as a stream of lines), never throw on bad content: a line they
// cannot use is a Skip, and a file they cannot use at all is an ImportProblem. Errors stay data until the CLI.

import type { FileSpec } from '../course/types.ts';

// The transcript formats the importers know; `theinference record --format <fmt>` forces one.
export type TranscriptFormat =
  | 'claude-code' // ~/.claude/projects/<project>/<session>.jsonl, its subagents/*.jsonl, `claude -p --output-format stream-json`
  | 'anthropic' // Messages API: a request body, a bare messages array, a response Message, or a raw SSE stream
  | 'openai-chat' // Chat Completions: tool_calls[].function.arguments, role "tool" results
  | 'openai-responses' // Responses API items: function_call / function_call_output
  | 'codex' // Codex CLI rollouts, ~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl
  | 'gemini' // Gemini CLI sessions, ~/.gemini/tmp/<project hash>/chats/session-*.json(l)
  | 'ai-sdk' // Vercel AI SDK messages: ModelMessage tool-call/tool-result parts, UIMessage tool parts
  | 'pi' // pi's session files, ~/.pi/agent/sessions/--<path>--/<timestamp>_<uuid>.jsonl
  | 'live'; // the request/response pairs `theinference record --live` captures (src/record/live/)

// A tool call as the agent made it: the name and input exactly as the model sent them.
export type ImportedCall = {
  // The tool_use id (Anthropic), tool_call id or call_id (OpenAI): unique within a transcript.
  id: string;
  name: string;
  // The parsed input object. Absent when the model's input never parsed as JSON (see `malformed`).
  input?: Record<string, unknown>;
  // Why the input could not be used: a streamed input that never parsed, arguments that are not a JSON object.
  malformed?: string;
  // The result the agent's harness fed back, when the transcript has one.
  result?: ImportedResult;
  // Set when the call never ran although it has a result: rejected by the user, blocked by a hook, cancelled
  // because a parallel sibling failed. Such a call is never replayed.
  notRun?: string;
  // The working directory of the session when the call was made (Claude Code's `cwd`; absent elsewhere).
  cwd?: string;
  // When the call was made (ISO 8601), when the transcript says.
  timestamp?: string;
  // Where the call was found: the file (as given on the command line) and its 1-based line.
  file: string;
  line: number;
  // The subagent that made the call (Claude Code's agentId; in stream-json the Task call's parent_tool_use_id),
  // absent for the main session.
  agent?: string;
  // The API message the call came in (Anthropic message id; OpenAI response id where it has one): calls that
  // share it were made in parallel, in one turn.
  messageId?: string;
};

// What came back for a call.
export type ImportedResult = {
  // The text the model read: content blocks joined, exactly as recorded (prefixes and reminders untouched).
  content: string;
  isError: boolean;
  // Structured evidence beside the text, when the harness kept it: Claude Code's `toolUseResult`, sometimes a
  // plain string. Never shown to the model. Kept lean (formats/claude-code-details.ts): everything as recorded
  // except `structuredPatch` (derivable from originalFile and the edit), `usage` and an image's `file.base64`.
  // So a Read keeps `file.{filePath,content,numLines,startLine,totalLines}`, an Edit `filePath`, `originalFile`,
  // `oldString`, `newString`, `replaceAll`, `userModified`, a Write `type` ("create"/"update"), `filePath`,
  // `content`, `originalFile`, Glob/Grep `filenames`, `numFiles`, `mode`, `content`, `numLines`, Bash `stdout`,
  // `stderr`, `interrupted`. Absent in subagent files and in formats other than Claude Code.
  details?: unknown;
  line: number;
};

// A line (or SSE event) the importer did not use, counted in the report by reason. Only lines that could have held
// a call or a result are skipped and counted (bad JSON, over-long lines, compaction lines, results of unknown calls,
// server-side tools, stream errors); lines that hold none (progress, snapshots, text) are read and not counted.
// `line` 0 means the whole file (a Claude Code `agent-acompact-*` subagent file, left out of its session).
export type Skip = { file: string; line: number; reason: string };

// One transcript, imported: what it is, where it ran, and every call in the order the agent made them.
export type ImportedTranscript = {
  format: TranscriptFormat;
  // The files read, the main one first (a Claude Code session with its subagents/ files is one transcript).
  files: string[];
  sessionId?: string;
  // The first and last timestamps seen (ISO 8601).
  startedAt?: string;
  endedAt?: string;
  // The session's working directory at its start (absent when the format does not say).
  cwd?: string;
  calls: ImportedCall[];
  skipped: Skip[];
  // The session's directory as it was when the session started, when the transcript holds it (a live capture's
  // workspace line): relative path -> contents, as a case's `files`. Seeds read files from it as from --files-from.
  workspace?: Record<string, FileSpec>;
};

// A file the importers cannot use at all: empty, binary, no known format, no tool calls. Names the file, the
// line when there is one, and what to do.
export type ImportProblem = { file: string; line?: number; message: string };
